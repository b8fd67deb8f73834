package io.venue.engine;

import io.venue.engine.state.Credential;
import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateCheck;
import io.venue.engine.state.StateStatus;
import io.venue.engine.state.StateUnusableException;
import io.venue.engine.state.StoreFile;
import io.venue.journal.queue.Journal;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine writing through to Chronicle Map files in a temp folder: the mirror changes no event, a restarted
 * engine rebuilt from the files has the continuous engine's state hash and goes on with the same event bytes,
 * and a folder that must not be trusted is refused with its status.
 */
class PersistedEngineTest
{
    private static final int STEPS = 1_500;

    @TempDir
    Path folder;

    private EngineState.Context context()
    {
        // an odd flush interval, so restarts land between writes and writes cover several commands
        return new EngineState.Context().directory(folder.resolve("state")).sizeFor(1_000, 10_000).commandsPerFlush(7);
    }

    @ParameterizedTest(name = "seed={0}")
    @ValueSource(longs = {1, 20_261_122})
    void restartedEngineContinuesAsIfItNeverStopped(final long seed) throws Exception
    {
        final EngineHarness source = new EngineHarness(RandomStream.config(), false);
        new RandomStream(source, seed).setUp().run(STEPS);
        final Records records = new Records(source.commands, source.commandsLength());

        // stop and restart at several points; the sink survives restarts, as the event journal would
        final int[] stops = {records.count() / 5, records.count() / 2, records.count() / 2 + 1,
            4 * records.count() / 5};
        final EventLog reference = new EventLog(false);
        final Engine continuous = new Engine(RandomStream.config().operator(EngineHarness.OPERATOR), reference);
        final EventLog persistedLog = new EventLog(false);
        PersistedEngine persisted = PersistedEngine.open(RandomStream.config().operator(EngineHarness.OPERATOR),
            persistedLog, context());
        int next = 0;
        int mostOpen = 0;
        for (final int stop : stops)
        {
            records.apply(continuous, next, stop);
            records.apply(persisted.engine(), next, stop);
            next = stop;
            persisted.close();

            persisted = PersistedEngine.open(RandomStream.config().operator(EngineHarness.OPERATOR),
                persistedLog, context());
            final Engine restored = persisted.engine();
            assertEquals(continuous.lastSequence(), restored.lastSequence(), "restored at the stored sequence");
            assertArrayEquals(continuous.stateHash(), restored.stateHash(),
                "restored state after " + stop + " records");
            assertEquals(continuous.openOrders(), restored.openOrders());
            mostOpen = Math.max(mostOpen, restored.openOrders());
            assertArrayEquals(reference.bytes(), persistedLog.bytes(), "events up to record " + stop);
        }
        records.apply(continuous, next, records.count());
        records.apply(persisted.engine(), next, records.count());
        assertArrayEquals(reference.bytes(), persistedLog.bytes(), "the restarted engine goes on with the same events");
        assertArrayEquals(continuous.stateHash(), persisted.engine().stateHash(), "and ends in the same state");
        assertArrayEquals(source.engine.stateHash(), continuous.stateHash());
        persisted.close();
        assertTrue(mostOpen > 0, "books were rebuilt with orders in them");

        try (PersistedEngine last = PersistedEngine.open(RandomStream.config().operator(EngineHarness.OPERATOR),
            new EventLog(false), context()))
        {
            assertArrayEquals(continuous.stateHash(), last.engine().stateHash());
            assertTrue(last.state().agents().size() > 0 && last.state().credentials().size() > 1, "agents were stored");
            final Credential credential = new Credential();
            int signing = 0;
            for (int c = 0; c < last.state().credentials().size(); c++)
            {
                signing += (last.state().credentials().find(c, credential).flags() & Credential.SIGNS);
            }
            assertTrue(signing > 0 && signing < last.state().credentials().size(), "signing and Ed25519 credentials");
            assertTrue(last.state().positions().size() > 0, "outcome positions were stored");
        }
    }

