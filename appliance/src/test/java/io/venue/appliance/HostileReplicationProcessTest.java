package io.venue.appliance;

import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.protocol.DataHeaderFlyweight;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.sbe.DepositDecoder;
import io.venue.replication.ForgedLink;
import io.venue.replication.ReplicationMedia;
import io.venue.replication.sbe.HeartbeatDecoder;
import io.venue.replication.sbe.MessageHeaderDecoder;
import io.venue.replication.sbe.ReplicaAckDecoder;
import io.venue.replication.sbe.ResendFromDecoder;
import io.venue.replication.sbe.ShipCommandDecoder;
import io.venue.testing.ChildJvm;
import io.venue.testing.RecordFiles;
import io.venue.testing.UdpRelay;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23's hostile link on real processes: a synchronous primary and its standby run as two appliance processes
 * over UDP on loopback, and this JVM is a third host on their channels, without the pair's key. It sits on the path
 * (a {@link UdpRelay} each way, keeping copies of the pair's genuine messages) and publishes with Aeron of its own
 * straight to each node's port: forged commands (the set-up's operator deposit, at the standby's next sequence), a
 * forged higher epoch both ways, forged acknowledgements while the standby is stopped, and genuine messages replayed.
 * Each is refused, counted by reason in the node's {@code replication:} report and logged with the attacker's Aeron
 * session; nothing changes: the standby's command journal is the primary's record for record, neither node leaves
 * epoch 1, the primary is not fenced and answers, and a held synchronous answer waits for the real standby.
 */
class HostileReplicationProcessTest
{
    private static final int MAX_KEPT = 16;
    private static final int STARTUP_SECONDS = 180;

    @TempDir
    Path folder;

    private final List<AutoCloseable> open = new ArrayList<>();
    /** Genuine messages seen on the path, by template: what the primary ships, what the standby replies. */
    private final Map<Integer, List<byte[]>> toStandbySeen = new ConcurrentHashMap<>();
    private final Map<Integer, List<byte[]>> toPrimarySeen = new ConcurrentHashMap<>();

    @AfterEach
    void stop() throws Exception
    {
        ChildJvm.stopAll();
        for (int i = open.size() - 1; i >= 0; i--)
        {
            CloseHelper.quietClose(open.get(i));
        }
    }

    @Test
    void forgedAndReplayedMessagesAreRefusedAndChangeNothing() throws Exception
    {
        final int shipRelayPort = RecordFiles.freeUdpPort();
        final int replyRelayPort = RecordFiles.freeUdpPort();
        final AppliancePair pair = AppliancePair.relayed(folder, shipRelayPort, replyRelayPort);
        open.add(UdpRelay.start(shipRelayPort, pair.standbyPort, d -> keep(d, toStandbySeen)));
        open.add(UdpRelay.start(replyRelayPort, pair.primaryPort, d -> keep(d, toPrimarySeen)));
        final ChildJvm standby = pair.startStandby();
        final ChildJvm primary = pair.startPrimary();
        // generous: on a loaded machine a node's start (its Chronicle maps, the primary's listening) takes long
        standby.awaitLine("venue appliance is a standby", STARTUP_SECONDS);
        final String serving = "venue appliance serving on ";
        final VenueHttp toPrimary =
            new VenueHttp(primary.awaitLine(serving, STARTUP_SECONDS).substring(serving.length()));
        final Secp256k1KeyPair demo = pair.demoAccount();
        long nonce = 0;
        for (int i = 0; i < 5; i++)
        {
            answered(toPrimary.submit(demo, ++nonce, bid(nonce)));
        }

        // the attacker: an Aeron of its own, a key that is not the pair's, straight to each node's port
        final ReplicationMedia media = ReplicationMedia.launch(folder.resolve("attacker-aeron"));
        open.add(media);
        final byte[] wrongKey = new byte[32];
        new SecureRandom().nextBytes(wrongKey);
        final ForgedLink forgedToStandby = ForgedLink.toStandby(media.aeron(),
            "aeron:udp?endpoint=127.0.0.1:" + pair.standbyPort, Roles.COMMAND_STREAM_ID, wrongKey);
        final ForgedLink forgedToPrimary = ForgedLink.toPrimary(media.aeron(),
            "aeron:udp?endpoint=127.0.0.1:" + pair.primaryPort, Roles.REPLY_STREAM_ID, wrongKey);
        open.add(forgedToStandby);
        open.add(forgedToPrimary);
        awaitTrue(() -> forgedToStandby.isConnected() && forgedToPrimary.isConnected(), "the attacker's links");

        // 1. forged commands: the set-up's operator deposit at the standby's next sequences (the primary is idle, the
        // standby holds all it journaled), so a standby that took them would append them
        final long last = AppliancePair.journaled(pair.primaryData);
        AppliancePair.awaitJournaled(pair.standbyData, last);
        final byte[] deposit = firstDeposit(pair.primaryData);
        for (long sequence = last + 1; sequence <= last + 3; sequence++)
        {
            forgedToStandby.ship(1, command(deposit, sequence, 1));
        }

        // 2. a forged higher epoch, both ways: a standby that took it would adopt it (and its acks would fence the
        // primary); a primary that took it would be fenced
        forgedToStandby.heartbeat(9, true, last + 10, 0);
        forgedToStandby.ship(9, command(deposit, last + 1, 9));
        forgedToPrimary.heartbeat(9, false, last, 0);
        forgedToPrimary.heartbeat(9, true, last, 0);
        forgedToPrimary.resendFrom(9, last, 0);
        forgedToPrimary.ack(9, last);
        awaitRefused(standby, "standby", "bad MAC 5");
        awaitRefused(primary, "primary", "bad MAC 4");

        // 3. forged acknowledgements: with the standby stopped, an order is journaled and its answer held; acks,
        // heartbeats and a request claiming the standby holds it arrive from the attacker
        AppliancePair.signal(standby, "STOP");
        final long orderNonce = ++nonce;
        final CompletableFuture<HttpResponse<String>> held = toPrimary.postAsync("/api/v1/trading/actions",
            VenueHttp.body(demo, demo.address(), orderNonce, bid(orderNonce), PreimageMode.RAW));
        AppliancePair.awaitJournaled(pair.primaryData, last + 1);
        final long journaled = AppliancePair.journaled(pair.primaryData);
        final long crc;
        try (Journal commands = Journal.openReadOnly(pair.primaryData.resolve("journal").resolve("commands")))
        {
            crc = commands.recordCrc(journaled);
        }
        pastLogInterval();
        forgedToPrimary.ack(1, journaled);
        forgedToPrimary.heartbeat(1, false, journaled, crc);
        forgedToPrimary.resendFrom(1, 0, 0);
        // the report line that counts them says what the primary's shipper holds acknowledged, and the answers held
        final String counted = awaitRefused(primary, "primary", "bad MAC 7");
        final long acknowledged = Long.parseLong(between(counted, "standby holds ", " "));
        assertTrue(acknowledged < journaled, "the forged acks counted: " + counted);
        assertTrue(Long.parseLong(between(counted, "answers held ", ";")) >= 1, counted);
        assertFalse(held.isDone(), "answered before the standby holds it");
        AppliancePair.signal(standby, "CONT");
        answered(held.get(30, TimeUnit.SECONDS));

        // 4. replays: genuine messages each node already took, captured on the path, sent again from the attacker's
        // links. The standby's first resend request, taken again, would have the primary follow the replayer and
        // count none of the real standby's acknowledgements: the answers below would never come
        final List<byte[]> toStandbyReplays = List.of(
            first(toStandbySeen, ShipCommandDecoder.TEMPLATE_ID), first(toStandbySeen, HeartbeatDecoder.TEMPLATE_ID));
        final List<byte[]> toPrimaryReplays = List.of(first(toPrimarySeen, ResendFromDecoder.TEMPLATE_ID),
            first(toPrimarySeen, ReplicaAckDecoder.TEMPLATE_ID), first(toPrimarySeen, HeartbeatDecoder.TEMPLATE_ID));
        pastLogInterval();
        toStandbyReplays.forEach(forgedToStandby::replay);
        toPrimaryReplays.forEach(forgedToPrimary::replay);
        awaitRefused(standby, "standby", "bad MAC 5, replayed 2");
        awaitRefused(primary, "primary", "bad MAC 7, replayed 3");

        // the primary is not fenced: it answers, synchronously, once the real standby holds each order
        for (int i = 0; i < 3; i++)
        {
            answered(toPrimary.submit(demo, ++nonce, bid(nonce)));
        }
        final long end = AppliancePair.journaled(pair.primaryData);
        AppliancePair.awaitJournaled(pair.standbyData, end);
        assertTrue(end > journaled, "the orders after the attacks were journaled");

        // each refusal logged, naming the attacker's session and why
        assertLogged(standby, "standby", forgedToStandby.sessionId(), "bad MAC");
        assertLogged(standby, "standby", forgedToStandby.sessionId(), "replayed");
        assertLogged(primary, "primary", forgedToPrimary.sessionId(), "bad MAC");
        assertLogged(primary, "primary", forgedToPrimary.sessionId(), "replayed");
        assertEquals(2, refusalLines(primary, "primary", forgedToPrimary.sessionId(), "bad MAC"),
            "the forged epoch and the forged acknowledgements, more than a second apart: a line each");

        // nothing changed: both nodes at epoch 1, nothing fenced or promoted, and the standby's journal is the
        // primary's record for record (no forged deposit in it)
        final String primaryReport = awaitRefused(primary, "primary", "bad MAC 7, replayed 3");
        assertTrue(primaryReport.startsWith("replication: primary epoch 1,"), primaryReport);
        final String standbyReport = awaitReport(standby, "standby",
            l -> l.startsWith("replication: standby epoch 1, holds " + end + " ") &&
            l.endsWith("; refused messages: bad MAC 5, replayed 2"), "epoch 1, holding " + end);
        assertFalse(standbyReport.contains("promoted"), standbyReport);
        for (final ChildJvm node : List.of(primary, standby))
        {
            assertTrue(node.lines.stream().noneMatch(l -> l.contains("fenced") || l.contains("REBUILD") ||
                l.contains("rebuild it")), String.join("\n", node.lines));
            assertTrue(node.process.isAlive());
        }
        final List<byte[]> primaryCommands = AppliancePair.commands(pair.primaryData);
        final List<byte[]> standbyCommands = AppliancePair.commands(pair.standbyData);
        assertEquals(end, primaryCommands.size());
        assertEquals(primaryCommands.size(), standbyCommands.size());
        for (int i = 0; i < primaryCommands.size(); i++)
        {
            assertTrue(Arrays.equals(primaryCommands.get(i), standbyCommands.get(i)),
                "command " + (i + 1) + " differs");
        }
    }

    /** Keeps the replication messages of a datagram the pair sent (Aeron data frames, each message unfragmented). */
    private static void keep(final byte[] datagram, final Map<Integer, List<byte[]>> seen)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(datagram);
        final DataHeaderFlyweight frame = new DataHeaderFlyweight();
        int offset = 0;
        while (offset + DataHeaderFlyweight.HEADER_LENGTH <= datagram.length)
        {
            frame.wrap(buffer, offset, datagram.length - offset);
            final int length = frame.frameLength();
            if (frame.headerType() != DataHeaderFlyweight.HDR_TYPE_DATA || length <= DataHeaderFlyweight.HEADER_LENGTH)
            {
                // a status message, a setup or Aeron's own heartbeat: no message of the pair's
                return;
            }
            if ((frame.flags() & DataHeaderFlyweight.BEGIN_AND_END_FLAGS) == DataHeaderFlyweight.BEGIN_AND_END_FLAGS)
            {
                final byte[] message = Arrays.copyOfRange(datagram, offset + DataHeaderFlyweight.HEADER_LENGTH,
                    offset + length);
                final int template = new MessageHeaderDecoder().wrap(new UnsafeBuffer(message), 0).templateId();
                final List<byte[]> kept = seen.computeIfAbsent(template, t -> new CopyOnWriteArrayList<>());
                if (kept.size() < MAX_KEPT)
                {
                    kept.add(message);
                }
            }
            offset += (length + FrameDescriptor.FRAME_ALIGNMENT - 1) & -FrameDescriptor.FRAME_ALIGNMENT;
        }
    }

    private static byte[] first(final Map<Integer, List<byte[]>> seen, final int template)
    {
        final List<byte[]> kept = seen.get(template);
        assertTrue(kept != null && !kept.isEmpty(), "no message of template " + template + " seen on the path");
        return kept.get(0);
    }

    /** The first operator deposit of the node's set-up, as journaled. */
    private static byte[] firstDeposit(final Path data)
    {
        return AppliancePair.commands(data).stream()
            .filter(r -> new UnsafeBuffer(r).getShort(2, JournalRecords.BYTE_ORDER) == DepositDecoder.TEMPLATE_ID)
            .findFirst().orElseThrow();
    }

    /** {@code record} renumbered as the command at {@code sequence} of {@code epoch}. */
    private static byte[] command(final byte[] record, final long sequence, final long epoch)
    {
        final byte[] copy = record.clone();
        final UnsafeBuffer buffer = new UnsafeBuffer(copy);
        buffer.putLong(JournalRecords.SEQUENCE_OFFSET, sequence, JournalRecords.BYTE_ORDER);
        buffer.putInt(JournalRecords.EPOCH_OFFSET, (int)epoch, JournalRecords.BYTE_ORDER);
        return copy;
    }

    /** The node's latest {@code replication:} report line, once its refused messages are exactly {@code expected}. */
    private static String awaitRefused(final ChildJvm node, final String side, final String expected)
        throws InterruptedException
    {
        return awaitReport(node, side, l -> l.endsWith("; refused messages: " + expected),
            "refused messages: " + expected);
    }

    /** The node's latest {@code replication:} report line, once it matches; fails with it if none does within 20 s. */
    private static String awaitReport(final ChildJvm node, final String side, final Predicate<String> matches,
        final String what) throws InterruptedException
    {
        final String prefix = "replication: " + side + " epoch ";
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String lastReport = null;
        while (System.nanoTime() < deadline)
        {
            for (int i = node.lines.size() - 1; i >= 0; i--)
            {
                final String line = ChildJvm.message(node.lines.get(i));
                if (line.startsWith(prefix))
                {
                    lastReport = line;
                    break;
                }
            }
            if (lastReport != null && matches.test(lastReport))
            {
                return lastReport;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the " + side + " did not report " + what + "; last report: " + lastReport);
    }

    private static void assertLogged(final ChildJvm node, final String side, final int session, final String reason)
    {
        assertTrue(refusalLines(node, side, session, reason) > 0,
            "no line of the " + side + " refusing session " + session + " (" + reason + "): " + node.lines);
    }

    private static long refusalLines(final ChildJvm node, final String side, final int session, final String reason)
    {
        final String text = "replication: the " + side + " refused a message from Aeron session " + session +
            " (" + reason + ")";
        return node.lines.stream().filter(l -> l.contains(text)).count();
    }

    /** Refusals are logged at most once a second: waits that long, so the next attack gets a line of its own. */
    private static void pastLogInterval() throws InterruptedException
    {
        Thread.sleep(1_100);
    }

    private static void answered(final HttpResponse<String> answer)
    {
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().startsWith("{\"ok\":true"), answer.body());
    }

    private static String between(final String text, final String before, final String after)
    {
        final int start = text.indexOf(before) + before.length();
        return text.substring(start, text.indexOf(after, start));
    }

    private static void awaitTrue(final BooleanSupplier condition, final String what)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() < deadline, what + " within 20 s");
            Thread.sleep(10);
        }
    }

    private static SpotPlaceOrder bid(final long nonce)
    {
        return new SpotPlaceOrder(DemoVenue.SPOT_MARKET, null, Side.BID, (40_000 + nonce) * DemoVenue.UNIT, 10_000,
            null, TimeInForce.GTC, false, false, -1);
    }
}
