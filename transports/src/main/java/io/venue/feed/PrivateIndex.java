package io.venue.feed;

/**
 * Where one account's private channel's frames start in the event journal, sparsely: every {@code interval}-th frame
 * (seq 1, 1 + interval, …) keeps the excerpt index and command sequence it came from, so a resend re-derives frames
 * from the nearest entry forward instead of the feed keeping every account's frames. At most {@code capacity}
 * entries (the oldest go), so the frames that can be resent are the last {@code capacity × interval} or so.
 */
final class PrivateIndex
{
    private final int interval;
    private final int capacity;
    private long[] seqs;
    private long[] excerpts;
    private long[] commands;
    private int head;
    private int count;
    private long lastSeq;

    PrivateIndex(final int interval, final int capacity)
    {
        this.interval = interval;
        this.capacity = capacity;
        // small at first: most accounts never need the whole ring
        final int initial = Math.min(4, capacity);
        seqs = new long[initial];
        excerpts = new long[initial];
        commands = new long[initial];
    }

    /** The channel's next frame, {@code lastSeq() + 1}, derived from command {@code command} in {@code excerpt}. */
    void onFrame(final long seq, final long excerpt, final long command)
    {
        lastSeq = seq;
        if ((seq - 1) % interval != 0)
        {
            return;
        }
        if (count == seqs.length && seqs.length < capacity)
        {
            grow();
        }
        if (count == seqs.length)
        {
            head = (head + 1) % seqs.length;
            count--;
        }
        final int at = (head + count) % seqs.length;
        seqs[at] = seq;
        excerpts[at] = excerpt;
        commands[at] = command;
        count++;
    }

    /** Doubles the ring (up to its capacity), its entries moved to the start in order. */
    private void grow()
    {
        final int length = Math.min(capacity, seqs.length * 2);
        final long[] newSeqs = new long[length];
        final long[] newExcerpts = new long[length];
        final long[] newCommands = new long[length];
        for (int i = 0; i < count; i++)
        {
            final int at = (head + i) % seqs.length;
            newSeqs[i] = seqs[at];
            newExcerpts[i] = excerpts[at];
            newCommands[i] = commands[at];
        }
        seqs = newSeqs;
        excerpts = newExcerpts;
        commands = newCommands;
        head = 0;
    }

    /** The seq of the last frame; 0 before the first. */
    long lastSeq()
    {
        return lastSeq;
    }

    /** The oldest seq a re-derivation can start from ({@code lastSeq() + 1} when none can). */
    long oldestSeq()
    {
        return count == 0 ? lastSeq + 1 : seqs[head];
    }

    /** The entry to re-derive {@code seq} from: the newest at or before it; -1 when {@code seq} is older. */
    int entryFor(final long seq)
    {
        int found = -1;
        for (int i = 0; i < count; i++)
        {
            final int at = (head + i) % seqs.length;
            if (seqs[at] > seq)
            {
                break;
            }
            found = at;
        }
        return found;
    }

    long seq(final int entry)
    {
        return seqs[entry];
    }

    long excerpt(final int entry)
    {
        return excerpts[entry];
    }

    long command(final int entry)
    {
        return commands[entry];
    }
}
