package io.venue.feed;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A small strict JSON reader for the tests: objects as ordered maps, numbers as Long, and a failure on bad text. */
final class TestJson
{
    private final String text;
    private int at;

    private TestJson(final String text)
    {
        this.text = text;
    }

    static Object parse(final String text)
    {
        final TestJson json = new TestJson(text);
        final Object value = json.value();
        if (json.at != text.length())
        {
            throw new IllegalArgumentException("trailing text at " + json.at + ": " + text);
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(final String text)
    {
        return (Map<String, Object>)parse(text);
    }

    private Object value()
    {
        final char c = text.charAt(at);
        switch (c)
        {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                return number();
        }
    }

    private Object literal(final String word, final Object value)
    {
        if (!text.startsWith(word, at))
        {
            throw new IllegalArgumentException("bad literal at " + at + ": " + text);
        }
        at += word.length();
        return value;
    }

    private Map<String, Object> object()
    {
        final Map<String, Object> map = new LinkedHashMap<>();
        at++;
        if (text.charAt(at) == '}')
        {
            at++;
            return map;
        }
        while (true)
        {
            final String key = string();
            expect(':');
            if (map.containsKey(key))
            {
                throw new IllegalArgumentException("duplicate key " + key + ": " + text);
            }
            map.put(key, value());
            if (text.charAt(at) == ',')
            {
                at++;
                continue;
            }
            expect('}');
            return map;
        }
    }

    private List<Object> array()
    {
        final List<Object> list = new ArrayList<>();
        at++;
        if (text.charAt(at) == ']')
        {
            at++;
            return list;
        }
        while (true)
        {
            list.add(value());
            if (text.charAt(at) == ',')
            {
                at++;
                continue;
            }
            expect(']');
            return list;
        }
    }

    private String string()
    {
        expect('"');
        final StringBuilder out = new StringBuilder();
        while (true)
        {
            final char c = text.charAt(at++);
            if (c == '"')
            {
                return out.toString();
            }
            if (c == '\\')
            {
                final char e = text.charAt(at++);
                if (e == 'u')
                {
                    out.append((char)Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                else
                {
                    out.append(e == 'n' ? '\n' : e == 't' ? '\t' : e);
                }
            }
            else
            {
                out.append(c);
            }
        }
    }

    private Long number()
    {
        final int start = at;
        if (text.charAt(at) == '-')
        {
            at++;
        }
        while (at < text.length() && Character.isDigit(text.charAt(at)))
        {
            at++;
        }
        if (start == at)
        {
            throw new IllegalArgumentException("bad value at " + at + ": " + text);
        }
        return Long.parseLong(text.substring(start, at));
    }

    private void expect(final char c)
    {
        if (text.charAt(at) != c)
        {
            throw new IllegalArgumentException("expected " + c + " at " + at + ": " + text);
        }
        at++;
    }
}
