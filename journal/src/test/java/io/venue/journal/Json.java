package io.venue.journal;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict parser of the JSON that {@link RecordPrinter} writes: objects (key order kept), arrays, strings,
 * integers (as BigInteger), true, false, null, and no whitespace. Throws on anything else.
 */
final class Json
{
    private final String text;
    private int pos;

    private Json(final String text)
    {
        this.text = text;
    }

    static Object parse(final String text)
    {
        final Json json = new Json(text);
        final Object value = json.value();
        if (json.pos != text.length())
        {
            throw json.error("trailing characters");
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> parseObject(final String text)
    {
        return (Map<String, Object>)parse(text);
    }

    private Object value()
    {
        if (pos >= text.length())
        {
            throw error("unexpected end");
        }
        final char c = text.charAt(pos);
        if (c == '{')
        {
            return object();
        }
        if (c == '[')
        {
            return array();
        }
        if (c == '"')
        {
            return string();
        }
        if (c == '-' || (c >= '0' && c <= '9'))
        {
            return number();
        }
        if (text.startsWith("true", pos))
        {
            pos += 4;
            return Boolean.TRUE;
        }
        if (text.startsWith("false", pos))
        {
            pos += 5;
            return Boolean.FALSE;
        }
        if (text.startsWith("null", pos))
        {
            pos += 4;
            return null;
        }
        throw error("unexpected character");
    }

    private Map<String, Object> object()
    {
        final Map<String, Object> map = new LinkedHashMap<>();
        expect('{');
        if (peek() == '}')
        {
            pos++;
            return map;
        }
        while (true)
        {
            final String key = string();
            expect(':');
            if (map.containsKey(key))
            {
                throw error("duplicate key " + key);
            }
            map.put(key, value());
            final char c = next();
            if (c == '}')
            {
                return map;
            }
            if (c != ',')
            {
                throw error("expected , or }");
            }
        }
    }

    private List<Object> array()
    {
        final List<Object> list = new ArrayList<>();
        expect('[');
        if (peek() == ']')
        {
            pos++;
            return list;
        }
        while (true)
        {
            list.add(value());
            final char c = next();
            if (c == ']')
            {
                return list;
            }
            if (c != ',')
            {
                throw error("expected , or ]");
            }
        }
    }

    private String string()
    {
        expect('"');
        final StringBuilder out = new StringBuilder();
        while (true)
        {
            final char c = next();
            if (c == '"')
            {
                return out.toString();
            }
            if (c < 0x20)
            {
                throw error("raw control character in string");
            }
            if (c != '\\')
            {
                out.append(c);
                continue;
            }
            final char e = next();
            switch (e)
            {
                case '"', '\\', '/' -> out.append(e);
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' ->
                {
                    if (pos + 4 > text.length())
                    {
                        throw error("short \\u escape");
                    }
                    out.append((char)Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> throw error("bad escape");
            }
        }
    }

    private BigInteger number()
    {
        final int start = pos;
        if (peek() == '-')
        {
            pos++;
        }
        while (pos < text.length() && Character.isDigit(text.charAt(pos)))
        {
            pos++;
        }
        final String digits = text.substring(start, pos);
        if (digits.isEmpty() || digits.equals("-") || digits.matches("-?0\\d+"))
        {
            throw error("bad number");
        }
        return new BigInteger(digits);
    }

    private char peek()
    {
        if (pos >= text.length())
        {
            throw error("unexpected end");
        }
        return text.charAt(pos);
    }

    private char next()
    {
        final char c = peek();
        pos++;
        return c;
    }

    private void expect(final char c)
    {
        if (next() != c)
        {
            throw error("expected " + c);
        }
    }

    private IllegalArgumentException error(final String message)
    {
        return new IllegalArgumentException(message + " at " + pos + " in " + text);
    }
}
