package io.venue.action.json;

import java.util.function.Function;

/**
 * The fields of one JSON object and how to build the value once all are read. Field order here is
 * only for error messages; the parser accepts keys in any order and the canonical writer fixes it.
 */
final class ObjectShape
{
    final String name;
    final FieldShape[] fields;
    final Function<FieldValues, Object> factory;
    final long requiredMask;

    ObjectShape(final String name, final Function<FieldValues, Object> factory, final FieldShape... fields)
    {
        if (fields.length > 63)
        {
            throw new IllegalArgumentException("too many fields");
        }
        this.name = name;
        this.fields = fields;
        this.factory = factory;
        long mask = 0;
        for (int i = 0; i < fields.length; i++)
        {
            if (!fields[i].optional())
            {
                mask |= 1L << i;
            }
        }
        this.requiredMask = mask;
    }

    /** The index of the key spelled by {@code buffer[offset, offset + length)}, or -1. */
    int indexOf(final byte[] buffer, final int offset, final int length)
    {
        for (int i = 0; i < fields.length; i++)
        {
            if (fields[i].key().matches(buffer, offset, length))
            {
                return i;
            }
        }
        return -1;
    }

    String fieldNames()
    {
        final StringBuilder names = new StringBuilder();
        for (final FieldShape field : fields)
        {
            names.append(names.length() == 0 ? "" : ", ").append(field.key().name());
        }
        return names.toString();
    }
}