    @ParameterizedTest(name = "files={0}, commandsPerFlush={1}, recordsPerFlush={2}")
    @CsvSource({"true, 1, 256", "true, 1000, 256", "false, 7, 256", "true, 1000000, 10"})
    void mirrorChangesNoEvent(final boolean files, final int commandsPerFlush, final int recordsPerFlush)
        throws Exception
    {
        final EngineHarness plain = new EngineHarness(RandomStream.config(), false);
        new RandomStream(plain, 77).setUp().run(STEPS);
        try (EngineState stored = EngineState.open(context().persisted(files).commandsPerFlush(commandsPerFlush)
            .recordsPerFlush(recordsPerFlush)))
        {
            final EngineHarness mirrored = new EngineHarness(RandomStream.config(), false, stored);
            new RandomStream(mirrored, 77).setUp().run(STEPS);

            assertArrayEquals(plain.log.bytes(), mirrored.log.bytes(), "event bytes with and without the mirror");
            assertArrayEquals(plain.engine.stateHash(), mirrored.engine.stateHash());
            final long behind = mirrored.engine.lastSequence() - stored.meta().appliedSequence();
            assertTrue(behind >= 0 && behind < stored.context().commandsPerFlush(),
                "the maps lag by less than one flush: " + behind);
            assertTrue(stored.meta().appliedSequence() > 0,
                "written along the way, by command count or by record count");
            mirrored.engine.flushState();
            assertEquals(mirrored.engine.lastSequence(), stored.meta().appliedSequence(),
                "every command is marked applied");
            assertEquals(mirrored.engine.openOrders(), stored.openOrders().size(), "one record per resting order");
            assertEquals(mirrored.engine.view().accountCount(), stored.nonceWindows().size(), "one record per account");
        }
    }

    @Test
    void commandCutShortIsRefusedWithItsStatus() throws Exception
    {
        final EngineHarness source = new EngineHarness(RandomStream.config(), false);
        new RandomStream(source, 5).setUp().run(300);
        final Records records = new Records(source.commands, source.commandsLength());
        final PersistedEngine persisted = PersistedEngine.open(RandomStream.config().operator(EngineHarness.OPERATOR),
            new EventLog(false), context());
        records.apply(persisted.engine(), 0, records.count());
        persisted.engine().flushState();
        // the process dies between beginApply and commitApplied of the next write
        persisted.state().meta().beginApply(persisted.engine().lastSequence() + 1);
        persisted.close();

        final StateUnusableException refused = assertThrows(StateUnusableException.class,
            () -> PersistedEngine.open(RandomStream.config().operator(EngineHarness.OPERATOR),
                new EventLog(false), context()));
        assertEquals(StateStatus.APPLY_INCOMPLETE, refused.status());
        assertTrue(refused.getMessage().startsWith("APPLY_INCOMPLETE"), refused.getMessage());
        assertEquals(StateStatus.APPLY_INCOMPLETE, EngineState.check(context()).status(),
            "the files are left as found");

        // what the caller does then: start over and replay the journal from the start
        try (EngineState fresh = EngineState.openEmpty(context()))
        {
            final Engine rebuilt = Engine.open(RandomStream.config().operator(EngineHarness.OPERATOR),
                new EventLog(false), fresh);
            records.apply(rebuilt, 0, records.count());
            assertArrayEquals(source.engine.stateHash(), rebuilt.stateHash());
        }
        assertEquals(StateStatus.CONSISTENT, EngineState.check(context()).status());
    }

