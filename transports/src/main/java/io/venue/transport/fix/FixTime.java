package io.venue.transport.fix;

/**
 * Reads a UTCTimestamp ({@code YYYYMMDD-HH:MM:SS} with optional {@code .sss}) to Unix milliseconds, without
 * allocating: the days from the civil date by Howard Hinnant's algorithm (the inverse of {@link FixWriter}'s).
 */
final class FixTime
{
    static final long ABSENT = Long.MIN_VALUE;
    static final long INVALID = Long.MIN_VALUE + 1;

    private FixTime()
    {
    }

    static long parse(final FixMessage message, final int tag)
    {
        final CharSequence text = message.view(tag);
        return text == null ? ABSENT : parse(text);
    }

    static long parse(final CharSequence text)
    {
        final int length = text.length();
        if (length != 17 && length != 21 || text.charAt(8) != '-' || text.charAt(11) != ':' ||
            text.charAt(14) != ':' || length == 21 && text.charAt(17) != '.')
        {
            return INVALID;
        }
        final long year = digits(text, 0, 4);
        final long month = digits(text, 4, 2);
        final long day = digits(text, 6, 2);
        final long hour = digits(text, 9, 2);
        final long minute = digits(text, 12, 2);
        final long second = digits(text, 15, 2);
        final long millis = length == 21 ? digits(text, 18, 3) : 0;
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 ||
            minute > 59 || second < 0 || second > 60 || millis < 0)
        {
            return INVALID;
        }
        final long y = month <= 2 ? year - 1 : year;
        final long era = Math.floorDiv(y, 400);
        final long yoe = y - era * 400;
        final long doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        final long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        final long days = era * 146_097 + doe - 719_468;
        return days * 86_400_000L + hour * 3_600_000L + minute * 60_000L + second * 1_000L + millis;
    }

    private static long digits(final CharSequence text, final int from, final int count)
    {
        long value = 0;
        for (int i = from; i < from + count; i++)
        {
            final char c = text.charAt(i);
            if (c < '0' || c > '9')
            {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
