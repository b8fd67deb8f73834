package io.venue.engine.state;

/**
 * Map value: an account's nonce window — a floor and a 256-bit bitmap of consumed nonces above it.
 * <pre>
 *   0  floor   u64 (held in a long)
 *   8  word0   64 bits   bitmap bits   0..63
 *  16  word1   64 bits   bitmap bits  64..127
 *  24  word2   64 bits   bitmap bits 128..191
 *  32  word3   64 bits   bitmap bits 192..255
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
    public static final int SIZE = 40;

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
