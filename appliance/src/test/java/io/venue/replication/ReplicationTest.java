package io.venue.replication;

import io.aeron.Publication;
import io.venue.engine.Engine;
import io.venue.engine.JournalEventSink;
import io.venue.engine.RandomCommands;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordCursor;
import io.venue.sequencer.SequencerListener;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A primary and a standby in one JVM, over real Aeron UDP on loopback and real Chronicle journals: the
 * standby's journals end up the primary's byte for byte, synchronous answers wait for the standby, a gap
 * is asked for again, and a standby that loses its primary promotes and fences it.
 */
class ReplicationTest extends ReplicationRig
{
    @Test
    void theStandbyHoldsThePrimarysCommandsAndProducesItsEventsByteForByte()
    {
        final List<byte[]> records = RandomCommands.generate(17, 3_000);
        final Journal primaryCommands = journal("primary/commands");
        final Journal standbyCommands = journal("standby/commands");
        final JournalAppender primaryOut = primaryCommands.appender();
        // half the commands are in the primary's journal before the standby exists: it catches up from nothing
        final int half = records.size() / 2;
        records.subList(0, half).forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));

        final CommandShipper shipper = shipper(primaryCommands, 1);
        final StandbyFollower follower = follower(standbyCommands, 0, 1);
        runUntil(() -> follower.lastSequence() == half, shipper, follower);
        // the rest arrive while both run
        for (int i = half; i < records.size(); i++)
        {
            final byte[] record = records.get(i);
            primaryOut.append(new UnsafeBuffer(record), 0, record.length);
            if (i % 100 == 0)
            {
                shipper.doWork();
                follower.doWork();
            }
        }
        runUntil(() -> shipper.ackedSequence() == records.size(), shipper, follower);
        assertEquals(records.size(), follower.lastSequence());
        assertEquals(records.size(), follower.primarySequence(), "no lag left");

        assertSameRecords(primaryCommands, standbyCommands);
        final Journal primaryEvents = journal("primary/events");
        final Journal standbyEvents = journal("standby/events");
        final byte[] primaryHash = apply(primaryCommands, primaryEvents);
        final byte[] standbyHash = apply(standbyCommands, standbyEvents);
        assertArrayEquals(primaryHash, standbyHash, "same state");
        assertSameRecords(primaryEvents, standbyEvents);
    }

    @Test
    void synchronousAnswersWaitUntilTheStandbyHoldsTheCommand()
    {
        // more notices than the gate's ring starts with, so it grows while holding them in order
        final List<byte[]> records = RandomCommands.generate(3, 1_500);
        final Journal primaryCommands = journal("primary/commands");
        final JournalAppender primaryOut = primaryCommands.appender();
        final CommandShipper shipper = shipper(primaryCommands, 1);
        final List<Long> answered = new ArrayList<>();
        final SequencerListener responder = new SequencerListener()
        {
            public void onSequenced(final long connectionId, final long correlationId, final long sequence,
                final long index)
            {
                answered.add(sequence);
            }

            public void onRejected(final long connectionId, final long correlationId, final long sequence,
                final long index)
            {
                answered.add(-sequence);
            }
        };
        final AcknowledgementGate gate = new AcknowledgementGate(responder, shipper::ackedSequence,
            ReplicationContext.Mode.SYNC, 100);
        for (int i = 0; i < records.size(); i++)
        {
            final byte[] record = records.get(i);
            final long index = primaryOut.append(new UnsafeBuffer(record), 0, record.length);
            // every fifth is a refusal
            if (i % 5 == 4)
            {
                gate.onRejected(7, i, i + 1, index);
            }
            else
            {
                gate.onSequenced(7, i, i + 1, index);
            }
        }
        for (int i = 0; i < 20; i++)
        {
            shipper.doWork();
            gate.doWork();
        }
        assertTrue(answered.isEmpty(), "no standby, no answer: " + answered);
        assertEquals(records.size(), gate.held());
        assertTrue(gate.isFull(), "past its limit the gate asks the sequencer to pause");

        final StandbyFollower follower = follower(journal("standby/commands"), 0, 1);
        runUntil(() -> answered.size() == records.size(), shipper, follower, gate);
        for (int i = 0; i < records.size(); i++)
        {
            assertEquals(i % 5 == 4 ? -(i + 1) : i + 1, answered.get(i), "answers in journal order");
        }
        assertFalse(gate.isFull());

        final List<Long> direct = new ArrayList<>();
        final AcknowledgementGate async = new AcknowledgementGate(new SequencerListener()
        {
            public void onSequenced(final long c, final long r, final long sequence, final long index)
            {
                direct.add(sequence);
            }

            public void onRejected(final long c, final long r, final long sequence, final long index)
            {
                direct.add(sequence);
            }
        }, () -> 0, ReplicationContext.Mode.ASYNC, 10_000);
        async.onSequenced(1, 1, 999, 0);
        assertEquals(List.of(999L), direct, "asynchronous mode answers at once");
    }

    @Test
    void aGapIsAskedForAgainAndACommandOfAnOlderEpochIsRefused()
    {
        final List<byte[]> records = RandomCommands.generate(5, 50);
        final StandbyFollower follower = follower(journal("standby/commands"), 0, 2);
        final Publication toStandby =
            media.aeron().addExclusivePublication(context.commandChannel(), context.commandStreamId());
        open.add(toStandby);
        final ReplicationSender sender =
            new ReplicationSender(toStandby, new ReplicationSeal(KEY, ReplicationSeal.TO_STANDBY));
        runUntil(sender::isConnected, follower);

        ship(sender, 2, records.get(0));
        ship(sender, 2, records.get(2));
        ship(sender, 1, records.get(1));
        runUntil(() -> follower.refusedCommands() == 1, follower);
        assertEquals(1, follower.lastSequence(), "after a gap nothing is appended out of order");
        ship(sender, 2, records.get(1));
        ship(sender, 2, records.get(2));
        runUntil(() -> follower.lastSequence() == 3, follower);
    }

    @Test
    void aStandbyThatLosesItsPrimaryPromotesItselfAndFencesTheOldPrimary()
    {
        final List<byte[]> records = RandomCommands.generate(9, 300);
        final Journal primaryCommands = journal("primary/commands");
        final JournalAppender primaryOut = primaryCommands.appender();
        records.forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));
        final CommandShipper shipper = shipper(primaryCommands, 1);
        final StandbyFollower follower = follower(journal("standby/commands"), 0, 1);
        runUntil(() -> shipper.ackedSequence() == records.size(), shipper, follower);
        assertFalse(follower.isPrimaryLost());

        // the primary goes silent: its duty cycle stops
        clock.advance(TimeUnit.MILLISECONDS.toNanos(150));
        follower.doWork();
        assertFalse(follower.isPromoted(), "not before the timeout");
        clock.advance(TimeUnit.MILLISECONDS.toNanos(100));
        runUntil(follower::isPromoted, follower);
        assertEquals(2, follower.epoch(), "a new epoch");
        assertEquals(records.size(), follower.lastSequence(), "the new primary writes after the last command it holds");

        // the old primary comes back: the new primary's heartbeat fences it
        clock.advance(TimeUnit.MILLISECONDS.toNanos(20));
        runUntil(shipper::isFenced, shipper, follower);
        assertEquals(2, shipper.fencedBy());
    }

    @Test
    void aRestartedPrimaryShipsFromWhereTheStandbyIsWithoutBeingAsked() throws Exception
    {
        final List<byte[]> records = RandomCommands.generate(13, 600);
        final Journal primaryCommands = journal("primary/commands");
        final JournalAppender primaryOut = primaryCommands.appender();
        final int first = records.size() / 2;
        records.subList(0, first).forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));
        final int before = open.size();
        final CommandShipper shipper = shipper(primaryCommands, 1);
        final List<AutoCloseable> firstLinks = List.copyOf(open.subList(before, open.size()));
        final StandbyFollower follower = follower(journal("standby/commands"), 0, 1);
        runUntil(() -> shipper.ackedSequence() == first, shipper, follower);

        // the primary process restarts: a new shipper on the same journal; the standby is in sequence and asks nothing
        for (final AutoCloseable link : firstLinks)
        {
            link.close();
            open.remove(link);
        }
        final CommandShipper restarted = shipper(primaryCommands, 1);
        records.subList(first, records.size()).forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));
        runUntil(() -> restarted.ackedSequence() == records.size(), restarted, follower);
        assertEquals(records.size(), follower.lastSequence());
    }

    @Test
    void aStandbyAheadOfThePrimaryIsFlaggedForGoodAndReleasesNoAnswer()
    {
        final List<byte[]> records = RandomCommands.generate(19, 300);
        final Journal primaryCommands = journal("primary/commands");
        final JournalAppender primaryOut = primaryCommands.appender();
        // the primary lost the tail of its journal; the standby holds all of it
        records.subList(0, 100).forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));
        final Journal standbyCommands = journal("standby/commands");
        final JournalAppender standbyOut = standbyCommands.appender();
        records.forEach(r -> standbyOut.append(new UnsafeBuffer(r), 0, r.length));
        final CommandShipper shipper = shipper(primaryCommands, 1);
        final StandbyFollower follower = follower(standbyCommands, records.size(), 1);
        runUntil(shipper::isStandbyAhead, shipper, follower);
        for (int i = 0; i < 1_000; i++)
        {
            shipper.doWork();
            follower.doWork();
        }
        assertEquals(0, shipper.ackedSequence(), "nothing the standby says counts");

        // the primary takes other commands under the same sequences, and goes past the standby's end: still refused
        RandomCommands.generate(23, 600).subList(100, records.size() + 10)
            .forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));
        final int[] rounds = {0};
        runUntil(() -> ++rounds[0] > 40_000, shipper, follower);
        assertEquals(records.size(), follower.lastSequence(),
            "nothing shipped after the standby's own, different, commands");
        assertEquals(0, shipper.ackedSequence());
        assertTrue(shipper.isStandbyAhead());
    }

    @Test
    void aStandbyInStepWithARestartedPrimaryReportsNoFalseLag()
    {
        final List<byte[]> records = RandomCommands.generate(31, 100);
        final Journal primaryCommands = journal("primary/commands");
        final JournalAppender primaryOut = primaryCommands.appender();
        records.forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));
        final Journal standbyCommands = journal("standby/commands");
        final JournalAppender standbyOut = standbyCommands.appender();
        records.forEach(r -> standbyOut.append(new UnsafeBuffer(r), 0, r.length));
        // a primary just restarted: it has shipped nothing, the standby holds all it journaled
        final CommandShipper shipper = shipper(primaryCommands, 1);
        final StandbyFollower follower = follower(standbyCommands, records.size(), 1);
        runUntil(() -> follower.primarySequence() == records.size(), shipper, follower);
    }

    @Test
    void aStandbyHoldingCommandsTheNewPrimaryNeverHadIsNotFollowedOn()
    {
        final DivergedPair pair = divergedPair();
        final CommandShipper shipper = pair.shipper();
        final StandbyFollower follower = pair.stale();
        final int[] rounds = {0};
        runUntil(() -> ++rounds[0] > 40_000, shipper, follower);
        assertEquals(100, follower.lastSequence(), "nothing of epoch 2 appended after A's own 96..100");
        assertEquals(0, shipper.ackedSequence(), "nothing the standby says counts");

        // rebuilt on an empty folder, as OPERATIONS.md says, it asks from 0 and is followed
        final StandbyFollower rebuilt = follower(journal("a-rebuilt/commands"), 0, 0);
        runUntil(() -> rebuilt.lastSequence() == 200 && shipper.ackedSequence() == 200, shipper, rebuilt);
        assertTrue(!shipper.isStandbyDiverged());
    }

    @Test
    void aDivergedStandbyStillRunningBesideItsRebuiltReplacementCountsForNothing()
    {
        // A keeps running on the same channels while its replacement follows from an empty folder
        final DivergedPair pair = divergedPair();
        final CommandShipper shipper = pair.shipper();
        final StandbyFollower stale = pair.stale();

        final Journal rebuiltCommands = journal("a-rebuilt/commands");
        final StandbyFollower rebuilt = follower(rebuiltCommands, 0, 0);
        // the rebuilt standby stalls once it holds its first poll of commands (64 at most)
        final Agent stallingRebuilt = new Agent()
        {
            public int doWork()
            {
                return rebuilt.lastSequence() == 0 ? rebuilt.doWork() : 0;
            }

            public String roleName()
            {
                return "stalling standby";
            }
        };
        runUntil(() -> rebuilt.lastSequence() > 0 && shipper.shippedSequence() == 200, shipper, stallingRebuilt, stale);
        final long held = rebuilt.lastSequence();
        assertTrue(held < 100, "the stale standby claims more than the followed one holds");
        // the stale one goes on heartbeating and acknowledging (it holds 100 or more) and asking again from its end
        final int[] rounds = {0};
        runUntil(() -> ++rounds[0] > 40_000, shipper, stale);
        assertEquals(held, shipper.ackedSequence(), "only the followed standby's acknowledgements release answers");
        assertFalse(shipper.isStandbyDiverged(), "the followed standby is in step");

        runUntil(() -> rebuilt.lastSequence() == 200 && shipper.ackedSequence() == 200, shipper, rebuilt, stale);
        assertSameRecords(pair.primaryCommands(), rebuiltCommands);
    }

    private record DivergedPair(Journal primaryCommands, CommandShipper shipper, StandbyFollower stale)
    {
    }

    /**
     * B, promoted to epoch 2 after sequence 95, wrote its own 96..200 and ships them; A, the old primary restarted as a
     * standby on its old folder, holds 96..100 of epoch 1, never replicated; returned once B has judged A diverged.
     */
    private DivergedPair divergedPair()
    {
        final List<byte[]> old = RandomCommands.generate(19, 300);
        final List<byte[]> other = RandomCommands.generate(23, 300);
        final Journal primaryCommands = journal("b/commands");
        final JournalAppender primaryOut = primaryCommands.appender();
        old.subList(0, 95).forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));
        other.subList(95, 200).forEach(r -> primaryOut.append(inEpoch(r, 2), 0, r.length));
        final Journal staleCommands = journal("a/commands");
        final JournalAppender staleOut = staleCommands.appender();
        old.subList(0, 100).forEach(r -> staleOut.append(new UnsafeBuffer(r), 0, r.length));
        final DivergedPair pair = new DivergedPair(primaryCommands, shipper(primaryCommands, 2),
            follower(staleCommands, staleCommands.lastSequence(), staleCommands.lastEpoch()));
        runUntil(pair.shipper()::isStandbyDiverged, pair.shipper(), pair.stale());
        return pair;
    }

    /** A copy of the record written in {@code epoch}. */
    private static UnsafeBuffer inEpoch(final byte[] record, final int epoch)
    {
        final UnsafeBuffer copy = new UnsafeBuffer(record.clone());
        copy.putInt(JournalRecords.EPOCH_OFFSET, epoch, JournalRecords.BYTE_ORDER);
        return copy;
    }

    private static void ship(final ReplicationSender sender, final long epoch, final byte[] record)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(record);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!sender.ship(epoch, JournalRecords.sequence(buffer, 0), buffer, 0, record.length))
        {
            assertTrue(System.nanoTime() - deadline < 0, "record " + JournalRecords.sequence(buffer, 0) +
                " could not be shipped within 20 s: the publication stayed unconnected or back-pressured");
            Thread.onSpinWait();
        }
    }

    private static byte[] apply(final Journal commands, final Journal events)
    {
        final Engine engine = new Engine(RandomCommands.config(), new JournalEventSink(events.appender()));
        final JournalTailer tailer = commands.tailer();
        while (tailer.read((buffer, offset, length, index) -> engine.onCommand(buffer, offset, length)))
        {
            // to the end
        }
        return engine.stateHash();
    }

    private static void assertSameRecords(final Journal a, final Journal b)
    {
        final RecordCursor left = new RecordCursor(a.tailer());
        final RecordCursor right = new RecordCursor(b.tailer());
        final byte[][] current = new byte[1][];
        int records = 0;
        while (left.next((buffer, offset, length, index) ->
        {
            current[0] = new byte[length];
            buffer.getBytes(offset, current[0]);
        }))
        {
            final int at = records;
            assertTrue(right.next((buffer, offset, length, index) ->
            {
                final byte[] other = new byte[length];
                buffer.getBytes(offset, other);
                assertArrayEquals(current[0], other, "record " + at);
            }), "the second journal ends at record " + at);
            records++;
        }
        assertFalse(right.next((buffer, offset, length, index) -> { }), "the second journal has more than " + records);
        assertTrue(records > 0);
    }

}
