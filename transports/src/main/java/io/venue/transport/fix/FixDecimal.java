package io.venue.transport.fix;

/**
 * FIX decimals (Price, OrderQty: FIX 4.4 "float", digits with an optional point, no exponent) to the engine's
 * micro-units (1e6 scale) exactly, and back. A value is never rounded: more than six digits after the point (unless the
 * extra ones are zeros) is refused, as is a sign, an exponent, an empty part or a value past what a micro-unit count
 * holds. Allocation free.
 */
final class FixDecimal
{
    /** Not a decimal of the form {@code digits[.digits]}. */
    static final long MALFORMED = -1;
    /** A digit past the sixth after the point that is not zero: finer than a micro-unit. */
    static final long TOO_PRECISE = -2;
    /** More than {@link #MAX_MICROS}. */
    static final long TOO_LARGE = -3;
    /** The largest value taken: 10^18 micro-units (10^12 units), far above any price or size the engine takes. */
    static final long MAX_MICROS = 1_000_000_000_000_000_000L;
    /** Digits after the point of a micro-unit, and one unit in micro-units. */
    static final int SCALE = 6;
    static final long ONE = 1_000_000;

    private FixDecimal()
    {
    }

    /** {@code value} in micro-units (at least 0), or {@link #MALFORMED}, {@link #TOO_PRECISE}, {@link #TOO_LARGE}. */
    static long micros(final CharSequence value)
    {
        final int length = value.length();
        if (length == 0 || length > 64)
        {
            return MALFORMED;
        }
        long units = 0;
        int at = 0;
        int intDigits = 0;
        boolean large = false;
        while (at < length && isDigit(value.charAt(at)))
        {
            // saturates: the whole value is read before it is judged, so a malformed one is MALFORMED
            large |= units > MAX_MICROS / 1_000_000;
            units = large ? units : units * 10 + (value.charAt(at) - '0');
            at++;
            intDigits++;
        }
        large |= units > MAX_MICROS / 1_000_000;
        if (intDigits == 0)
        {
            return MALFORMED;
        }
        long fraction = 0;
        if (at < length)
        {
            if (value.charAt(at) != '.')
            {
                return MALFORMED;
            }
            at++;
            if (at == length)
            {
                return MALFORMED;
            }
            int digits = 0;
            boolean finer = false;
            while (at < length)
            {
                final char c = value.charAt(at++);
                if (!isDigit(c))
                {
                    return MALFORMED;
                }
                if (digits < SCALE)
                {
                    fraction = fraction * 10 + (c - '0');
                }
                else if (c != '0')
                {
                    finer = true;
                }
                digits++;
            }
            if (finer && !large)
            {
                return TOO_PRECISE;
            }
            for (int d = Math.min(digits, SCALE); d < SCALE; d++)
            {
                fraction *= 10;
            }
        }
        if (large)
        {
            return TOO_LARGE;
        }
        final long micros = units * 1_000_000 + fraction;
        return micros > MAX_MICROS ? TOO_LARGE : micros;
    }

    /** Why {@link #micros} refused a value, for a reject's Text(58). */
    static String problem(final int tag, final long outcome)
    {
        return switch ((int)outcome)
        {
            case (int)TOO_PRECISE -> "tag " + tag + " has more than 6 decimal places (the venue's micro-unit); " +
                "it is never rounded";
            case (int)TOO_LARGE -> "tag " + tag + " is above " + MAX_MICROS / 1_000_000;
            default -> "tag " + tag + " is a decimal: digits, optionally a point and up to 6 more digits";
        };
    }

    /** {@code micros} (at least 0) as the shortest FIX decimal that says it exactly: 1500000 is {@code 1.5}. */
    static String text(final long micros)
    {
        final long units = micros / 1_000_000;
        long fraction = micros % 1_000_000;
        if (fraction == 0)
        {
            return Long.toString(units);
        }
        int digits = SCALE;
        while (fraction % 10 == 0)
        {
            fraction /= 10;
            digits--;
        }
        final String f = Long.toString(fraction);
        final StringBuilder out = new StringBuilder(24).append(units).append('.');
        for (int pad = f.length(); pad < digits; pad++)
        {
            out.append('0');
        }
        return out.append(f).toString();
    }

    private static boolean isDigit(final char c)
    {
        return c >= '0' && c <= '9';
    }
}
