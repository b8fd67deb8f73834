package io.venue.journal.queue;

/**
 * A journal excerpt whose records cannot be read as written: a frame length that does not fit the excerpt.
 * Carries the excerpt's index, so the damage is reported where it is and never silently skipped.
 */
public final class JournalDamagedException extends IllegalStateException
{
    private final long index;

    public JournalDamagedException(final long index, final String detail)
    {
        super("the journal is damaged at index " + index + ": " + detail);
        this.index = index;
    }

    public long index()
    {
        return index;
    }
}
