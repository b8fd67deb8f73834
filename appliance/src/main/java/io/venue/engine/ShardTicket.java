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
    static final int AMEND = 4;
    /** Ring message types, outbound: a part of one command's tape, more parts follow; its last part. */
    static final int TAPE_PART = 1;
    static final int TAPE_END = 2;
    /** The shard failed on this command (a defect) and stopped: the engine stops too. */
    static final int TAPE_FAILED = 3;

    // every ticket: the command's time, the pipeline's view (a number that changes whenever a new view begins),
    // the book, the account and the order id
    static final int NOW_MS = 0;
    static final int VIEW = 8;
    static final int BOOK = 16;
    static final int ACCOUNT = 20;
    static final int ORDER_ID = 24;
    static final int CANCEL_LENGTH = ORDER_ID + 32;
    // a place
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
    // an amend: PRICE, QTY and PRIORITY as a place's, then what admission decided (the order's new reservation,
    // the credit it held for the amend, and the codes of its refusals, NO_REFUSAL when none)
    /**
     * 1 when the amend's command keeps what the order filled if it enters the book again (its journal version:
     * {@code JournalRecords.keepsFilledOnReentry}), 0 when it starts it again from 0 as older builds did.
     */
    static final int KEEPS_FILLED = 56;
    static final int NEW_RESERVATION = 96;
    static final int HEADROOM = 104;
    /** A refusal that comes before the book's checks: halted or killed market, invalid price or quantity. */
    static final int EARLY_REFUSAL = 112;
    /** The credit refusal of an amend that needs more credit (the cross-shard admission's, or RISK_CREDIT_LIMIT). */
    static final int CREDIT_REFUSAL = 116;
    static final int AMEND_LENGTH = 120;
    static final int NO_REFUSAL = -1;
    /** Written for a null enum (an STP mode of none). */
    static final byte NONE = -1;

    /** The length of a ticket of this type. */
    static int length(final int type)
    {
        return type == PLACE ? LENGTH : type == AMEND ? AMEND_LENGTH : CANCEL_LENGTH;
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
    /** The amend named no open order of the account on this shard. */
    static final int MARK_AMEND_UNKNOWN = 7;
    /** The amend was refused with the reject code of value {@code value}. */
    static final int MARK_AMEND_REFUSED = 8;
    /**
     * The amend keeps the order's priority (its price, no more quantity): a copy of the order's slot (handle
     * {@code value}) before, then the book's calls, then {@link #MARK_AMEND_KEPT} with a copy after.
     */
    static final int MARK_AMEND_KEEP = 9;
    /** After {@link #MARK_AMEND_KEEP}'s book calls; {@code value} 1 when the quantity went down. */
    static final int MARK_AMEND_KEPT = 10;
    /**
     * The amend moves the order in its slot (handle {@code value}, copied): its lift, then {@link #MARK_AMEND_REST}.
     */
    static final int MARK_AMEND_MOVE = 11;
    /** The moved order rests again at its new price: the book's calls follow. */
    static final int MARK_AMEND_REST = 12;
    /** The amend takes the order (handle {@code value}, copied) out of the book: then {@link #MARK_AMEND_PLACE}. */
    static final int MARK_AMEND_REENTER = 13;
    /** The order enters the book again as a new place: the book's calls, then {@link #MARK_AMEND_PLACE_RESULT}. */
    static final int MARK_AMEND_PLACE = 14;
    /** The re-entered order's place ended with {@code PlaceResult} ordinal {@code value}. */
    static final int MARK_AMEND_PLACE_RESULT = 15;

    private ShardTicket()
    {
    }
}
