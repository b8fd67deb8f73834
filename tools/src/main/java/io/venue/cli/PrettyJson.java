package io.venue.cli;


import io.venue.codec.JsonWriter;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes ordered maps, lists, strings, numbers and embedded raw JSON as indented JSON, for files people
 * read (the reference vectors).
 */
final class PrettyJson
{
    /** A value that is already JSON text and is embedded as is. */
    record Raw(String json)
    {
    }

    private PrettyJson()
    {
    }

    static Map<String, Object> object()
    {
        return new LinkedHashMap<>();
    }

    static String write(final Object value)
    {
        final StringBuilder out = new StringBuilder();
        write(value, out, "");
        return out.append('\n').toString();
    }

    private static void write(final Object value, final StringBuilder out, final String indent)
    {
        if (value == null)
        {
            out.append("null");
        }
        else if (value instanceof Raw raw)
        {
            out.append(raw.json());
        }
        else if (value instanceof String text)
        {
            out.append(JsonWriter.quote(text));
        }
        else if (value instanceof Number || value instanceof Boolean)
        {
            out.append(value);
        }
        else if (value instanceof Map<?, ?> map)
        {
            out.append("{\n");
            int i = 0;
            for (final Map.Entry<?, ?> entry : map.entrySet())
            {
                out.append(indent).append("  ");
                write(entry.getKey().toString(), out, indent);
                out.append(": ");
                write(entry.getValue(), out, indent + "  ");
                out.append(++i < map.size() ? ",\n" : "\n");
            }
            out.append(indent).append('}');
        }
        else if (value instanceof List<?> list)
        {
            out.append('[');
            for (int i = 0; i < list.size(); i++)
            {
                out.append(i == 0 ? "" : ", ");
                write(list.get(i), out, indent);
            }
            out.append(']');
        }
        else
        {
            throw new IllegalArgumentException("cannot write " + value.getClass());
        }
    }
}
