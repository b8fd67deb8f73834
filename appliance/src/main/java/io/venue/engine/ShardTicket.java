package io.venue.engine;

/**
 * The layout of what the credit stage hands a matching shard for one command (little-endian, in the shard's
 * inbound ring), and the marks the shard writes on its match tape for the credit stage to settle by.
 */
final class ShardTicket
{
    /** Ring message types, inbound. */
    static final int PLACE = 1;
    static final int CANCEL = 2;
    /** A cancel naming the order by the account's client order id (16 bytes where a cancel has the order id). */
    static final int CANCEL_BY_CLIENT_ID = 3;
    /** Ring message types, outbound: a part of one command's tape, more parts follow; its last part. */
    static final int TAPE_PART = 1;
    static final int TAPE_END = 2;
    /** The shard failed on this command (a defect) and stopped: the engine stops too. */
    static final int TAPE_FAILED = 3;

    static final int NOW_MS = 0;
    static final int BOOK = 8;
    static final int ACCOUNT = 12;
    static final int ORDER_ID = 16;
    static final int SIDE = 48;
    static final int TIME_IN_FORCE = 49;
    static final int STP_MODE = 50;
    static final int IS_MARKET = 51;
    static final int WITH_CLIENT_ID = 52;
    static final int PRICE = 56;
    static final int QTY = 64;
    static final int EXPIRES_AT = 72;
    static final int PRIORITY = 80;
    static final int CLIENT_HI = 88;
    static final int CLIENT_LO = 96;
    static final int LENGTH = 104;
    static final int CANCEL_LENGTH = ORDER_ID + 32;
    /** Written for a null enum (an STP mode of none). */
    static final byte NONE = -1;

    /** The length of a ticket of this type: a place's, or a cancel's (by order id or by client order id). */
    static int length(final int type)
    {
        return type == PLACE ? LENGTH : CANCEL_LENGTH;
    }

    /** Tape marks: what follows is the expiry of book {@code value} (nothing of the command's own yet). */
    static final int MARK_EXPIRY = 1;
    /** The place into book {@code value} begins. */
    static final int MARK_PLACE = 2;
    /** The place ended with {@code PlaceResult} ordinal {@code value}. */
    static final int MARK_PLACE_RESULT = 3;
    /** The place was refused before the book: its level would overflow (INVALID_QTY). */
    static final int MARK_LEVEL_OVERFLOW = 4;
    /** The cancel of an order of book {@code value} begins. */
    static final int MARK_CANCEL = 5;
    /** The cancel named no open order of the account on this shard. */
    static final int MARK_CANCEL_UNKNOWN = 6;

    private ShardTicket()
    {
    }
}
