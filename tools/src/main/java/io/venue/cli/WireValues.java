package io.venue.cli;

import io.venue.action.WireEnum;

/**
 * Command-line values spelled exactly as on the wire ("Bid", "post_only", "YES").
 */
final class WireValues
{
    private WireValues()
    {
    }

    static <E extends Enum<E> & WireEnum> E parse(final Class<E> type, final String text)
    {
        if (text == null)
        {
            return null;
        }
        for (final E value : type.getEnumConstants())
        {
            if (value.wire().equals(text))
            {
                return value;
            }
        }
        final StringBuilder choices = new StringBuilder();
        for (final E value : type.getEnumConstants())
        {
            choices.append(choices.length() == 0 ? "" : ", ").append(value.wire());
        }
        throw new IllegalArgumentException("'" + text + "' is not one of " + choices);
    }

    static long u64(final String text)
    {
        return Long.parseUnsignedLong(text);
    }
}
