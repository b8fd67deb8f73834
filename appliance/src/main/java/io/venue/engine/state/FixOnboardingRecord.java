package io.venue.engine.state;

/**
 * Map value: one slot of the engine's FIX onboarding table (a credential's record), keyed by its slot number. Slots
 * are taken in order and never freed.
 * <pre>
 *   0  credential    i64   the credential id (8 bytes, big-endian)
 *   8  flags         i8    bit 0 FIX permission, 1 drop copy, 2 all markets, 3 cancel on disconnect
 *   9  marketCount   i8    0 to 16
 *  10  tier          i8    0 default, 1 standard, 2 enhanced, 3 premium
 *  11  (reserved)    1 byte
 *  12  grace         i32   the cancel-on-disconnect grace window (ms)
 *  16  markets       16 x u32, ascending; the first marketCount are used, the rest zero
 * </pre>
 * Bound to map memory: writes land in the entry directly.
 */
public final class FixOnboardingRecord extends Flyweight
{
    public static final int CREDENTIAL = 0;
    public static final int FLAGS = 8;
    public static final int MARKET_COUNT = 9;
    public static final int TIER = 10;
    public static final int GRACE = 12;
    public static final int MARKETS = 16;
    public static final int MAX_MARKETS = 16;
    public static final int SIZE = MARKETS + 4 * MAX_MARKETS;

    @Override
    public long maxSize()
    {
        return SIZE;
    }

    public long credential()
    {
        return getLong(CREDENTIAL);
    }

    public int flags()
    {
        return getByte(FLAGS) & 0xFF;
    }

    public int marketCount()
    {
        return getByte(MARKET_COUNT) & 0xFF;
    }

    public int tier()
    {
        return getByte(TIER) & 0xFF;
    }

    public int grace()
    {
        return getInt(GRACE);
    }

    public int market(final int i)
    {
        return getInt(MARKETS + 4 * i);
    }

    public FixOnboardingRecord set(final long credential, final int flags, final int marketCount, final int tier,
        final int grace, final int[] markets)
    {
        putLong(CREDENTIAL, credential);
        putByte(FLAGS, (byte)flags);
        putByte(MARKET_COUNT, (byte)marketCount);
        putByte(TIER, (byte)tier);
        putByte(TIER + 1, (byte)0);
        putInt(GRACE, grace);
        for (int i = 0; i < MAX_MARKETS; i++)
        {
            putInt(MARKETS + 4 * i, markets[i]);
        }
        return this;
    }
}
