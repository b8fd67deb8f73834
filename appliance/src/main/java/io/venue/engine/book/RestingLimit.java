package io.venue.engine.book;

/**
 * A bound on resting orders shared by several books (the venue's open-order record limit): each book's pool
 * takes a unit when an order rests and gives it back when it leaves, and counts as full when either its own
 * slots or this shared budget are used up. One thread owns the books that share it.
 */
public final class RestingLimit
{
    private long remaining;

    public RestingLimit(final long limit)
    {
        if (limit < 0)
        {
            throw new IllegalArgumentException("limit must not be negative: " + limit);
        }
        remaining = limit;
    }

    /** No bound beyond each book's own pool. */
    public static RestingLimit unlimited()
    {
        return new RestingLimit(Long.MAX_VALUE);
    }

    public long remaining()
    {
        return remaining;
    }

    void take()
    {
        remaining--;
    }

    void giveBack()
    {
        remaining++;
    }
}
