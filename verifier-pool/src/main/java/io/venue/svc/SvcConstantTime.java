package io.venue.svc;

/**
 * Comparisons whose time does not depend on where the inputs differ, so a caller cannot learn a secret
 * byte by byte. The length is not secret: every compared value has a fixed format length.
 */
final class SvcConstantTime
{
    private SvcConstantTime()
    {
    }

    static boolean equals(final byte[] a, final int aOffset, final byte[] b, final int bOffset, final int length)
    {
        int diff = 0;
        for (int i = 0; i < length; i++)
        {
            diff |= a[aOffset + i] ^ b[bOffset + i];
        }
        return diff == 0;
    }

    static boolean equals(final CharSequence a, final CharSequence b)
    {
        if (a == null || b == null || a.length() != b.length())
        {
            return false;
        }
        int diff = 0;
        for (int i = 0, n = a.length(); i < n; i++)
        {
            diff |= a.charAt(i) ^ b.charAt(i);
        }
        return diff == 0;
    }
}
