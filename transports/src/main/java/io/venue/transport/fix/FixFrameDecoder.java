package io.venue.transport.fix;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Cuts the byte stream into FIX messages: each must start {@code 8=FIX.4.4<SOH>9=<BodyLength><SOH>}, hold BodyLength
 * bytes, then {@code 10=<three digits><SOH>} with the right CheckSum. Emits each message's bytes (a retained slice),
 * or one {@link Fault} (bytes that are not a message's start, a BodyLength that is not a number or is over the limit,
 * a message that does not end where its BodyLength says, a wrong CheckSum), after which the rest of the stream is
 * skipped unread: once the framing is lost no later byte can be trusted to start a message, so the session sends a
 * Logout naming the fault and closes. The BodyLength is judged before the body is buffered.
 */
final class FixFrameDecoder extends ByteToMessageDecoder
{
    /** A framing error: the text of the Logout the session sends before it closes. */
    record Fault(String message)
    {
    }

    static final byte[] PREFIX = ("8=" + FixTags.BEGIN_STRING + "\u00019=").getBytes(StandardCharsets.US_ASCII);
    /** {@code 10=nnn<SOH>}. */
    static final int TRAILER_BYTES = 7;
    private static final int MAX_LENGTH_DIGITS = 7;

    private final int maxMessageBytes;
    private boolean failed;

    FixFrameDecoder(final int maxMessageBytes)
    {
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    protected void decode(final ChannelHandlerContext ctx, final ByteBuf in, final List<Object> out)
    {
        if (failed)
        {
            in.skipBytes(in.readableBytes());
            return;
        }
        final Object next = next(in, maxMessageBytes);
        if (next == null)
        {
            return;
        }
        if (next instanceof Fault)
        {
            failed = true;
            in.skipBytes(in.readableBytes());
        }
        out.add(next);
    }

    /**
     * The next message of {@code in} (a retained slice, the reader index moved past it), a {@link Fault}, or null
     * when more bytes are needed. Shared by the lane and the tests.
     */
    static Object next(final ByteBuf in, final int maxMessageBytes)
    {
        final int start = in.readerIndex();
        final int readable = in.readableBytes();
        final int prefix = Math.min(readable, PREFIX.length);
        for (int i = 0; i < prefix; i++)
        {
            if (in.getByte(start + i) != PREFIX[i])
            {
                return new Fault("a message starts 8=FIX.4.4<SOH>9= (byte " + i + " of the message differs)");
            }
        }
        if (readable <= PREFIX.length)
        {
            return null;
        }
        long bodyLength = 0;
        int digits = 0;
        int at = start + PREFIX.length;
        while (true)
        {
            if (at >= start + readable)
            {
                return digits > MAX_LENGTH_DIGITS ? bodyLengthFault() : null;
            }
            final byte b = in.getByte(at);
            if (b == FixTags.SOH)
            {
                break;
            }
            if (b < '0' || b > '9' || digits == MAX_LENGTH_DIGITS || digits == 1 && bodyLength == 0)
            {
                return bodyLengthFault();
            }
            bodyLength = bodyLength * 10 + (b - '0');
            digits++;
            at++;
        }
        if (digits == 0)
        {
            return bodyLengthFault();
        }
        final int headerBytes = at + 1 - start;
        final long total = headerBytes + bodyLength + TRAILER_BYTES;
        if (total > maxMessageBytes)
        {
            return new Fault("BodyLength(9) " + bodyLength + " makes a message of " + total + " bytes, over the " +
                "limit of " + maxMessageBytes + " (fix.max.message.bytes)");
        }
        if (readable < total)
        {
            return null;
        }
        final int trailer = start + headerBytes + (int)bodyLength;
        if (in.getByte(trailer) != '1' || in.getByte(trailer + 1) != '0' || in.getByte(trailer + 2) != '=' ||
            in.getByte(trailer + 6) != FixTags.SOH || in.getByte(trailer - 1) != FixTags.SOH)
        {
            return new Fault("BodyLength(9) " + bodyLength + " does not end the body where CheckSum(10) starts " +
                "(the body ends with <SOH>, then 10=nnn<SOH>)");
        }
        int declared = 0;
        for (int i = 3; i < 6; i++)
        {
            final byte b = in.getByte(trailer + i);
            if (b < '0' || b > '9')
            {
                return new Fault("CheckSum(10) is three digits");
            }
            declared = declared * 10 + (b - '0');
        }
        int sum = 0;
        for (int i = start; i < trailer; i++)
        {
            sum += in.getByte(i);
        }
        final int checkSum = sum & 0xff;
        if (declared != checkSum)
        {
            return new Fault("CheckSum(10) " + declared + " is not the sum of the bytes before it modulo 256 (" +
                checkSum + ")");
        }
        in.skipBytes((int)total);
        return in.retainedSlice(start, (int)total);
    }

    private static Fault bodyLengthFault()
    {
        return new Fault("BodyLength(9) is 1 to " + MAX_LENGTH_DIGITS + " decimal digits, no leading zero, " +
            "ended by <SOH>");
    }
}
