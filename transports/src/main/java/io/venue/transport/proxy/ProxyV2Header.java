package io.venue.transport.proxy;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A flyweight decoder of the PROXY protocol version 2 header (haproxy.org proxy-protocol.txt, section 2.2), which a
 * local proxy sends before the client's bytes to name the client: a 12-byte signature, version and command, family and
 * protocol, a big-endian length, then the addresses (and TLVs, skipped). Any lane can put it in front of its bytes; it
 * holds no transport. {@link #parse} reads what has arrived and says whether the header is whole, needs more, or is
 * malformed; it never throws on any input.
 * <p>
 * Taken: PROXY over TCP (INET or INET6, STREAM), whose source address is the client's, and LOCAL (a proxy's own health
 * check: the connection's own address stands). Refused as malformed: any other version, command, family or protocol,
 * an address block shorter than its family needs, and a header longer than {@link #MAX_LENGTH}.
 */
public final class ProxyV2Header
{
    /** {@link #parse}: the bytes so far are a valid beginning; read more. */
    public static final int NEED_MORE = 0;
    /** {@link #parse}: not a PROXY v2 header this decoder takes; close the connection. */
    public static final int MALFORMED = -1;
    /** The longest header taken (the fixed 16 bytes, the IPv6 addresses and room for a proxy's TLVs). */
    public static final int MAX_LENGTH = 16 + 1024;
    /** The signature's length: the bytes that tell a PROXY v2 header from anything else. */
    public static final int SIGNATURE_LENGTH = 12;
    static final byte[] SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private static final int FIXED = 16;
    private static final int COMMAND_LOCAL = 0x20;
    private static final int COMMAND_PROXY = 0x21;
    private static final int TCP_OVER_IPV4 = 0x11;
    private static final int TCP_OVER_IPV6 = 0x21;

    private boolean local;
    private final byte[] source4 = new byte[4];
    private final byte[] source6 = new byte[16];
    private boolean six;
    private int sourcePort;

    /**
     * Reads a header from {@code length} bytes of {@code buffer} at {@code offset}.
     *
     * @return the header's whole length when it is whole and taken (this flyweight then describes it),
     * {@link #NEED_MORE} or {@link #MALFORMED}.
     */
    public int parse(final byte[] buffer, final int offset, final int length)
    {
        if (offset < 0 || length < 0 || offset > buffer.length - length)
        {
            return MALFORMED;
        }
        for (int i = 0; i < Math.min(length, SIGNATURE.length); i++)
        {
            if (buffer[offset + i] != SIGNATURE[i])
            {
                return MALFORMED;
            }
        }
        if (length < FIXED)
        {
            return length > SIGNATURE.length && !commandTaken(buffer[offset + 12] & 0xFF) ? MALFORMED : NEED_MORE;
        }
        final int command = buffer[offset + 12] & 0xFF;
        final int family = buffer[offset + 13] & 0xFF;
        final int addresses = (buffer[offset + 14] & 0xFF) << 8 | buffer[offset + 15] & 0xFF;
        if (!commandTaken(command) || FIXED + addresses > MAX_LENGTH)
        {
            return MALFORMED;
        }
        if (command == COMMAND_PROXY)
        {
            // a PROXY command names a TCP client: its block must hold the family's addresses and ports
            final int needed = family == TCP_OVER_IPV4 ? 12 : family == TCP_OVER_IPV6 ? 36 : -1;
            if (needed < 0 || addresses < needed)
            {
                return MALFORMED;
            }
        }
        if (length < FIXED + addresses)
        {
            return NEED_MORE;
        }
        local = command == COMMAND_LOCAL;
        if (!local)
        {
            six = family == TCP_OVER_IPV6;
            final int at = offset + FIXED;
            if (six)
            {
                System.arraycopy(buffer, at, source6, 0, 16);
                sourcePort = (buffer[at + 32] & 0xFF) << 8 | buffer[at + 33] & 0xFF;
            }
            else
            {
                System.arraycopy(buffer, at, source4, 0, 4);
                sourcePort = (buffer[at + 8] & 0xFF) << 8 | buffer[at + 9] & 0xFF;
            }
        }
        return FIXED + addresses;
    }

    /** Whether {@code length} bytes at {@code offset} match the PROXY v2 signature as far as they go. */
    public static boolean signaturePrefix(final byte[] buffer, final int offset, final int length)
    {
        for (int i = 0; i < Math.min(length, SIGNATURE.length); i++)
        {
            if (buffer[offset + i] != SIGNATURE[i])
            {
                return false;
            }
        }
        return true;
    }

    /** Whether the last header parsed was a LOCAL command (no client named: the connection's own address stands). */
    public boolean local()
    {
        return local;
    }

    /** The client's address named by the last PROXY header parsed (a new object: call once per connection). */
    public InetAddress sourceAddress()
    {
        try
        {
            return InetAddress.getByAddress(six ? source6.clone() : source4.clone());
        }
        catch (final UnknownHostException ex)
        {
            // an address of 4 or 16 bytes always reads
            throw new IllegalStateException(ex);
        }
    }

    /** The client's port named by the last PROXY header parsed. */
    public int sourcePort()
    {
        return sourcePort;
    }

    private static boolean commandTaken(final int versionAndCommand)
    {
        return versionAndCommand == COMMAND_LOCAL || versionAndCommand == COMMAND_PROXY;
    }
}
