package io.venue.engine.state;

/**
 * Map value: a listed market, keyed by its market number (listing order), with its rules and status.
 * <pre>
 *   0  marketId    i64   the public market id (u32)
 *   8  kind        i8    0 spot, 1 outcome
 *   9  halted      i8    1 when halted
 *  10  killed      i8    1 when its kill switch is on
 *  11  (padding)   1 byte
 *  12  baseOrYes   i32   ledger number of the base asset (spot) or of the YES shares (outcome)
 *  16  no          i32   ledger number of the NO shares; -1 for spot
 *  20  quote       i32   ledger number of the quote asset (spot) or of the collateral (outcome)
 *  24  tickSize    i64
 *  32  lotSize     i64
 *  40  minQty      i64
 * </pre>
 * Bound to map memory: writes land in the entry directly.
 */
public final class MarketRecord extends Flyweight
{
    public static final int MARKET_ID = 0;
    public static final int KIND = 8;
    public static final int HALTED = 9;
    public static final int KILLED = 10;
    public static final int BASE_OR_YES = 12;
    public static final int NO = 16;
    public static final int QUOTE = 20;
    public static final int TICK_SIZE = 24;
    public static final int LOT_SIZE = 32;
    public static final int MIN_QTY = 40;
    public static final int SIZE = 48;

    @Override
    public long maxSize()
    {
        return SIZE;
    }

    public long marketId()
    {
        return getLong(MARKET_ID);
    }

    public MarketRecord marketId(final long marketId)
    {
        putLong(MARKET_ID, marketId);
        return this;
    }

    public byte kind()
    {
        return getByte(KIND);
    }

    public MarketRecord kind(final byte kind)
    {
        putByte(KIND, kind);
        return this;
    }

    public boolean halted()
    {
        return getByte(HALTED) != 0;
    }

    public MarketRecord halted(final boolean halted)
    {
        putByte(HALTED, (byte)(halted ? 1 : 0));
        return this;
    }

    public boolean killed()
    {
        return getByte(KILLED) != 0;
    }

    public MarketRecord killed(final boolean killed)
    {
        putByte(KILLED, (byte)(killed ? 1 : 0));
        return this;
    }

    public int baseOrYes()
    {
        return getInt(BASE_OR_YES);
    }

    public MarketRecord baseOrYes(final int asset)
    {
        putInt(BASE_OR_YES, asset);
        return this;
    }

    public int no()
    {
        return getInt(NO);
    }

    public MarketRecord no(final int asset)
    {
        putInt(NO, asset);
        return this;
    }

    public int quote()
    {
        return getInt(QUOTE);
    }

    public MarketRecord quote(final int asset)
    {
        putInt(QUOTE, asset);
        return this;
    }

    public long tickSize()
    {
        return getLong(TICK_SIZE);
    }

    public MarketRecord tickSize(final long tickSize)
    {
        putLong(TICK_SIZE, tickSize);
        return this;
    }

    public long lotSize()
    {
        return getLong(LOT_SIZE);
    }

    public MarketRecord lotSize(final long lotSize)
    {
        putLong(LOT_SIZE, lotSize);
        return this;
    }

    public long minQty()
    {
        return getLong(MIN_QTY);
    }

    public MarketRecord minQty(final long minQty)
    {
        putLong(MIN_QTY, minQty);
        return this;
    }
}