    @Test
    void missingMapAndContradictingEntriesAreRefused() throws Exception
    {
        final EngineHarness source = new EngineHarness(RandomStream.config(), false);
        new RandomStream(source, 9).setUp().run(200);
        final Records records = new Records(source.commands, source.commandsLength());
        try (PersistedEngine persisted = PersistedEngine.open(RandomStream.config().operator(EngineHarness.OPERATOR),
            new EventLog(false), context()))
        {
            records.apply(persisted.engine(), 0, records.count());
        }

        // an account's record gone: the numbering has a gap, balances and orders name an unknown account
        try (EngineState stored = EngineState.open(context()))
        {
            final long sequence = stored.meta().appliedSequence() + 1;
            stored.meta().beginApply(sequence);
            final byte[] first = source.engine.view().addressOf(0);
            assertTrue(stored.nonceWindows().remove(new UnsafeBuffer(first), 0));
            stored.meta().commitApplied(sequence);
        }
        final StateUnusableException contradicting = assertThrows(StateUnusableException.class,
            () -> PersistedEngine.open(RandomStream.config().operator(EngineHarness.OPERATOR),
                new EventLog(false), context()));
        assertEquals(StateStatus.MAP_FILE_CORRUPT, contradicting.status(), contradicting.getMessage());

        Files.delete(context().directory().resolve(StoreFile.MARKETS.fileName()));
        final StateUnusableException missing = assertThrows(StateUnusableException.class,
            () -> PersistedEngine.open(RandomStream.config().operator(EngineHarness.OPERATOR),
                new EventLog(false), context()));
        assertEquals(StateStatus.MAP_FILE_MISSING, missing.status());
        final StateCheck check = EngineState.check(context());
        assertEquals(StateStatus.MAP_FILE_MISSING, check.status(), "refusing leaves the folder as found");
    }

    @Test
    void commandNotAfterTheStoredOneIsRefusedBeforeAnyChange() throws Exception
    {
        final EngineHarness source = new EngineHarness(RandomStream.config(), false);
        new RandomStream(source, 3).setUp().run(50);
        final Records records = new Records(source.commands, source.commandsLength());
        try (PersistedEngine persisted = PersistedEngine.open(RandomStream.config().operator(EngineHarness.OPERATOR),
            new EventLog(false), context()))
        {
            records.apply(persisted.engine(), 0, records.count());
            final byte[] before = persisted.engine().stateHash();
            assertThrows(IllegalStateException.class,
                () -> records.apply(persisted.engine(), records.count() - 1, records.count()));
            assertArrayEquals(before, persisted.engine().stateHash());
        }
    }

    @Test
    void theStateIsNeverWrittenAheadOfEventsTheSinkHolds() throws Exception
    {
        final EngineHarness source = new EngineHarness(RandomStream.config(), false);
        new RandomStream(source, 5).setUp().run(300);
        final Records records = new Records(source.commands, source.commandsLength());
        try (Journal events = Journal.open(folder.resolve("events"));
            PersistedEngine persisted = PersistedEngine.open(RandomStream.config().operator(EngineHarness.OPERATOR),
                JournalEventSink.heldUntilFlush(events.appender()), context()))
        {
            long written = 0;
            for (int i = 0; i < records.count(); i++)
            {
                // no flushEvents between commands: only the state's writes (every 7 commands) make the sink write
                records.apply(persisted.engine(), i, i + 1);
                final long stateSequence = persisted.state().meta().appliedSequence();
                assertTrue(stateSequence <= events.lastSequence(),
                    "the state reflects sequence " + stateSequence + " but the event journal ends at " +
                    events.lastSequence());
                written = Math.max(written, stateSequence);
            }
            assertTrue(written > 0, "the state was written during the run");
        }
    }

    /** The length-prefixed command records a harness kept, addressable by index. */
    private static final class Records
    {
        private final ExpandableArrayBuffer buffer;
        private int[] offsets = new int[1024];
        private int count;

        Records(final ExpandableArrayBuffer buffer, final int length)
        {
            this.buffer = buffer;
            for (int position = 0; position < length; position += 4 + buffer.getInt(position))
            {
                if (count == offsets.length)
                {
                    offsets = Arrays.copyOf(offsets, count * 2);
                }
                offsets[count++] = position;
            }
        }

        int count()
        {
            return count;
        }

        /** Applies records {@code [from, to)} to the engine. */
        void apply(final Engine engine, final int from, final int to)
        {
            for (int i = from; i < to; i++)
            {
                final int position = offsets[i];
                if (!engine.onCommand(buffer, position + 4, buffer.getInt(position)))
                {
                    throw new IllegalStateException("record " + i + " refused");
                }
            }
        }
    }
}
