package io.venue.engine.state;

/**
 * Map value: an account's gate state — its nonce window (a floor and a 256-bit bitmap of consumed nonces
 * above it), the engine's dense number of the account, its kill switch, its action-rate bucket and its
 * vault owner. The
 * number is kept here because every per-account table of the engine, the state hash and the events depend
 * on it: start-up sorts the accounts by it.
 * <pre>
 *   0  floor          u64 (held in a long)
 *   8  word0          64 bits   bitmap bits   0..63
 *  16  word1          64 bits   bitmap bits  64..127
 *  24  word2          64 bits   bitmap bits 128..191
 *  32  word3          64 bits   bitmap bits 192..255
 *  40  account        i32       the engine's dense account number
 *  44  flags          i32       bit 0: account kill switch on
 *  48  rateDeficit    i64       token bucket: how far below full
 *  56  rateUpdatedMs  i64       token bucket: stamped time of the last refill
 *  64  vaultOwner     i32       the dense number of the account's vault owner, -1 for none
 *  68  (padding)      i32
 * </pre>
 * What a bit means relative to the floor, and how the window slides, is the gate's rule; this is storage.
 * Bound to map memory: writes land in the entry directly.
 */
public final class NonceWindow extends Flyweight
{
    public static final int FLOOR = 0;
    public static final int WORDS = 8;
    public static final int WORD_COUNT = 4;
    public static final int BITS = WORD_COUNT * Long.SIZE;
    public static final int ACCOUNT = 40;
    public static final int FLAGS = 44;
    public static final int RATE_DEFICIT = 48;
    public static final int RATE_UPDATED_MS = 56;
    public static final int VAULT_OWNER = 64;
    public static final int SIZE = 72;

    /** {@link #flags()} bit: the account's kill switch is on. */
    public static final int KILLED = 1;

    @Override
    public long maxSize()
    {
        return SIZE;
    }

    public long floor()
    {
        return getLong(FLOOR);
    }

    public NonceWindow floor(final long floor)
    {
        putLong(FLOOR, floor);
        return this;
    }

    public long word(final int index)
    {
        return getLong(WORDS + checkWord(index) * Long.BYTES);
    }

    public NonceWindow word(final int index, final long bits)
    {
        putLong(WORDS + checkWord(index) * Long.BYTES, bits);
        return this;
    }

    /** Bit {@code bit} (0..255) of the bitmap. */
    public boolean isSet(final int bit)
    {
        return (word(checkBit(bit) >>> 6) & (1L << bit)) != 0;
    }

    public NonceWindow set(final int bit)
    {
        final int index = checkBit(bit) >>> 6;
        return word(index, word(index) | (1L << bit));
    }

    public NonceWindow clear(final int bit)
    {
        final int index = checkBit(bit) >>> 6;
        return word(index, word(index) & ~(1L << bit));
    }

    /** Clears every bit of the bitmap; the floor is kept. */
    public NonceWindow clearBits()
    {
        for (int i = 0; i < WORD_COUNT; i++)
        {
            putLong(WORDS + i * Long.BYTES, 0L);
        }
        return this;
    }

    public int account()
    {
        return getInt(ACCOUNT);
    }

    public NonceWindow account(final int account)
    {
        putInt(ACCOUNT, account);
        return this;
    }

    public int flags()
    {
        return getInt(FLAGS);
    }

    public NonceWindow flags(final int flags)
    {
        putInt(FLAGS, flags);
        return this;
    }

    public int vaultOwner()
    {
        return getInt(VAULT_OWNER);
    }

    public NonceWindow vaultOwner(final int owner)
    {
        putInt(VAULT_OWNER, owner);
        return this;
    }

    public long rateDeficit()
    {
        return getLong(RATE_DEFICIT);
    }

    public NonceWindow rateDeficit(final long deficit)
    {
        putLong(RATE_DEFICIT, deficit);
        return this;
    }

    public long rateUpdatedMs()
    {
        return getLong(RATE_UPDATED_MS);
    }

    public NonceWindow rateUpdatedMs(final long updatedMs)
    {
        putLong(RATE_UPDATED_MS, updatedMs);
        return this;
    }

    private static int checkWord(final int index)
    {
        if (index < 0 || index >= WORD_COUNT)
        {
            throw new IndexOutOfBoundsException("word " + index);
        }
        return index;
    }

    private static int checkBit(final int bit)
    {
        if (bit < 0 || bit >= BITS)
        {
            throw new IndexOutOfBoundsException("bit " + bit);
        }
        return bit;
    }
}
