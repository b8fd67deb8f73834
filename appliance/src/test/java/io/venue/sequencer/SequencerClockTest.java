package io.venue.sequencer;

import io.venue.action.Address;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.entry.PreJournalRefusals;
import io.venue.verifier.VerifierPool;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stamped time never goes backwards, across a restart of the sequencer on the same journal too. */
class SequencerClockTest
{
    @TempDir
    Path folder;

    @Test
    void theStampedTimeNeverGoesBackwardsAcrossARestart() throws Exception
    {
        final AtomicLong clock = new AtomicLong(2_000_000L);
        final SequencerListener quiet = new SequencerListener()
        {
            public void onSequenced(final long c, final long k, final long s, final long i) { }

            public void onRejected(final long c, final long k, final long s, final long i) { }
        };
        try (Journal commands = Journal.open(folder.resolve("commands"));
            VerifierPool pool = VerifierPool.start(
                new VerifierPool.Context().threads(1).chainId(8453)
                .verifyingContract(Address.of("0x" + "5e".repeat(20)))))
        {
            // first run: one record stamped at 2,000,000
            final PreJournalRefusals first = new PreJournalRefusals(1 << 16);
            final Sequencer before = new Sequencer(pool, commands.appender(), clock::get, quiet, 1, 0, 64)
                .refusals(first);
            first.offer(1, 1, 4, "edge");
            before.doWork();
            final long lastStamp = JournalRecords.timestampMs(lastRecord(commands), 0);
            assertEquals(2_000_000L, commands.lastTimestampMs());

            // restart (same journal) on a host whose clock is one second behind (NTP step, or a promoted standby)
            clock.set(1_999_000L);
            final PreJournalRefusals second = new PreJournalRefusals(1 << 16);
            final Sequencer after = new Sequencer(pool, commands.appender(), clock::get, quiet, 1,
                commands.lastSequence(), 64) .stampsFrom(commands.lastTimestampMs())
                .refusals(second);
            second.offer(1, 2, 4, "edge");
            after.doWork();
            final long newStamp = JournalRecords.timestampMs(lastRecord(commands), 0);
            assertTrue(newStamp >= lastStamp,
                "stamp went backwards across the restart: " + lastStamp + " then " + newStamp);
        }
    }

    private static DirectBuffer lastRecord(final Journal journal)
    {
        final UnsafeBuffer copy = new UnsafeBuffer(new byte[4096]);
        journal.readLast((buffer, offset, length, index) -> copy.putBytes(0, buffer, offset, length));
        return copy;
    }
}
