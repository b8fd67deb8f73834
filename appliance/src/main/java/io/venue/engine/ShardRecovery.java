package io.venue.engine;

import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateCheck;
import io.venue.engine.state.StateUnusableException;
import io.venue.journal.JournalRecords;
import io.venue.journal.RecordPrinter;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordHandler;
import org.agrona.DirectBuffer;

/**
 * Brings one shard back after a stop or a crash, from its state folder and its two journals:
 * <ol>
 *   <li>the Chronicle Map state is used if it is consistent; if it is missing or unusable (a command cut
 *   short, a damaged file …) it is recreated empty and the whole command journal is replayed — the reason
 *   is reported through the {@link Report};</li>
 *   <li>the commands after the state's applied sequence are replayed. Their events may already be in the
 *   event journal (a crash after the events were written and before the state recorded the command): each
 *   event the replay produces is compared byte for byte with the one already there, and only events past
 *   the end of the event journal are appended. A difference stops recovery with the position where it
 *   occurs — a journal that disagrees with its replay is never silently skipped. Events left over after
 *   the replay (events of commands the command journal does not hold) stop recovery too.</li>
 * </ol>
 * After {@link #recover} the engine, its command tailer (positioned after the last command) and its sink
 * carry on live, e.g. in an {@link EngineAgent}.
 */
public final class ShardRecovery
{
    /** What recovery did, for the operator's log. */
    public interface Report
    {
        void onStateRebuilt(String reason);

        void onReplayed(long commands, long eventsMatched, long eventsAppended, long lastSequence);
    }

    private final Engine engine;
    private final EngineState state;
    private final JournalTailer commands;
    private final ResumingSink sink;

    private ShardRecovery(final Engine engine, final EngineState state, final JournalTailer commands, final ResumingSink sink)
    {
        this.engine = engine;
        this.state = state;
        this.commands = commands;
        this.sink = sink;
    }

    public static ShardRecovery recover(
        final EngineConfig config,
        final EngineState.Context stateContext,
        final Journal commandJournal,
        final Journal eventJournal,
        final Report report) throws StateUnusableException
    {
        final ResumingSink sink = new ResumingSink(eventJournal);
        final StateCheck check = EngineState.check(stateContext);
        EngineState state;
        if (check.status().isUsable())
        {
            state = EngineState.open(stateContext);
        }
        else
        {
            report.onStateRebuilt(check.status() + ": " + check.detail());
            state = EngineState.openEmpty(stateContext);
        }
        Engine restored;
        try
        {
            restored = Engine.open(config, sink, state);
        }
        catch (final StateUnusableException ex)
        {
            // entries that contradict each other: rebuild by a full replay
            state.close();
            report.onStateRebuilt(ex.getMessage());
            state = EngineState.openEmpty(stateContext);
            restored = Engine.open(config, sink, state);
        }
        final Engine engine = restored;

        // events of commands the state already holds are skipped; later ones are compared, then appended
        final long applied = engine.lastSequence();
        sink.skipThrough(applied);
        final JournalTailer commands = commandJournal.tailer();
        final long[] replayed = {0};
        while (commands.read((buffer, offset, length, index) ->
        {
            if (length >= JournalRecords.SEQUENCE_OFFSET + 8 && JournalRecords.sequence(buffer, offset) <= applied)
            {
                return;
            }
            engine.onCommand(buffer, offset, length);
            replayed[0]++;
        }))
        {
            // to the end of the command journal
        }
        sink.requireNoEventsLeft();
        report.onReplayed(replayed[0], sink.matched, sink.appended, engine.lastSequence());
        return new ShardRecovery(engine, state, commands, sink);
    }

    public Engine engine()
    {
        return engine;
    }

    public EngineState state()
    {
        return state;
    }

    /** The command tailer, positioned after the last command: hand it to the {@link EngineAgent}. */
    public JournalTailer commands()
    {
        return commands;
    }

    /**
     * The event sink in front of the event journal: stages each command's events, then compares them with the
     * journal's next excerpt (a command's events are one excerpt, written whole or not at all) and appends them
     * only past the journal's end.
     */
    static final class ResumingSink implements EventSink
    {
        private final JournalAppender appender;
        private final JournalTailer existing;
        private final RecordHandler compare = this::compare;
        private boolean caughtUp;
        private long matched;
        private long appended;

        ResumingSink(final Journal events)
        {
            this.appender = events.appender();
            this.existing = events.tailer();
        }

        /** Events produced that were already in the journal, byte for byte. */
        long matched()
        {
            return matched;
        }

        /** Events produced past the journal's end, and appended. */
        long appended()
        {
            return appended;
        }

        /** Moves past the existing events of commands up to {@code sequence} (already in the state). */
        void skipThrough(final long sequence)
        {
            final long[] last = {Long.MIN_VALUE};
            while (true)
            {
                final long index = existing.index();
                final boolean more = existing.read((buffer, offset, length, i) -> last[0] = JournalRecords.sequence(buffer, offset));
                if (!more)
                {
                    caughtUp = true;
                    return;
                }
                if (last[0] > sequence)
                {
                    existing.moveToIndex(index);
                    return;
                }
            }
        }

        /**
         * After the replay: events still unread belong to no journaled command (the host lost the tail of
         * the command journal but kept the events). Appending after them would bury them; refuse instead.
         */
        void requireNoEventsLeft()
        {
            if (caughtUp)
            {
                return;
            }
            final long index = existing.index();
            final boolean left = existing.read((buffer, offset, length, i) ->
            {
                throw new IllegalStateException("the event journal holds events past the command journal's end, from index " +
                    i + ": " + new RecordPrinter().print(buffer, offset, length));
            });
            if (!left)
            {
                caughtUp = true;
            }
            else
            {
                existing.moveToIndex(index);
            }
        }

        @Override
        public void onEvent(final DirectBuffer buffer, final int offset, final int length)
        {
            appender.add(buffer, offset, length);
        }

        @Override
        public void onCommandEnd()
        {
            final int events = appender.stagedRecords();
            if (events == 0)
            {
                return;
            }
            if (!caughtUp)
            {
                if (existing.readExcerpt(compare))
                {
                    matched += events;
                    appender.discard();
                    return;
                }
                caughtUp = true;
            }
            appender.commit();
            appended += events;
        }

        private void compare(final DirectBuffer excerpt, final int offset, final int length, final long index)
        {
            if (length == appender.stagedLength() && JournalRecords.sameBytes(excerpt, offset, appender.staged(), 0, length))
            {
                return;
            }
            throw new IllegalStateException("the event journal disagrees with the replay at index " + index +
                "\n  journal: " + printFrames(excerpt, offset, length) +
                "\n  replay:  " + printFrames(appender.staged(), 0, appender.stagedLength()));
        }

        private static String printFrames(final DirectBuffer frames, final int offset, final int length)
        {
            final RecordPrinter printer = new RecordPrinter();
            final StringBuilder text = new StringBuilder();
            for (int position = offset; position < offset + length; )
            {
                final int recordLength = frames.getInt(position, java.nio.ByteOrder.LITTLE_ENDIAN);
                text.append("\n    ").append(printer.print(frames, position + Journal.FRAME_HEADER, recordLength));
                position += Journal.FRAME_HEADER + recordLength;
            }
            return text.toString();
        }
    }
}
