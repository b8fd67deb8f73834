package io.venue.engine;

import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateCheck;
import io.venue.engine.state.StateStatus;
import io.venue.engine.state.StateUnusableException;
import io.venue.journal.JournalRecords;
import io.venue.journal.RecordPrinter;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordCursor;
import io.venue.journal.queue.RecordHandler;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.snapshot.SnapshotDamagedException;
import io.venue.snapshot.SnapshotFiles;
import io.venue.snapshot.SnapshotReader;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Brings one shard back after a stop or a crash, from its state folder and its two journals:
 * <ol>
 *   <li>the Chronicle Map state is used if it is consistent; if it is missing or unusable (a write cut
 *   short, a damaged file …) it is recreated from the newest usable snapshot, or empty, and the command
 *   journal is replayed from there — each reason is reported through the {@link Report};</li>
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

        /**
         * A command record the engine cannot read (a damaged or foreign record: the live engine skips it too, and
         * counts it), at {@code index} of the command journal; {@code sequence} is -1 when the record is too short to
         * hold one.
         */
        void onUnreadable(long index, long sequence);
    }

    private final Engine engine;
    private final EngineState state;
    private final JournalTailer commands;
    private final ResumingSink sink;

    private ShardRecovery(final Engine engine, final EngineState state, final JournalTailer commands,
        final ResumingSink sink)
    {
        this.engine = engine;
        this.state = state;
        this.commands = commands;
        this.sink = sink;
    }

    /** {@link #recover(EngineConfig, EngineState.Context, Path, Journal, Journal, Report)} without snapshots. */
    public static ShardRecovery recover(
        final EngineConfig config,
        final EngineState.Context stateContext,
        final Journal commandJournal,
        final Journal eventJournal,
        final Report report) throws StateUnusableException
    {
        return recover(config, stateContext, null, commandJournal, eventJournal, report);
    }

    /**
     * @param snapshots the folder of this shard's snapshots ({@link io.venue.snapshot.SnapshotWriter}), or null:
     *                  when the state is unusable, the newest snapshot no later than the command journal's end
     *                  that loads whole is the starting point instead of the journal's first command.
     */
    public static ShardRecovery recover(
        final EngineConfig config,
        final EngineState.Context stateContext,
        final Path snapshots,
        final Journal commandJournal,
        final Journal eventJournal,
        final Report report) throws StateUnusableException
    {
        final ResumingSink sink = new ResumingSink(eventJournal);
        final StateCheck check = EngineState.check(stateContext);
        final long lastCommand = commandJournal.lastSequence();
        // a snapshot is forced to disk, and the maps at a clean close, the journals are not: after a host crash either
        // may be ahead of them
        final long journalsCover = Math.min(lastCommand, eventsCover(commandJournal, eventJournal.lastSequence()));
        EngineState state = null;
        Engine restored = null;
        if (check.status() == StateStatus.EMPTY && lastCommand > 0 && null != snapshots)
        {
            // commands but no state: the folder was lost or is new on an old journal; a snapshot saves replaying all
            report.onStateRebuilt(
                "EMPTY: the state folder holds nothing while the command journal holds commands up to " + lastCommand);
        }
        else if (check.status().isUsable() && check.appliedSequence() > journalsCover)
        {
            // effects of commands whose records were lost, which no journal can account for
            report.onStateRebuilt(
                "the state holds the commands up to " + check.appliedSequence() + ", the journals only up to " +
                journalsCover + " (their tails were lost): not used");
        }
        else if (check.status().isUsable())
        {
            try
            {
                state = EngineState.open(stateContext);
                restored = Engine.open(config, sink, state);
            }
            catch (final StateUnusableException ex)
            {
                // a map Chronicle refuses, or entries that contradict each other: rebuild
                if (null != state)
                {
                    state.close();
                    state = null;
                }
                report.onStateRebuilt(ex.getMessage());
            }
        }
        else
        {
            report.onStateRebuilt(check.status() + ": " + check.detail());
        }
        if (null == restored)
        {
            state = fromSnapshot(stateContext, snapshots, journalsCover, report);
            try
            {
                restored = Engine.open(config, sink, state);
            }
            catch (final StateUnusableException ex)
            {
                state.close();
                report.onStateRebuilt("the snapshot's entries contradict each other (" + ex.getMessage() +
                    "): replaying the whole command journal");
                state = EngineState.openEmpty(stateContext);
                restored = Engine.open(config, sink, state);
            }
        }
        final Engine engine = restored;

        // events of commands the state already holds are skipped; later ones are compared, then appended
        final long applied = engine.lastSequence();
        sink.skipThrough(applied);
        final JournalTailer commands = commandJournal.tailer();
        commands.moveAfterSequence(applied);
        final long[] replayed = {0};
        while (commands.read((buffer, offset, length, index) ->
        {
            if (length >= JournalRecords.SEQUENCE_OFFSET + 8 && JournalRecords.sequence(buffer, offset) <= applied)
            {
                return;
            }
            if (!engine.onCommand(buffer, offset, length))
            {
                report.onUnreadable(index, JournalRecords.sequenceOrNone(buffer, offset, length));
            }
            replayed[0]++;
        }))
        {
            // to the end of the command journal
        }
        engine.drain();
        sink.requireNoEventsLeft();
        engine.flushEvents();
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
     * The last command whose events the event journal holds: its last event's command, and after it the commands that
     * write no events (requests refused before the engine, records the engine does not read), which a snapshot or a
     * state may be named after.
     */
    private static long eventsCover(final Journal commandJournal, final long lastEvent)
    {
        final long[] covered = {lastEvent};
        final boolean[] stop = {false};
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        try (JournalTailer tailer = commandJournal.tailer())
        {
            tailer.moveAfterSequence(lastEvent);
            while (!stop[0] && tailer.read((buffer, offset, length, index) ->
            {
                if (!stop[0] && length >= JournalRecords.SEQUENCE_OFFSET + 8 &&
                    writesNoEvents(header.wrap(buffer, offset)))
                {
                    covered[0] = JournalRecords.sequence(buffer, offset);
                }
                else
                {
                    stop[0] = true;
                }
            }))
            {
                // up to the first command that writes events
            }
        }
        return covered[0];
    }

    /**
     * A refusal recorded before the engine, or a record of another schema or version, which the engine does not read
     * (JOURNAL-SCHEMA.md): neither has events.
     */
    private static boolean writesNoEvents(final MessageHeaderDecoder header)
    {
        return JournalRecords.isRefusalAudit(header.templateId()) ||
            header.schemaId() != MessageHeaderDecoder.SCHEMA_ID ||
            !JournalRecords.readsVersion(header.version());
    }

    /**
     * A fresh state, loaded from the newest snapshot that is no later than {@code lastJournaled} (the end of the
     * shorter journal: the events of every command up to the snapshot must still be there) and loads whole;
     * empty (to be filled by a full replay) when there is none. Every snapshot passed over is reported.
     */
    private static EngineState fromSnapshot(
        final EngineState.Context context, final Path snapshots, final long lastJournaled, final Report report)
        throws StateUnusableException
    {
        EngineState state = EngineState.openEmpty(context);
        if (null == snapshots)
        {
            report.onStateRebuilt("no snapshots configured: replaying the whole command journal");
            return state;
        }
        final List<Path> files;
        try
        {
            files = SnapshotFiles.newestFirst(snapshots);
        }
        catch (final IOException ex)
        {
            report.onStateRebuilt(
                "the snapshot folder cannot be read (" + ex + "): replaying the whole command journal");
            return state;
        }
        for (final Path file : files)
        {
            if (SnapshotFiles.sequenceOf(file) > lastJournaled)
            {
                report.onStateRebuilt(
                    file.getFileName() + " is past the journals' end (" + lastJournaled + "): not used");
                continue;
            }
            try
            {
                final long sequence = SnapshotReader.load(file, state);
                report.onStateRebuilt("loaded " + file.getFileName() + ": replaying the commands after " + sequence);
                return state;
            }
            catch (final SnapshotDamagedException | IOException ex)
            {
                report.onStateRebuilt(ex.getMessage() + ": trying an older one");
                state.close();
                state = EngineState.openEmpty(context);
            }
        }
        report.onStateRebuilt("no usable snapshot: replaying the whole command journal");
        return state;
    }

    /**
     * The event sink in front of the event journal. Events the journal already holds (a crash after the events were
     * written and before the state recorded their commands) are compared with it record by record, in order; once
     * the replay is past the journal's end, which is always between two commands, events are held and written as
     * one excerpt per batch of commands ({@link JournalEventSink#heldUntilFlush}'s rule).
     */
    static final class ResumingSink implements EventSink
    {
        private final JournalTailer existingTailer;
        private RecordCursor existing;
        private final RecordHandler compare = this::compare;
        private final JournalEventSink out;
        private boolean caughtUp;
        /** Events the current command produced so far. */
        private int commandEvents;
        private DirectBuffer produced;
        private int producedOffset;
        private int producedLength;
        private long matched;
        private long appended;

        ResumingSink(final Journal events)
        {
            this.out = JournalEventSink.heldUntilFlush(events.appender());
            this.existingTailer = events.tailer();
            this.existing = new RecordCursor(existingTailer);
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
            existingTailer.moveAfterSequence(sequence);
            existing = new RecordCursor(existingTailer);
        }

        /**
         * After the replay: events still unread belong to no journaled command (the host lost the tail of
         * the command journal but kept the events). Appending after them would bury them; refuse instead.
         */
        void requireNoEventsLeft()
        {
            if (!caughtUp && existing.next((buffer, offset, length, i) ->
            {
                throw new IllegalStateException(
                    "the event journal holds events past the command journal's end, from index " +
                    i + ": " + new RecordPrinter().print(buffer, offset, length));
            }))
            {
                throw new IllegalStateException("unreachable: the handler throws");
            }
            caughtUp = true;
        }

        @Override
        public void onEvent(final DirectBuffer buffer, final int offset, final int length)
        {
            if (!caughtUp)
            {
                produced = buffer;
                producedOffset = offset;
                producedLength = length;
                if (existing.next(compare))
                {
                    matched++;
                    commandEvents++;
                    return;
                }
                if (commandEvents > 0)
                {
                    // a command's events are written whole: a journal that ends inside them is not one this
                    // engine wrote
                    throw new IllegalStateException(
                        "the event journal ends inside the events of the command of sequence " +
                        JournalRecords.sequence(buffer, offset) + "; the replay goes on with: " +
                        new RecordPrinter().print(buffer, offset, length));
                }
                caughtUp = true;
            }
            out.onEvent(buffer, offset, length);
            appended++;
        }

        @Override
        public void onCommandEnd()
        {
            commandEvents = 0;
            out.onCommandEnd();
        }

        @Override
        public void flush()
        {
            out.flush();
        }

        private void compare(final DirectBuffer recorded, final int offset, final int length, final long index)
        {
            if (length == producedLength &&
                JournalRecords.sameBytes(recorded, offset, produced, producedOffset, length))
            {
                return;
            }
            throw new IllegalStateException("the event journal disagrees with the replay at index " + index +
                "\n  journal: " + new RecordPrinter().print(recorded, offset, length) +
                "\n  replay:  " + new RecordPrinter().print(produced, producedOffset, producedLength));
        }
    }
}
