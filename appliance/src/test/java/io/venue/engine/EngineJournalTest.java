package io.venue.engine;

import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.queue.JournalTailer;
import io.venue.tuning.PinnedThreads;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The engine between real Chronicle Queue journals: commands are read from a command journal and every
 * event is appended to an event journal. Two engines fed the same command journal write identical event
 * journals, identical to the events of the run that produced the commands.
 */
class EngineJournalTest
{
    @TempDir
    Path folder;

    @Test
    void twoEnginesOnOneCommandJournalWriteIdenticalEventJournals()
    {
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        new RandomStream(h, 42).setUp().run(20_000);

        try (Journal commands = Journal.open(folder.resolve("commands")))
        {
            final JournalAppender appender = commands.appender();
            int position = 0;
            while (position < h.commandsLength())
            {
                final int length = h.commands.getInt(position);
                appender.append(h.commands, position + 4, length);
                position += 4 + length;
            }
        }

        final byte[] hashA = runFromJournal(folder.resolve("commands"), folder.resolve("events-a"));
        final byte[] hashB = runFromJournal(folder.resolve("commands"), folder.resolve("events-b"));
        assertArrayEquals(h.engine.stateHash(), hashA);
        assertArrayEquals(hashA, hashB);

        final byte[] a = readAll(folder.resolve("events-a"));
        assertArrayEquals(a, readAll(folder.resolve("events-b")));
        assertArrayEquals(h.log.bytes(), a, "the journaled events are the events of the original run");
    }

    @Test
    void anExceptionOutOfTheEngineStopsTheShardWithoutWritingTheBatchsEvents()
    {
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        new RandomStream(h, 3).setUp().run(300);
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender appender = commands.appender();
            for (int position = 0; position < h.commandsLength(); position += 4 + h.commands.getInt(position))
            {
                appender.add(h.commands, position + 4, h.commands.getInt(position));
            }
            appender.commit();
            // a sink that fails at the 100th command's events, as a defect in the engine would
            final JournalEventSink journal = JournalEventSink.heldUntilFlush(events.appender());
            final int[] commandsEnded = {0};
            final Engine engine = new Engine(RandomStream.config().operator(EngineHarness.OPERATOR), new EventSink()
            {
                public void onEvent(final DirectBuffer buffer, final int offset, final int length)
                {
                    if (commandsEnded[0] == 99)
                    {
                        throw new IllegalStateException("a defect");
                    }
                    journal.onEvent(buffer, offset, length);
                }

                public void onCommandEnd()
                {
                    commandsEnded[0]++;
                    journal.onCommandEnd();
                }

                public void flush()
                {
                    journal.flush();
                }
            });
            final EngineAgent agent = new EngineAgent(engine, commands.tailer(), 1_000);
            Assertions.assertThrows(IllegalStateException.class, agent::doWork);
            assertEquals("a defect", agent.failure().getMessage());
            assertEquals(0, agent.doWork(), "a stopped shard applies nothing more");
            assertEquals(0, agent.appliedSequence(), "and says it applied nothing of the batch");
            assertEquals(99, commandsEnded[0]);
            assertEquals(-1, events.lastIndex(), "none of the batch's events were written");
        }
    }

    @Test
    void anEngineAgentOnAPinnedThreadTailsTheCommandJournalLive() throws InterruptedException
    {
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        new RandomStream(h, 7).setUp().run(5_000);
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender out = events.appender();
            final Engine engine = new Engine(RandomStream.config().operator(EngineHarness.OPERATOR),
                new JournalEventSink(out));
            final EngineAgent agent = new EngineAgent(engine, commands.tailer(), 64);
            final AgentRunner runner = new AgentRunner(
                new BackoffIdleStrategy(10, 10, 1_000, 100_000), Throwable::printStackTrace, null, agent);
            AgentRunner.startOnThread(runner, PinnedThreads.factory("engine-shard-0",
                Runtime.getRuntime().availableProcessors() - 1));
            try
            {
                // commands arrive while the agent runs, as the sequencer will append them
                final JournalAppender in = commands.appender();
                int position = 0;
                long lastSequence = 0;
                while (position < h.commandsLength())
                {
                    final int length = h.commands.getInt(position);
                    in.append(h.commands, position + 4, length);
                    lastSequence = JournalRecords.sequence(h.commands, position + 4);
                    position += 4 + length;
                }
                final long deadline = System.nanoTime() + 30_000_000_000L;
                while (agent.appliedSequence() != lastSequence && System.nanoTime() < deadline)
                {
                    Thread.sleep(1);
                }
                assertEquals(lastSequence, agent.appliedSequence());
            }
            finally
            {
                runner.close();
            }
            assertArrayEquals(h.engine.stateHash(), engine.stateHash());
        }
        assertArrayEquals(h.log.bytes(), readAll(folder.resolve("events")));
    }

    private static byte[] runFromJournal(final Path commandsFolder, final Path eventsFolder)
    {
        try (Journal commands = Journal.openReadOnly(commandsFolder); Journal events = Journal.open(eventsFolder))
        {
            final JournalAppender out = events.appender();
            final Engine engine = new Engine(RandomStream.config().operator(EngineHarness.OPERATOR),
                new JournalEventSink(out));
            final JournalTailer in = commands.tailer();
            final int[] applied = {0};
            while (in.read((buffer, offset, length, index) ->
            {
                engine.onCommand(buffer, offset, length);
                applied[0]++;
            }))
            {
                // until the end of the command journal
            }
            assertEquals(engine.lastSequence(), applied[0], "every record is a command with the next sequence");
            return engine.stateHash();
        }
    }

    /** The event journal as length-prefixed records, the EventLog's format. */
    private static byte[] readAll(final Path eventsFolder)
    {
        final ExpandableArrayBuffer all = new ExpandableArrayBuffer(1 << 20);
        final int[] length = {0};
        try (Journal events = Journal.openReadOnly(eventsFolder))
        {
            final JournalTailer tailer = events.tailer();
            while (tailer.read((buffer, offset, recordLength, index) ->
            {
                all.putInt(length[0], recordLength);
                all.putBytes(length[0] + 4, buffer, offset, recordLength);
                length[0] += 4 + recordLength;
            }))
            {
                // until the end
            }
        }
        return Arrays.copyOf(all.byteArray(), length[0]);
    }
}
