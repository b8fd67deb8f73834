package io.venue.engine;

import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.queue.JournalTailer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One million random commands of every kind (rejects included) journaled to Chronicle Queue with their
 * events, then replayed from the command journal into a fresh engine whose every event is compared byte
 * for byte with the recorded one: the same events, none missing or extra, and the same state hash. The
 * stream goes through the journals in chunks because it does not fit in a test heap.
 */
class MillionCommandReplayTest
{
    private static final int COMMANDS = 1_000_000;
    private static final int CHUNK = 20_000;

    @TempDir
    Path folder;

    @Test
    void aMillionJournaledCommandsReplayToTheSameEventBytesAndState()
    {
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender commandOut = commands.appender();
            final EventLog recorded = new EventLog(new JournalEventSink(events.appender()));
            final EngineHarness h = new EngineHarness(RandomStream.config(), recorded);
            final RandomStream stream = new RandomStream(h, 1_000_000L).setUp();
            h.drainCommandsTo(commandOut);
            for (int done = 0; done < COMMANDS; done += CHUNK)
            {
                stream.run(CHUNK);
                h.drainCommandsTo(commandOut);
            }
            assertTrue(h.engine.commandCount() >= COMMANDS);

            final ShardRecovery.ResumingSink comparing = new ShardRecovery.ResumingSink(events);
            final Engine replayed = new Engine(RandomStream.config().operator(EngineHarness.OPERATOR), comparing);
            final JournalTailer tailer = commands.tailer();
            while (tailer.read((buffer, offset, length, index) -> replayed.onCommand(buffer, offset, length)))
            {
                // to the end of the command journal
            }
            assertEquals(h.engine.commandCount(), replayed.commandCount());
            assertEquals(recorded.count(), comparing.matched(), "every recorded event produced again, byte for byte");
            assertEquals(0, comparing.appended(), "no event the recording did not have");
            assertArrayEquals(h.engine.stateHash(), replayed.stateHash());
        }
    }
}
