package io.venue.engine.state;

/**
 * Map key: one of the engine's dense numbers (an agent, a credential, a ledger asset or a market), given in
 * the order the command stream made them. Restoring walks 0, 1, 2 ... and looks each up, so the numbering
 * comes back exactly and nothing iterates hash order.
 * <pre>
 *   0  number  u32 (held in an int)
 * </pre>
 */
public final class NumberKey extends Flyweight
{
    public static final int NUMBER = 0;
    public static final int SIZE = 4;

    public NumberKey()
    {
        bytesStore(scratch(SIZE), 0, SIZE);
    }

    @Override
    public long maxSize()
    {
        return SIZE;
    }

    public NumberKey number(final int number)
    {
        putInt(NUMBER, number);
        return this;
    }

    public int number()
    {
        return getInt(NUMBER);
    }
}
