package io.venue.codec;

/**
 * Writes one flat-or-nested JSON object into a StringBuilder: the response bodies of the HTTP gateway. Strings
 * are escaped (quote, backslash, control characters); numbers are written as given, unsigned where the caller says.
 */
public final class JsonWriter
{
    private final StringBuilder out = new StringBuilder(256);
    private boolean first = true;

    public JsonWriter()
    {
        out.append('{');
    }

    public JsonWriter field(final String name, final String value)
    {
        name(name);
        if (value == null)
        {
            out.append("null");
        }
        else
        {
            string(value);
        }
        return this;
    }

    public JsonWriter field(final String name, final long value)
    {
        name(name);
        out.append(value);
        return this;
    }

    public JsonWriter unsigned(final String name, final long value)
    {
        name(name);
        out.append(Long.toUnsignedString(value));
        return this;
    }

    public JsonWriter field(final String name, final boolean value)
    {
        name(name);
        out.append(value);
        return this;
    }

    /** A value that is already JSON (an object or array written by another writer). */
    public JsonWriter raw(final String name, final String json)
    {
        name(name);
        out.append(json);
        return this;
    }

    /** Opens a nested object; close it with {@link #end()}. */
    public JsonWriter object(final String name)
    {
        name(name);
        out.append('{');
        first = true;
        return this;
    }

    public JsonWriter end()
    {
        out.append('}');
        first = false;
        return this;
    }

    /** The finished object. */
    public String toJson()
    {
        return out.toString() + '}';
    }

    /** A JSON array of already-written JSON values. */
    public static String array(final Iterable<String> values)
    {
        final StringBuilder b = new StringBuilder().append('[');
        boolean first = true;
        for (final String value : values)
        {
            if (!first)
            {
                b.append(',');
            }
            b.append(value);
            first = false;
        }
        return b.append(']').toString();
    }

    /** A JSON string literal. */
    public static String quote(final String value)
    {
        final JsonWriter w = new JsonWriter();
        w.out.setLength(0);
        w.string(value);
        return w.out.toString();
    }

    private void name(final String name)
    {
        if (!first)
        {
            out.append(',');
        }
        first = false;
        string(name);
        out.append(':');
    }

    private void string(final String value)
    {
        out.append('"');
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            switch (c)
            {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default ->
                {
                    if (c < 0x20)
                    {
                        out.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** The JSON object {@code object} with the fields of {@code more} added at its end (both objects, non-empty). */
    public static String extend(final String object, final JsonWriter more)
    {
        final String extra = more.toJson();
        return object.substring(0, object.length() - 1) + "," + extra.substring(1);
    }
}
