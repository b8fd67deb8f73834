package io.venue.transport.bsltcp;

import io.venue.bsltcp.sbe.CancelOnDisconnectDecoder;
import io.venue.bsltcp.sbe.DeadManDecoder;
import io.venue.bsltcp.sbe.ErrorCode;
import io.venue.bsltcp.sbe.HeartbeatDecoder;
import io.venue.bsltcp.sbe.LoginDecoder;
import io.venue.bsltcp.sbe.LogoutDecoder;
import io.venue.bsltcp.sbe.MessageHeaderDecoder;
import io.venue.bsltcp.sbe.OrdersDecoder;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Checks that one frame holds exactly one message a client may send, before any SBE decoder reads it: the schema and
 * version, a template the client may send with that template's block length, every var field's length inside the
 * frame (and under its type's maximum), and no byte after the message. Nothing of a frame that fails is acted on.
 * Allocates only to describe a fault. One per connection (its scratch is its own).
 */
final class InboundCheck
{
    /** The var fields' length prefixes of each client template, in order: 2 (u16) or 4 (u32) bytes. */
    private static final int[] LOGIN_VARS = {2, 2, 2};
    private static final int[] ORDERS_VARS = {4};
    private static final int[] LOGOUT_VARS = {2};
    private static final int[] NO_VARS = {};
    private static final int MAX_ASCII = 1024;
    private static final int MAX_UTF8 = 4096;
    private static final ByteOrder BYTE_ORDER = ByteOrder.LITTLE_ENDIAN;
    /** Version 1 had every message but the protections' (their layouts are the same in version 2). */
    static final int OLDEST_VERSION = 1;
    /** The version that added DeadMan, CancelOnDisconnect and ProtectionAck. */
    static final int PROTECTIONS_VERSION = 2;

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private ErrorCode fault;
    private String message;

    /** The template id of the one message in {@code buffer[offset, offset + length)}, or -1 ({@link #fault()}). */
    int check(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            return fail(ErrorCode.FRAME_TOO_SHORT, "a message is at least its 8-byte header, got " + length);
        }
        header.wrap(buffer, offset);
        if (header.schemaId() != MessageHeaderDecoder.SCHEMA_ID ||
            header.version() < OLDEST_VERSION || header.version() > MessageHeaderDecoder.SCHEMA_VERSION)
        {
            return fail(ErrorCode.BAD_HEADER, "expected schema " + MessageHeaderDecoder.SCHEMA_ID + " version " +
                OLDEST_VERSION + " to " + MessageHeaderDecoder.SCHEMA_VERSION + ", got schema " + header.schemaId() +
                " version " + header.version());
        }
        final int template = header.templateId();
        if ((template == DeadManDecoder.TEMPLATE_ID || template == CancelOnDisconnectDecoder.TEMPLATE_ID) &&
            header.version() < PROTECTIONS_VERSION)
        {
            return fail(ErrorCode.BAD_HEADER, "template " + template + " exists from version " +
                PROTECTIONS_VERSION + ", the header says " + header.version());
        }
        final int block;
        final int[] vars;
        switch (template)
        {
            case LoginDecoder.TEMPLATE_ID ->
            {
                block = LoginDecoder.BLOCK_LENGTH;
                vars = LOGIN_VARS;
            }
            case HeartbeatDecoder.TEMPLATE_ID ->
            {
                block = HeartbeatDecoder.BLOCK_LENGTH;
                vars = NO_VARS;
            }
            case OrdersDecoder.TEMPLATE_ID ->
            {
                block = OrdersDecoder.BLOCK_LENGTH;
                vars = ORDERS_VARS;
            }
            case LogoutDecoder.TEMPLATE_ID ->
            {
                block = LogoutDecoder.BLOCK_LENGTH;
                vars = LOGOUT_VARS;
            }
            case DeadManDecoder.TEMPLATE_ID ->
            {
                block = DeadManDecoder.BLOCK_LENGTH;
                vars = NO_VARS;
            }
            case CancelOnDisconnectDecoder.TEMPLATE_ID ->
            {
                block = CancelOnDisconnectDecoder.BLOCK_LENGTH;
                vars = NO_VARS;
            }
            default ->
            {
                return fail(ErrorCode.UNKNOWN_TEMPLATE, "template " + template + " is not one a client sends " +
                    "(Login 1, Heartbeat 4, Orders 5, Logout 8, DeadMan 10, CancelOnDisconnect 11)");
            }
        }
        if (header.blockLength() != block)
        {
            return fail(ErrorCode.BAD_HEADER, "template " + template + "'s block is " + block + " bytes, the header " +
                "says " + header.blockLength());
        }
        long position = MessageHeaderDecoder.ENCODED_LENGTH + (long)block;
        if (position > length)
        {
            return fail(ErrorCode.MALFORMED, "template " + template + " is cut short: its block ends at " + position +
                ", the frame at " + length);
        }
        for (int i = 0; i < vars.length; i++)
        {
            if (position + vars[i] > length)
            {
                return fail(ErrorCode.MALFORMED, "template " + template + " is cut short: var field " + i +
                    "'s length does not fit the frame");
            }
            final long varLength = vars[i] == 2 ? buffer.getShort(offset + (int)position, BYTE_ORDER) & 0xFFFF :
                buffer.getInt(offset + (int)position, BYTE_ORDER) & 0xFFFF_FFFFL;
            if (vars[i] == 2 && varLength > (template == LoginDecoder.TEMPLATE_ID ? MAX_ASCII : MAX_UTF8))
            {
                return fail(ErrorCode.MALFORMED, "template " + template + "'s var field " + i + " is " + varLength +
                    " bytes, above its type's maximum");
            }
            position += vars[i] + varLength;
            if (position > length)
            {
                return fail(ErrorCode.MALFORMED, "template " + template + "'s var field " + i + " runs past the " +
                    "frame: it ends at " + position + ", the frame at " + length);
            }
        }
        if (position < length)
        {
            return fail(ErrorCode.BYTES_AFTER_MESSAGE, "template " + template + " ends at " + position + ", the " +
                "frame holds " + length + " bytes");
        }
        return template;
    }

    ErrorCode fault()
    {
        return fault;
    }

    String message()
    {
        return message;
    }

    private int fail(final ErrorCode code, final String why)
    {
        fault = code;
        message = why;
        return -1;
    }
}
