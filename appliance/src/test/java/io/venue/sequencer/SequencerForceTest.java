package io.venue.sequencer;

import io.venue.action.Address;
import io.venue.entry.PreJournalRefusals;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.queue.JournalForce;
import io.venue.verifier.VerifierPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With {@code journal.force=group} no record is told (the moment its client may be answered) before a force covering
 * it returned, and a group of records costs one force; the real sequencer over a real journal in a temporary folder.
 */
class SequencerForceTest
{
    private static final int BATCH = 64;

    @TempDir
    Path folder;

    @Test
    void everyRecordIsToldOnlyAfterAForceCoveringItReturned() throws Exception
    {
        try (Journal commands = Journal.open(folder.resolve("commands"));
            VerifierPool pool = VerifierPool.start(new VerifierPool.Context().threads(1).chainId(8453)
                .verifyingContract(Address.of("0x" + "5e".repeat(20)))))
        {
            final JournalAppender appender = commands.appender();
            final Checking listener = new Checking(appender);
            final PreJournalRefusals refusals = new PreJournalRefusals(1 << 20);
            final Sequencer sequencer = new Sequencer(pool, appender, () -> 1_000L, listener, 1, 0, BATCH)
                .refusals(refusals).forces(JournalForce.GROUP);
            int groups = 0;
            int offered = 0;
            for (int round = 1; round <= 20; round++)
            {
                // groups of 1 to 20 records; each duty cycle takes at most BATCH
                for (int i = 0; i < round; i++)
                {
                    refusals.offer(1, ++offered, 4, "edge");
                }
                assertEquals(round, sequencer.doWork());
                groups++;
            }
            assertEquals(List.of(), listener.early, "told before a force covered them");
            assertEquals(offered, listener.told);
            assertEquals(groups, appender.forces(), "one force per group, not per record");
            assertEquals(offered, appender.forcedSequence());
            assertEquals(offered, commands.lastSequence());
        }
    }

    @Test
    void withoutTheModeNothingIsForced() throws Exception
    {
        try (Journal commands = Journal.open(folder.resolve("commands"));
            VerifierPool pool = VerifierPool.start(new VerifierPool.Context().threads(1).chainId(8453)
                .verifyingContract(Address.of("0x" + "5e".repeat(20)))))
        {
            final JournalAppender appender = commands.appender();
            final Checking listener = new Checking(appender);
            final PreJournalRefusals refusals = new PreJournalRefusals(1 << 16);
            final Sequencer sequencer = new Sequencer(pool, appender, () -> 1_000L, listener, 1, 0, BATCH)
                .refusals(refusals);
            refusals.offer(1, 1, 4, "edge");
            refusals.offer(1, 2, 4, "edge");
            sequencer.doWork();
            assertEquals(0, appender.forces());
            // the check the forced mode passes is a real one: here both records were told unforced
            assertEquals(List.of(1L, 2L), listener.early);
            assertTrue(listener.told == 2);
        }
    }

    /** Notes every record told while the journal's last force did not cover its sequence. */
    private static final class Checking implements SequencerListener
    {
        private final JournalAppender appender;
        private final List<Long> early = new ArrayList<>();
        private int told;

        Checking(final JournalAppender appender)
        {
            this.appender = appender;
        }

        @Override
        public void onSequenced(final long connection, final long correlation, final long sequence, final long index)
        {
            check(sequence);
        }

        @Override
        public void onRejected(final long connection, final long correlation, final long sequence, final long index)
        {
            check(sequence);
        }

        private void check(final long sequence)
        {
            told++;
            if (sequence > appender.forcedSequence())
            {
                early.add(sequence);
            }
        }
    }
}
