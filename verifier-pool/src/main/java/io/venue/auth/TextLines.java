package io.venue.auth;

import io.venue.action.Address;

/**
 * Writes an owner-intent text: a title line, then {@code name:value} lines joined with '\n', no final
 * line feed. Shared so every message spells numbers and addresses the same way.
 */
final class TextLines
{
    private final StringBuilder out = new StringBuilder(512);

    TextLines(final String title)
    {
        out.append(title);
    }

    TextLines line(final String name, final String value)
    {
        out.append('\n').append(name).append(':').append(value);
        return this;
    }

    /** A line only when {@code value} is set: an optional field's line is absent, not empty. */
    TextLines lineIfSet(final String name, final String value)
    {
        return value == null ? this : line(name, value);
    }

    TextLines line(final String name, final Address value)
    {
        return line(name, value.toString());
    }

    /** u64 values (nonces, chain ids) are written as unsigned decimals. */
    TextLines lineUnsigned(final String name, final long value)
    {
        return line(name, Long.toUnsignedString(value));
    }

    TextLines lineSigned(final String name, final long value)
    {
        out.append('\n').append(name).append(':').append(value);
        return this;
    }

    /** The lines every owner text ends with: nonce, issued_at, then {@code extra}, then the chain binding. */
    static String finish(
        final TextLines lines, final OwnerTextBuilder<?> builder, final String extraName, final long extraValue)
    {
        lines.lineUnsigned("nonce", builder.nonce).lineSigned("issued_at", builder.issuedAtMs);
        if (extraName != null)
        {
            lines.lineSigned(extraName, extraValue);
        }
        return lines.lineUnsigned("chain_id", builder.chainId)
            .line("verifying_contract", builder.verifyingContract)
            .out.toString();
    }

    /** True when every character is printable ASCII (0x20 to 0x7e), so a value stays on its line. */
    static boolean isPrintableAscii(final CharSequence value)
    {
        for (int i = 0, n = value.length(); i < n; i++)
        {
            final char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e)
            {
                return false;
            }
        }
        return true;
    }
}
