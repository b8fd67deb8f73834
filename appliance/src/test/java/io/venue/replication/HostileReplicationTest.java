package io.venue.replication;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.venue.engine.RandomCommands;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.sbe.DepositDecoder;
import io.venue.replication.sbe.HeartbeatDecoder;
import io.venue.replication.sbe.MessageHeaderDecoder;
import io.venue.replication.sbe.MessageHeaderEncoder;
import io.venue.replication.sbe.ResendFromDecoder;
import io.venue.replication.sbe.ResendFromEncoder;
import io.venue.replication.sbe.Role;
import io.venue.sequencer.SequencerListener;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A primary and a standby (one JVM, real Aeron UDP on loopback, real journals) and a third party on the same channels:
 * forged commands, epochs and acknowledgements (no key, or the other direction's), a resend request of an old protocol
 * version (sealed with the right key), and genuine messages replayed are each refused, counted and logged once, and
 * change nothing: the standby's journal, its epoch, the primary's fence, the answers a synchronous primary holds.
 */
class HostileReplicationTest extends ReplicationRig
{
    private static final byte[] OTHER_KEY = "not the pair's key, 32 bytes long".getBytes(StandardCharsets.US_ASCII);


    @Test
    void forgedCommandsAreNotAppended()
    {
        final List<byte[]> records = RandomCommands.generate(41, 10);
        // the set-up's records up to its first operator deposit: credit no key holder granted
        int deposit = 0;
        while (new UnsafeBuffer(records.get(deposit)).getShort(2, JournalRecords.BYTE_ORDER) !=
            DepositDecoder.TEMPLATE_ID)
        {
            deposit++;
        }
        final Journal standbyCommands = journal("standby/commands");
        final StandbyFollower follower = follower(standbyCommands, 0, 1);
        final ReplicationSender forger = sender(context.commandChannel(), context.commandStreamId(),
            new ReplicationSeal(OTHER_KEY, ReplicationSeal.TO_STANDBY));
        // the pair's key, but sealed as the standby's own messages are: a reflected message
        final ReplicationSender reflector = sender(context.commandChannel(), context.commandStreamId(),
            new ReplicationSeal(KEY, ReplicationSeal.TO_PRIMARY));
        runUntil(() -> forger.isConnected() && reflector.isConnected(), follower);
        final int rounds = 100;
        for (int round = 0; round < rounds; round++)
        {
            for (int i = 0; i <= deposit; i++)
            {
                ship(forger, 1, records.get(i));
            }
            follower.doWork();
        }
        ship(reflector, 1, records.get(0));
        final long sent = rounds * (deposit + 1L) + 1;
        runUntil(() -> follower.refusedMessages().total() == sent || follower.lastSequence() > 0, follower);

        assertEquals(0, follower.lastSequence(), "nothing appended");
        assertEquals(0, standbyCommands.lastSequence(), "the standby's journal is empty");
        assertEquals(sent, follower.refusedMessages().count(RefusedMessages.Reason.BAD_MAC));
        assertFalse(follower.hasHeardPrimary(), "a forger is not a primary heard");
        assertEquals(1, follower.refusedMessages().linesLogged(), "a flood is one line");
    }

    @Test
    void aForgedHigherEpochFencesNoPrimaryAndRaisesNoStandby()
    {
        final List<byte[]> records = RandomCommands.generate(43, 100);
        final Journal primaryCommands = journal("primary/commands");
        final JournalAppender primaryOut = primaryCommands.appender();
        final int half = records.size() / 2;
        records.subList(0, half).forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));
        final CommandShipper shipper = shipper(primaryCommands, 1);
        final StandbyFollower follower = follower(journal("standby/commands"), 0, 1);
        runUntil(() -> shipper.ackedSequence() == half, shipper, follower);

        final ReplicationSender toStandby = sender(context.commandChannel(), context.commandStreamId(),
            new ReplicationSeal(OTHER_KEY, ReplicationSeal.TO_STANDBY));
        final ReplicationSender toPrimary = sender(context.replyChannel(), context.replyStreamId(),
            new ReplicationSeal(OTHER_KEY, ReplicationSeal.TO_PRIMARY));
        runUntil(() -> toStandby.isConnected() && toPrimary.isConnected(), shipper, follower);
        toStandby.heartbeat(9, Role.PRIMARY, half + 10, 0);
        ship(toStandby, 9, records.get(half));
        toPrimary.heartbeat(9, Role.PRIMARY, half, 0);
        toPrimary.heartbeat(9, Role.STANDBY, half, 0);
        toPrimary.resendFrom(9, half, 0);
        assertTrue(toPrimary.ack(9, half));
        runUntil(() -> follower.refusedMessages().total() == 2 && shipper.refusedMessages().total() == 4 ||
            shipper.isFenced() || follower.epoch() != 1, shipper, follower);
        assertFalse(shipper.isFenced(), "no key, no fence");
        assertEquals(1, follower.epoch(), "no key, no epoch");
        assertEquals(half, follower.lastSequence());

        // the pair goes on
        records.subList(half, records.size()).forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));
        runUntil(() -> shipper.ackedSequence() == records.size(), shipper, follower);
        assertEquals(1, follower.refusedMessages().linesLogged());
        assertEquals(1, shipper.refusedMessages().linesLogged());
    }

    @Test
    void anEpochPastTheU32RangeIsRefusedEvenWithTheKeyAndTheHighestEpochDoesNotPromote()
    {
        final Journal primaryCommands = journal("primary/commands");
        final JournalAppender primaryOut = primaryCommands.appender();
        RandomCommands.generate(47, 10).forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));
        final CommandShipper shipper = shipper(primaryCommands, 1);
        final StandbyFollower follower = follower(journal("standby/commands"), 0, 1);
        // a key holder's messages naming SBE's null u32, one past the highest epoch a promotion reaches
        final ReplicationSender toStandby = sender(context.commandChannel(), context.commandStreamId(),
            new ReplicationSeal(KEY, ReplicationSeal.TO_STANDBY));
        final ReplicationSender toPrimary = sender(context.replyChannel(), context.replyStreamId(),
            new ReplicationSeal(KEY, ReplicationSeal.TO_PRIMARY));
        runUntil(() -> toStandby.isConnected() && toPrimary.isConnected(), shipper, follower);
        toStandby.heartbeat(StandbyFollower.MAX_EPOCH + 1, Role.PRIMARY, 5, 0);
        toPrimary.heartbeat(StandbyFollower.MAX_EPOCH + 1, Role.STANDBY, 0, 0);
        runUntil(() -> follower.refusedMessages().count(RefusedMessages.Reason.EPOCH_OUT_OF_RANGE) == 1 &&
            shipper.refusedMessages().count(RefusedMessages.Reason.EPOCH_OUT_OF_RANGE) == 1 || follower.epoch() != 1 ||
            shipper.isFenced(), shipper, follower);
        assertEquals(1, follower.epoch());
        assertFalse(shipper.isFenced());

        // a standby already at the highest epoch: epoch + 1 would not fit a record's u32, so it stays a standby
        final StandbyFollower highest = follower(journal("highest/commands"), 0, StandbyFollower.MAX_EPOCH);
        highest.promote();
        highest.doWork();
        highest.doWork();
        assertFalse(highest.isPromoted());
        assertEquals(StandbyFollower.MAX_EPOCH, highest.epoch());
    }

    @Test
    void forgedAcknowledgementsReleaseNoAnswer()
    {
        final List<byte[]> records = RandomCommands.generate(53, 40);
        final Journal primaryCommands = journal("primary/commands");
        final JournalAppender primaryOut = primaryCommands.appender();
        final CommandShipper shipper = shipper(primaryCommands, 1);
        final List<Long> answered = new ArrayList<>();
        final AcknowledgementGate gate = gate(shipper, answered);
        for (int i = 0; i < records.size(); i++)
        {
            final byte[] record = records.get(i);
            gate.onSequenced(7, i, i + 1, primaryOut.append(new UnsafeBuffer(record), 0, record.length));
        }
        // a listener on the command channel, so the primary's link is up and it ships to whoever asks
        final Subscription eavesdropper =
            media.aeron().addSubscription(context.commandChannel(), context.commandStreamId());
        open.add(eavesdropper);
        final Agent drain = agent(() -> eavesdropper.poll((b, o, l, h) -> { }, 64));
        final ReplicationSender forger = sender(context.replyChannel(), context.replyStreamId(),
            new ReplicationSeal(OTHER_KEY, ReplicationSeal.TO_PRIMARY));
        runUntil(forger::isConnected, shipper, gate, drain);
        final long last = records.size();
        final int[] round = {0};
        runUntil(() ->
        {
            if (round[0]++ % 100 == 0)
            {
                forger.resendFrom(1, 0, 0);
                forger.ack(1, last);
                forger.heartbeat(1, Role.STANDBY, last, primaryCommands.recordCrc(last));
            }
            return round[0] > 20_000;
        }, shipper, gate, drain);
        assertEquals(0, shipper.ackedSequence(), "nothing acknowledged");
        assertEquals(List.of(), answered, "no answer released");
        assertEquals(records.size(), gate.held());
        assertTrue(shipper.refusedMessages().count(RefusedMessages.Reason.BAD_MAC) >= 3);
        assertEquals(shipper.refusedMessages().total(),
            shipper.refusedMessages().count(RefusedMessages.Reason.BAD_MAC));
        assertEquals(1, shipper.refusedMessages().linesLogged());

        // the real standby releases them
        final StandbyFollower follower = follower(journal("standby/commands"), 0, 1);
        runUntil(() -> answered.size() == records.size(), shipper, gate, follower, drain);
    }

    @Test
    void aResendRequestOfAnOldProtocolVersionIsRefusedEvenWithTheKey()
    {
        final List<byte[]> records = RandomCommands.generate(59, 300);
        final Journal primaryCommands = journal("primary/commands");
        final JournalAppender primaryOut = primaryCommands.appender();
        final CommandShipper shipper = shipper(primaryCommands, 1);
        final List<Long> answered = new ArrayList<>();
        final AcknowledgementGate gate = gate(shipper, answered);
        final StandbyFollower follower = follower(journal("standby/commands"), 0, 1);
        final int first = 50;
        for (int i = 0; i < records.size(); i++)
        {
            final byte[] record = records.get(i);
            gate.onSequenced(7, i, i + 1, primaryOut.append(new UnsafeBuffer(record), 0, record.length));
            if (i + 1 == first)
            {
                runUntil(() -> shipper.ackedSequence() == first, shipper, gate, follower);
            }
        }
        // the standby stalls: it holds the first 50 (or a poll more); the primary ships the rest into its socket
        final long held = follower.lastSequence();
        final Publication link = media.aeron().addExclusivePublication(context.replyChannel(), context.replyStreamId());
        open.add(link);
        final ReplicationSeal keyHolder = new ReplicationSeal(KEY, ReplicationSeal.TO_PRIMARY);
        final ReplicationSender v3 = new ReplicationSender(link, keyHolder);
        runUntil(link::isConnected, shipper, gate);
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(128);
        final long end = records.size();
        final int[] round = {0};
        runUntil(() ->
        {
            if (round[0]++ % 100 == 0)
            {
                // version 1 had no CRC: the old primary judged such a claim by sequence alone and followed its sender
                final int length = oldResendFrom(buffer, 1, end);
                offer(link, buffer, keyHolder.seal(buffer, length));
                // then acknowledges as the followed standby would, in the current version
                v3.ack(1, end);
            }
            return round[0] > 20_000;
        }, shipper, gate);
        assertEquals(held, shipper.ackedSequence(), "only what the standby holds");
        assertEquals(held, answered.size(), "no answer before the standby holds it");
        assertTrue(shipper.refusedMessages().count(RefusedMessages.Reason.OLD_VERSION) > 0);
        assertEquals(1, shipper.refusedMessages().linesLogged());
    }

    @Test
    void replayedValidMessagesChangeNothing()
    {
        final List<byte[]> records = RandomCommands.generate(61, 300);
        final Journal primaryCommands = journal("primary/commands");
        final JournalAppender primaryOut = primaryCommands.appender();
        final int half = records.size() / 2;
        records.subList(0, half).forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));
        // a third party on both channels keeps copies of what the pair says: the standby's first request (from 0)
        // and the primary's heartbeats
        final Subscription replySpy = media.aeron().addSubscription(context.replyChannel(), context.replyStreamId());
        final Subscription commandSpy =
            media.aeron().addSubscription(context.commandChannel(), context.commandStreamId());
        open.add(replySpy);
        open.add(commandSpy);
        final List<byte[]> requests = new ArrayList<>();
        final List<byte[]> heartbeats = new ArrayList<>();
        final Agent spy =
            agent(() -> replySpy.poll((b, o, l, h) -> keep(b, o, l, ResendFromDecoder.TEMPLATE_ID, requests), 64) +
            commandSpy.poll((b, o, l, h) -> keep(b, o, l, HeartbeatDecoder.TEMPLATE_ID, heartbeats), 64));
        final CommandShipper shipper = shipper(primaryCommands, 1);
        final StandbyFollower follower = follower(journal("standby/commands"), 0, 1);
        runUntil(() -> shipper.ackedSequence() == half && !requests.isEmpty(), shipper, follower, spy);
        clock.advance(TimeUnit.MILLISECONDS.toNanos(20));
        runUntil(() -> !heartbeats.isEmpty(), shipper, follower, spy);

        // replayed, the standby's request from 0 would make the primary follow the replayer and count no more of the
        // standby's acknowledgements
        final Publication toPrimary =
            media.aeron().addExclusivePublication(context.replyChannel(), context.replyStreamId());
        open.add(toPrimary);
        runUntil(toPrimary::isConnected, shipper, follower, spy);
        final ExpandableArrayBuffer copy = new ExpandableArrayBuffer(128);
        final List<byte[]> replayed = List.copyOf(requests);
        for (final byte[] request : replayed)
        {
            copy.putBytes(0, request);
            offer(toPrimary, copy, request.length);
        }
        runUntil(() -> shipper.refusedMessages().total() >= replayed.size(), shipper, follower, spy);
        assertEquals(replayed.size(), shipper.refusedMessages().count(RefusedMessages.Reason.REPLAYED),
            shipper.refusedMessages().toString());
        records.subList(half, records.size()).forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));
        runUntil(() -> shipper.ackedSequence() == records.size(), shipper, follower, spy);
        assertEquals(records.size(), follower.lastSequence());
        assertEquals(1, shipper.refusedMessages().linesLogged());

        // the primary dies; its heartbeats, replayed, would keep the standby from ever taking over
        final Publication toStandby =
            media.aeron().addExclusivePublication(context.commandChannel(), context.commandStreamId());
        open.add(toStandby);
        runUntil(toStandby::isConnected, follower);
        final byte[] heartbeat = heartbeats.get(heartbeats.size() - 1);
        final int[] round = {0};
        runUntil(() ->
        {
            if (round[0]++ % 100 == 0)
            {
                copy.putBytes(0, heartbeat);
                offer(toStandby, copy, heartbeat.length);
                // time moves towards the primary timeout only once a replay was seen and refused, however slow the
                // machine: the promotion must then come while the replays go on
                if (follower.refusedMessages().count(RefusedMessages.Reason.REPLAYED) > 0)
                {
                    clock.advance(TimeUnit.MILLISECONDS.toNanos(1));
                }
            }
            return follower.isPromoted();
        }, follower);
        assertTrue(follower.refusedMessages().count(RefusedMessages.Reason.REPLAYED) > 0);
        assertEquals(2, follower.epoch());
        assertEquals(records.size(), follower.lastSequence(), "the standby's journal unchanged by the replays");
    }

    /** The version-1 ResendFrom (epoch, afterSequence; no CRC), as a build of that version wrote it. */
    private static int oldResendFrom(final ExpandableArrayBuffer buffer, final long epoch, final long afterSequence)
    {
        final MessageHeaderEncoder header = new MessageHeaderEncoder();
        header.wrap(buffer, 0).blockLength(12).templateId(ResendFromEncoder.TEMPLATE_ID)
            .schemaId(ResendFromEncoder.SCHEMA_ID).version(1);
        buffer.putInt(MessageHeaderEncoder.ENCODED_LENGTH, (int)epoch, JournalRecords.BYTE_ORDER);
        buffer.putLong(MessageHeaderEncoder.ENCODED_LENGTH + 4, afterSequence, JournalRecords.BYTE_ORDER);
        return MessageHeaderEncoder.ENCODED_LENGTH + 12;
    }

    private static int keep(final DirectBuffer buffer, final int offset, final int length, final int templateId,
        final List<byte[]> kept)
    {
        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(buffer, offset);
        if (header.templateId() == templateId)
        {
            final byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            kept.add(bytes);
        }
        return 1;
    }

    private AcknowledgementGate gate(final CommandShipper shipper, final List<Long> answered)
    {
        return new AcknowledgementGate(new SequencerListener()
        {
            public void onSequenced(final long connection, final long correlation, final long sequence, final long at)
            {
                answered.add(sequence);
            }

            public void onRejected(final long connection, final long correlation, final long sequence, final long at)
            {
                answered.add(-sequence);
            }
        }, shipper::ackedSequence, ReplicationContext.Mode.SYNC, 100_000);
    }

    private static Agent agent(final IntSupplier work)
    {
        return new Agent()
        {
            public int doWork()
            {
                return work.getAsInt();
            }

            public String roleName()
            {
                return "test agent";
            }
        };
    }

    static void offer(final Publication publication, final DirectBuffer buffer, final int length)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (publication.offer(buffer, 0, length) < 0)
        {
            assertTrue(System.nanoTime() - deadline < 0, "not offered within 20 s");
            Thread.onSpinWait();
        }
    }

    private static void ship(final ReplicationSender sender, final long epoch, final byte[] record)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(record);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!sender.ship(epoch, JournalRecords.sequence(buffer, 0), buffer, 0, record.length))
        {
            assertTrue(System.nanoTime() - deadline < 0, "not shipped within 20 s");
            Thread.onSpinWait();
        }
    }

    private ReplicationSender sender(final String channel, final int streamId, final ReplicationSeal seal)
    {
        final Publication publication = media.aeron().addExclusivePublication(channel, streamId);
        open.add(publication);
        return new ReplicationSender(publication, seal);
    }

}
