package io.venue.transport.http;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.nio.ByteBuffer;

/**
 * A strict JSON reader (RFC 8259) for the bodies of the lane's non-trading routes (agents, tokens): objects become
 * {@code Map<String, Object>} in document order, arrays {@code List<Object>}, integers {@code Long} (or
 * {@code BigInteger} beyond 64 bits), other numbers {@code BigDecimal}, plus {@code String}, {@code Boolean} and
 * null. Refused, with the character position: invalid UTF-8, duplicate keys, nesting deeper than {@link #MAX_DEPTH},
 * a number literal over {@link #MAX_NUMBER_LENGTH} characters or out of range, a {@code \\u} escape of other than four
 * ASCII hex digits, a lone surrogate (a high one not followed by a low one's escape, a low one not after a high one),
 * anything after the value. The signed
 * trading actions have their own canonical parser; this one is for requests whose signed text the lane rebuilds from
 * the fields.
 */
public final class JsonReader
{
    public static final int MAX_DEPTH = 16;
    /** Longer number literals are refused: no field needs one, and parsing a huge one costs the I/O thread seconds. */
    public static final int MAX_NUMBER_LENGTH = 40;

    /** What is wrong with a body and where. */
    public static final class JsonException extends Exception
    {
        public JsonException(final String message)
        {
            super(message, null, false, false);
        }
    }

    private final String text;
    private int at;
    private int depth;

    private JsonReader(final String text)
    {
        this.text = text;
    }

    public static Object read(final byte[] body) throws JsonException
    {
        final String text;
        try
        {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        }
        catch (final CharacterCodingException ex)
        {
            throw new JsonException("the body is not valid UTF-8");
        }
        final JsonReader reader = new JsonReader(text);
        reader.skipSpace();
        final Object value = reader.value();
        reader.skipSpace();
        if (reader.at != text.length())
        {
            throw reader.error("unexpected content after the JSON value");
        }
        return value;
    }

    private Object value() throws JsonException
    {
        if (at >= text.length())
        {
            throw error("the body ends where a value should be");
        }
        final char c = text.charAt(at);
        return switch (c)
        {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default ->
            {
                if (c == '-' || (c >= '0' && c <= '9'))
                {
                    yield number();
                }
                throw error("unexpected character '" + printable(c) + "'");
            }
        };
    }

