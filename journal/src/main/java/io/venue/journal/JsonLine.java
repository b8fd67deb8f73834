package io.venue.journal;

/**
 * Appends one compact JSON object to a StringBuilder, keeping track of commas: every value writer puts a
 * comma first when a value precedes it at the same level, so the same calls write object members and array
 * elements. Keys are trusted names from the schema; string values are escaped.
 */
final class JsonLine
{
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private StringBuilder out;
    private boolean needsComma;

    JsonLine begin(final StringBuilder out)
    {
        this.out = out;
        out.append('{');
        needsComma = false;
        return this;
    }

    void end()
    {
        out.append('}');
        needsComma = true;
    }

    JsonLine key(final String name)
    {
        separate();
        out.append('"').append(name).append("\":");
        needsComma = false;
        return this;
    }

    void beginObject(final String name)
    {
        key(name);
        beginObject();
    }

    /** An object as an array element, or as the value after {@link #key}. */
    void beginObject()
    {
        separate();
        out.append('{');
        needsComma = false;
    }

    void endObject()
    {
        out.append('}');
        needsComma = true;
    }

    void beginArray(final String name)
    {
        key(name);
        out.append('[');
    }

    void endArray()
    {
        out.append(']');
        needsComma = true;
    }

    void number(final long value)
    {
        separate();
        out.append(value);
        needsComma = true;
    }

    void unsigned(final long value)
    {
        separate();
        if (value >= 0)
        {
            out.append(value);
        }
        else
        {
            out.append(Long.toUnsignedString(value));
        }
        needsComma = true;
    }

    void bool(final boolean value)
    {
        separate();
        out.append(value);
        needsComma = true;
    }

    void nullValue()
    {
        separate();
        out.append("null");
        needsComma = true;
    }

    void string(final CharSequence value)
    {
        separate();
        out.append('"');
        for (int i = 0, n = value.length(); i < n; i++)
        {
            escape(value.charAt(i));
        }
        out.append('"');
        needsComma = true;
    }

    /** Bytes as text, one char per byte (ASCII; anything else comes out escaped). */
    void asciiString(final byte[] bytes, final int length)
    {
        separate();
        out.append('"');
        for (int i = 0; i < length; i++)
        {
            escape((char)(bytes[i] & 0xFF));
        }
        out.append('"');
        needsComma = true;
    }

    /** {@code "0x"} and lowercase hex. */
    void hex(final byte[] bytes, final int length)
    {
        separate();
        out.append("\"0x");
        for (int i = 0; i < length; i++)
        {
            out.append(HEX[(bytes[i] >> 4) & 0xF]).append(HEX[bytes[i] & 0xF]);
        }
        out.append('"');
        needsComma = true;
    }

    private void separate()
    {
        if (needsComma)
        {
            out.append(',');
        }
    }

    private void escape(final char c)
    {
        if (c == '"' || c == '\\')
        {
            out.append('\\').append(c);
        }
        else if (c >= 0x20 && c < 0x7F)
        {
            out.append(c);
        }
        else if (c >= 0xA0 && !Character.isSurrogate(c))
        {
            out.append(c);
        }
        else
        {
            // Controls, DEL, C1 controls and lone surrogates: escaped, so a line stays one valid line.
            out.append("\\u").append(HEX[(c >> 12) & 0xF]).append(HEX[(c >> 8) & 0xF])
                .append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
        }
    }
}
