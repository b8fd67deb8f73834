package io.venue.journal;

import java.util.function.ToIntFunction;

/**
 * The names of an SBE enum's values by raw value, so that printing an unknown value cannot throw the way
 * the generated {@code get(raw)} does.
 */
final class EnumNames
{
    private static final String NULL_VALUE_NAME = "NULL_VAL";

    private final String[] names = new String[256];

    private EnumNames()
    {
    }

    static <E extends Enum<E>> EnumNames of(final E[] values, final ToIntFunction<E> rawValue)
    {
        final EnumNames enumNames = new EnumNames();
        for (final E value : values)
        {
            if (!NULL_VALUE_NAME.equals(value.name()))
            {
                enumNames.names[rawValue.applyAsInt(value)] = value.name();
            }
        }
        return enumNames;
    }

    /** The name of the value, or null when the schema defines none with this raw value. */
    String nameOf(final int raw)
    {
        return raw >= 0 && raw < names.length ? names[raw] : null;
    }
}
