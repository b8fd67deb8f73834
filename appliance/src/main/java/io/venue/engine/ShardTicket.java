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

    static final int SEQUENCE = 0;
    static final int NOW_MS = 8;
    static final int BOOK = 16;
    static final int ACCOUNT = 20;
    static final int ORDER_ID = 24;
    static final int SIDE = 56;
    static final int TIME_IN_FORCE = 57;
    static final int STP_MODE = 58;
    static final int IS_MARKET = 59;
    static final int WITH_CLIENT_ID = 60;
    static final int PRICE = 64;
    static final int QTY = 72;
    static final int EXPIRES_AT = 80;
    static final int PRIORITY = 88;
    static final int CLIENT_HI = 96;
    static final int CLIENT_LO = 104;
    static final int LENGTH = 112;
    static final int CANCEL_LENGTH = ORDER_ID + 32;
    /** Written for a null enum (an STP mode of none). */
    static final byte NONE = -1;

    /** Tape marks: what follows is the expiry of book {@code intValue} (nothing of the command's own yet). */
    static final int MARK_EXPIRY = 1;
    /** The place into book {@code intValue} begins. */
    static final int MARK_PLACE = 2;
    /** The place ended with {@code PlaceResult} ordinal {@code intValue}. */
    static final int MARK_PLACE_RESULT = 3;
    /** The place was refused before the book: its level would overflow (INVALID_QTY). */
    static final int MARK_LEVEL_OVERFLOW = 4;
    /** The cancel of an order of book {@code intValue} begins. */
    static final int MARK_CANCEL = 5;
    /** The cancel named no open order of the account on this shard. */
    static final int MARK_CANCEL_UNKNOWN = 6;

    private ShardTicket()
    {
    }
}
