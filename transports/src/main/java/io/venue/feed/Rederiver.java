package io.venue.feed;

import io.venue.journal.JournalRecords;
import io.venue.journal.RecordError;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordHandler;
import io.venue.journal.sbe.MessageHeaderDecoder;
import org.agrona.DirectBuffer;

import java.util.function.Consumer;

/**
 * Derives one account's private frames again from the event journal, with tailers of its own, from a
 * {@link PrivateIndex} entry forward: the same {@link PrivateDeriver} code as the live feed, so each frame is the
 * one the live feed published (marked {@code resent} for a resend).
 */
final class Rederiver implements AutoCloseable
{
    private final Journal events;
    private final CommandTimes times;
    private final FrameWriter writer;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final JournalRecords records = new JournalRecords();
    private JournalTailer tailer;

    private AccountState scratch;
    private PrivateDeriver deriver;
    private ByteKey target;
    private int kind;
    private long fromSeq;
    private long toSeq;
    private long firstCommand;
    private long lastCommand;
    private long command;
    private boolean finished;
    private boolean resent;
    private Consumer<FeedFrame> out;
    private final RecordHandler onRecord = this::onRecord;
    private final FrameSink sink = new FrameSink()
    {
        public void onPublic(final PublicChannel channel, final FeedFrame frame, final long engineSeq, final long ts)
        {
        }

        public void onPrivate(final AccountState account, final int k, final FeedFrame frame, final long engineSeq)
        {
            if (k == kind && frame.seq() >= fromSeq && frame.seq() <= toSeq)
            {
                out.accept(frame);
            }
            if (k == kind && frame.seq() >= toSeq)
            {
                finished = true;
            }
        }
    };

    Rederiver(final Journal events, final Journal commands, final String epoch)
    {
        this.events = events;
        this.times = new CommandTimes(commands);
        this.writer = new FrameWriter();
        this.writer.epoch(epoch);
    }

    void epoch(final String epoch)
    {
        writer.epoch(epoch);
    }

    /**
     * Hands {@code out} the account's frames {@code from..to} of the private kind, starting from index entry
     * {@code entry}, reading no command after {@code lastCommand} (where the live feed stands).
     *
     * @return how many frames were handed over.
     */
    int derive(final AccountState account, final int kind, final int entry, final long from, final long to,
        final long lastCommand, final boolean resent, final Consumer<FeedFrame> out)
    {
        final PrivateIndex index = account.indexes[kind];
        return derive(account, kind, index.seq(entry), index.command(entry), index.excerpt(entry), from, to,
            lastCommand, resent, out);
    }

    /**
     * As above from an index entry's values, read beforehand on the feed's thread: another thread (the resends') may
     * call this while the feed goes on changing the index. Only the account's address and text are read of it.
     */
    int derive(final AccountState account, final int kind, final long entrySeq, final long entryCommand,
        final long entryExcerpt, final long from, final long to, final long lastCommand, final boolean resent,
        final Consumer<FeedFrame> out)
    {
        if (null == tailer)
        {
            tailer = events.tailer();
        }
        target = account.address;
        scratch = new AccountState(account.address, account.hex, 0, 0);
        scratch.seqs[kind] = entrySeq - 1;
        deriver = new PrivateDeriver(probe -> probe.equals(target) ? scratch : null, false, 0);
        this.kind = kind;
        this.fromSeq = from;
        this.toSeq = to;
        this.firstCommand = entryCommand;
        this.lastCommand = lastCommand;
        this.command = -1;
        this.finished = false;
        final int[] count = {0};
        this.out = frame ->
        {
            count[0]++;
            out.accept(frame);
        };
        this.resent = resent;
        times.moveTo(firstCommand);
        tailer.moveToIndex(entryExcerpt);
        while (!finished && tailer.read(onRecord))
        {
            if (!finished && command >= 0)
            {
                deriver.end(writer, sink, resent);
                command = -1;
            }
        }
        if (!finished && command >= 0)
        {
            deriver.end(writer, sink, resent);
        }
        scratch = null;
        deriver = null;
        return count[0];
    }

    private void onRecord(final DirectBuffer buffer, final int offset, final int length, final long index)
    {
        if (finished || records.wrap(buffer, offset, length) != RecordError.NONE)
        {
            return;
        }
        final long sequence = JournalRecords.sequence(buffer, offset);
        if (sequence < firstCommand)
        {
            return;
        }
        if (sequence > lastCommand)
        {
            finished = true;
            tailer.stopHere();
            return;
        }
        if (sequence != command)
        {
            if (command >= 0)
            {
                deriver.end(writer, sink, resent);
                if (finished)
                {
                    tailer.stopHere();
                    return;
                }
            }
            command = sequence;
            deriver.begin(sequence, Math.max(0, times.timestampOf(sequence)));
        }
        header.wrap(buffer, offset);
        deriver.onEvent(buffer, offset, header);
    }

    @Override
    public void close()
    {
        times.close();
        if (null != tailer)
        {
            tailer.close();
            tailer = null;
        }
    }
}