    private Map<String, Object> object() throws JsonException
    {
        enter();
        at++;
        final Map<String, Object> map = new LinkedHashMap<>();
        skipSpace();
        if (peek() == '}')
        {
            at++;
            depth--;
            return map;
        }
        while (true)
        {
            skipSpace();
            if (peek() != '"')
            {
                throw error("expected a quoted key");
            }
            final int keyAt = at;
            final String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            final Object value = value();
            if (map.containsKey(key))
            {
                at = keyAt;
                throw error("duplicate key \"" + key + "\"");
            }
            map.put(key, value);
            skipSpace();
            final char next = peek();
            at++;
            if (next == '}')
            {
                depth--;
                return map;
            }
            if (next != ',')
            {
                at--;
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array() throws JsonException
    {
        enter();
        at++;
        final List<Object> list = new ArrayList<>();
        skipSpace();
        if (peek() == ']')
        {
            at++;
            depth--;
            return list;
        }
        while (true)
        {
            skipSpace();
            list.add(value());
            skipSpace();
            final char next = peek();
            at++;
            if (next == ']')
            {
                depth--;
                return list;
            }
            if (next != ',')
            {
                at--;
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() throws JsonException
    {
        at++;
        final StringBuilder out = new StringBuilder();
        while (true)
        {
            if (at >= text.length())
            {
                throw error("unterminated string");
            }
            final char c = text.charAt(at++);
            if (c == '"')
            {
                return out.toString();
            }
            if (c < 0x20)
            {
                at--;
                throw error("control character in a string");
            }
            if (c != '\\')
            {
                out.append(c);
                continue;
            }
            if (at >= text.length())
            {
                throw error("unterminated escape");
            }
            final char e = text.charAt(at++);
            switch (e)
            {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' ->
                {
                    final char code = unicodeEscape();
                    if (Character.isLowSurrogate(code))
                    {
                        at -= 6;
                        throw error("a lone low surrogate \\u" + hex4(code) + " (it must follow a high surrogate)");
                    }
                    if (Character.isHighSurrogate(code))
                    {
                        // a high surrogate is half a character: only a low surrogate's escape may complete it
                        if (at + 2 > text.length() || text.charAt(at) != '\\' || text.charAt(at + 1) != 'u')
                        {
                            at -= 6;
                            throw error("a lone high surrogate \\u" + hex4(code) +
                                " (a \\u escape of a low surrogate must follow it)");
                        }
                        at += 2;
                        final char low = unicodeEscape();
                        if (!Character.isLowSurrogate(low))
                        {
                            at -= 12;
                            throw error("a lone high surrogate \\u" + hex4(code) + " (followed by \\u" + hex4(low) +
                                ", not a low surrogate)");
                        }
                        out.append(code).append(low);
                    }
                    else
                    {
                        out.append(code);
                    }
                }
                default ->
                {
                    at--;
                    throw error("unknown escape \\" + printable(e));
                }
            }
        }
    }

    private Object number() throws JsonException
    {
        final int start = at;
        if (peek() == '-')
        {
            at++;
        }
        if (peek() == '0')
        {
            at++;
        }
        else if (!digits())
        {
            throw error("a number needs digits");
        }
        boolean integer = true;
        if (peek() == '.')
        {
            at++;
            integer = false;
            if (!digits())
            {
                throw error("a fraction needs digits");
            }
        }
        if (peek() == 'e' || peek() == 'E')
        {
            at++;
            integer = false;
            if (peek() == '+' || peek() == '-')
            {
                at++;
            }
            if (!digits())
            {
                throw error("an exponent needs digits");
            }
        }
        if (at - start > MAX_NUMBER_LENGTH)
        {
            at = start;
            throw error("a number longer than " + MAX_NUMBER_LENGTH + " characters");
        }
        final String literal = text.substring(start, at);
        try
        {
            if (!integer)
            {
                return new BigDecimal(literal);
            }
            final BigInteger value = new BigInteger(literal);
            return value.bitLength() < 64 ? (Object)value.longValue() : value;
        }
        catch (final NumberFormatException ex)
        {
            at = start;
            throw error("a number out of range");
        }
    }

    private boolean digits()
    {
        final int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9')
        {
            at++;
        }
        return at > start;
    }

    private Object literal(final String word, final Object value) throws JsonException
    {
        if (!text.startsWith(word, at))
        {
            throw error("unexpected word; expected " + word);
        }
        at += word.length();
        return value;
    }

    private void enter() throws JsonException
    {
        if (++depth > MAX_DEPTH)
        {
            throw error("nested deeper than " + MAX_DEPTH);
        }
    }

    private void expect(final char c) throws JsonException
    {
        if (peek() != c)
        {
            throw error("expected '" + c + "'");
        }
        at++;
    }

    private char peek()
    {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private void skipSpace()
    {
        while (at < text.length())
        {
            final char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            {
                return;
            }
            at++;
        }
    }

    /**
     * The four hex digits after a {@code \\u}, {@link #at} on the first: ASCII digits and letters only (Character.digit
     * would take other scripts' digits and fullwidth letters, so two spellings would read as one string).
     */
    private char unicodeEscape() throws JsonException
    {
        if (at + 4 > text.length())
        {
            throw error("short \\u escape");
        }
        int code = 0;
        for (int i = 0; i < 4; i++)
        {
            final int digit = asciiHexDigit(text.charAt(at++));
            if (digit < 0)
            {
                at--;
                throw error("bad hex digit in a \\u escape (0-9, a-f or A-F)");
            }
            code = code * 16 + digit;
        }
        return (char)code;
    }

    private static int asciiHexDigit(final char c)
    {
        if (c >= '0' && c <= '9')
        {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f')
        {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F')
        {
            return c - 'A' + 10;
        }
        return -1;
    }

    private static String hex4(final char c)
    {
        return String.format("%04x", (int)c);
    }

    private JsonException error(final String message)
    {
        return new JsonException(message + " at character " + at);
    }

    private static String printable(final char c)
    {
        return c >= 0x20 && c < 0x7F ? String.valueOf(c) : String.format("\\u%04x", (int)c);
    }
}
