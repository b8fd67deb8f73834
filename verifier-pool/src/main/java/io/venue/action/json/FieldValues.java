package io.venue.action.json;

/**
 * The values read for one object, by field index, before the record is built. Numbers, booleans
 * (0 or 1) and null sentinels (-1) go to {@link #number}; everything else to {@link #ref}.
 */
final class FieldValues
{
    final long[] numbers;
    final Object[] refs;
    long presentMask;

    FieldValues(final int fieldCount)
    {
        numbers = new long[fieldCount];
        refs = new Object[fieldCount];
    }

    long number(final int index)
    {
        return numbers[index];
    }

    boolean bool(final int index)
    {
        return numbers[index] != 0;
    }

    @SuppressWarnings("unchecked")
    <T> T ref(final int index)
    {
        return (T)refs[index];
    }
}
