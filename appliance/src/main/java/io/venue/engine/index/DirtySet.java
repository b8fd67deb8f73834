package io.venue.engine.index;

import java.util.Arrays;

/**
 * A set of non-negative ints that remembers the order they were first added, for collecting what one
 * command changed (accounts, balances, orders) so it can be written out once at the end: a balance touched
 * four times by a trade is written once. Add, read and clear cost nothing but array stores; memory grows
 * with the largest number added and with the most numbers in one round, then stays.
 */
public final class DirtySet
{
    private boolean[] marked;
    private int[] members;
    private int size;

    public DirtySet(final int initialCapacity)
    {
        marked = new boolean[Math.max(16, initialCapacity)];
        members = new int[16];
    }

    /** Adds {@code value} unless it is already in the set. */
    public void add(final int value)
    {
        if (value >= marked.length)
        {
            marked = Arrays.copyOf(marked, Math.max(value + 1, marked.length * 2));
        }
        if (!marked[value])
        {
            marked[value] = true;
            if (size == members.length)
            {
                members = Arrays.copyOf(members, size * 2);
            }
            members[size++] = value;
        }
    }

    public boolean contains(final int value)
    {
        return value < marked.length && marked[value];
    }

    public int size()
    {
        return size;
    }

    /** The {@code index}-th member, in the order added. */
    public int get(final int index)
    {
        return members[index];
    }

    /** Empties the set, touching only its members. */
    public void clear()
    {
        for (int i = 0; i < size; i++)
        {
            marked[members[i]] = false;
        }
        size = 0;
    }
}
