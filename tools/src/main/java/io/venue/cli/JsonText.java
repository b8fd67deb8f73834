package io.venue.cli;

/**
 * A flat JSON object for command output: string, number and embedded raw JSON fields, in insertion order.
 */
final class JsonText
{
    private final StringBuilder text = new StringBuilder("{");

    JsonText field(final String name, final String value)
    {
        key(name);
        if (value == null)
        {
            text.append("null");
        }
        else
        {
            quote(value);
        }
        return this;
    }

    JsonText field(final String name, final long value)
    {
        key(name);
        text.append(value);
        return this;
    }

    /** A value that is already JSON. */
    JsonText raw(final String name, final String json)
    {
        key(name);
        text.append(json);
        return this;
    }

    private void key(final String name)
    {
        if (text.length() > 1)
        {
            text.append(',');
        }
        quote(name);
        text.append(':');
    }

    private void quote(final String value)
    {
        text.append('"');
        for (int i = 0; i < value.length(); i++)
        {
            final char c = value.charAt(i);
            switch (c)
            {
                case '"' -> text.append("\\\"");
                case '\\' -> text.append("\\\\");
                case '\n' -> text.append("\\n");
                case '\r' -> text.append("\\r");
                case '\t' -> text.append("\\t");
                default ->
                {
                    if (c < 0x20)
                    {
                        text.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        text.append(c);
                    }
                }
            }
        }
        text.append('"');
    }

    @Override
    public String toString()
    {
        return text + "}";
    }
}
