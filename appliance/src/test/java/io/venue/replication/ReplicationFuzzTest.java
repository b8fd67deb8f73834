package io.venue.replication;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.venue.engine.RandomCommands;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.replication.sbe.MessageHeaderEncoder;
import io.venue.replication.sbe.Role;
import io.venue.testing.RecordFiles;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replication decoders under random and mutated bytes, over real Aeron UDP on loopback: a standby and a primary
 * that are not a pair (each on channels of its own) poll messages offered by a third party. Without the key (random
 * bytes, genuine messages with bytes flipped, cut or added, messages sealed with another key) every message is refused,
 * counted once, and changes nothing; with the key (random bodies under valid headers, sealed) nothing throws out of the
 * poll loop. The seed is printed; {@code -Dvenue.fuzz.seed=N} repeats a run.
 */
class ReplicationFuzzTest
{
    private static final int MESSAGES = 3_000;
    private static final byte[] OTHER_KEY = "another pair's key, 32 bytes long".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path folder;

    private ReplicationMedia media;
    private final List<AutoCloseable> open = new ArrayList<>();
    private ReplicationContext standbySide;
    private ReplicationContext primarySide;

    @BeforeEach
    void setUp() throws IOException
    {
        media = ReplicationMedia.launch(folder.resolve("aeron"));
        standbySide = context();
        primarySide = context();
    }

    @AfterEach
    void tearDown() throws Exception
    {
        for (int i = open.size() - 1; i >= 0; i--)
        {
            open.get(i).close();
        }
        media.close();
    }

    @Test
    void bytesWithoutTheKeyAreRefusedOneByOneAndChangeNothing()
    {
        final long seed = Long.getLong("venue.fuzz.seed", System.nanoTime());
        System.out.println("ReplicationFuzzTest seed " + seed);
        final Random random = new Random(seed);
        final List<byte[]> records = RandomCommands.generate(seed, 50);
        final Journal standbyJournal = journal("standby");
        final StandbyFollower follower = follower(standbyJournal, standbySide);
        final Journal primaryJournal = journal("primary");
        final JournalAppender primaryOut = primaryJournal.appender();
        records.forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));
        final CommandShipper shipper = shipper(primaryJournal, primarySide);
        final Publication toStandby = publication(standbySide.commandChannel(), standbySide.commandStreamId());
        final Publication toPrimary = publication(primarySide.replyChannel(), primarySide.replyStreamId());
        // genuine messages of both directions, to mutate
        final List<byte[]> genuine = genuine(records, ReplicationRig.KEY);
        final List<byte[]> otherKey = genuine(records, OTHER_KEY);
        await(() -> toStandby.isConnected() && toPrimary.isConnected(), follower, shipper);

        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(4096);
        for (int i = 0; i < MESSAGES; i++)
        {
            final int length = hostile(random, genuine, otherKey, buffer);
            HostileReplicationTest.offer(toStandby, buffer, length);
            HostileReplicationTest.offer(toPrimary, buffer, length);
            if (i % 16 == 0)
            {
                follower.doWork();
                shipper.doWork();
            }
        }
        await(() -> follower.refusedMessages().total() == MESSAGES && shipper.refusedMessages().total() == MESSAGES,
            follower, shipper);
        assertEquals(0, follower.lastSequence(), "nothing appended");
        assertEquals(0, standbyJournal.lastSequence());
        assertEquals(1, follower.epoch());
        assertFalse(follower.hasHeardPrimary());
        assertFalse(shipper.isFenced());
        assertEquals(0, shipper.ackedSequence());
        assertEquals(0, shipper.shippedSequence(), "no standby claim taken");
        for (final RefusedMessages refused : List.of(follower.refusedMessages(), shipper.refusedMessages()))
        {
            assertEquals(MESSAGES, refused.count(RefusedMessages.Reason.MALFORMED) +
                refused.count(RefusedMessages.Reason.BAD_MAC) + refused.count(RefusedMessages.Reason.OLD_VERSION),
                "nothing got past the MAC: " + refused);
            assertEquals(1, refused.linesLogged(), "one line, the rest within the second");
        }
    }

    @Test
    void bytesUnderTheKeyNeverThrowOutOfThePollLoop()
    {
        final long seed = Long.getLong("venue.fuzz.seed", System.nanoTime());
        System.out.println("ReplicationFuzzTest seed " + seed);
        final Random random = new Random(seed);
        final List<byte[]> records = RandomCommands.generate(seed, 20);
        final Journal primaryJournal = journal("primary");
        final JournalAppender primaryOut = primaryJournal.appender();
        records.forEach(r -> primaryOut.append(new UnsafeBuffer(r), 0, r.length));
        final StandbyFollower follower = follower(journal("standby"), standbySide);
        final CommandShipper shipper = shipper(primaryJournal, primarySide);
        final Publication toStandby = publication(standbySide.commandChannel(), standbySide.commandStreamId());
        final Publication toPrimary = publication(primarySide.replyChannel(), primarySide.replyStreamId());
        final ReplicationSeal asPrimary = new ReplicationSeal(ReplicationRig.KEY, ReplicationSeal.TO_STANDBY);
        final ReplicationSeal asStandby = new ReplicationSeal(ReplicationRig.KEY, ReplicationSeal.TO_PRIMARY);
        await(() -> toStandby.isConnected() && toPrimary.isConnected(), follower, shipper);
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(4096);
        final MessageHeaderEncoder header = new MessageHeaderEncoder();
        for (int i = 0; i < MESSAGES; i++)
        {
            // a header this build reads (templates 0 to 5, a few versions), any block length, any body
            final int body = random.nextInt(120);
            header.wrap(buffer, 0).blockLength(random.nextInt(40)).templateId(random.nextInt(6))
                .schemaId(MessageHeaderEncoder.SCHEMA_ID).version(3 + random.nextInt(2));
            for (int b = 0; b < body; b++)
            {
                buffer.putByte(MessageHeaderEncoder.ENCODED_LENGTH + b, (byte)random.nextInt());
            }
            final int length = MessageHeaderEncoder.ENCODED_LENGTH + body;
            final byte[] plain = new byte[length];
            buffer.getBytes(0, plain);
            HostileReplicationTest.offer(toStandby, buffer, asPrimary.seal(buffer, length));
            buffer.putBytes(0, plain);
            HostileReplicationTest.offer(toPrimary, buffer, asStandby.seal(buffer, length));
            if (i % 16 == 0)
            {
                follower.doWork();
                shipper.doWork();
            }
        }
        // every message read (or refused) without an exception out of doWork
        final int[] rounds = {0};
        await(() -> ++rounds[0] > 20_000, follower, shipper);
        assertTrue(follower.refusedMessages().total() + shipper.refusedMessages().total() > 0, "some were refused");
    }

    /** One hostile message in {@code buffer}; returns its length. */
    private static int hostile(final Random random, final List<byte[]> genuine, final List<byte[]> otherKey,
        final ExpandableArrayBuffer buffer)
    {
        final int kind = random.nextInt(4);
        if (kind == 0)
        {
            final int length = random.nextInt(200);
            for (int i = 0; i < length; i++)
            {
                buffer.putByte(i, (byte)random.nextInt());
            }
            return length;
        }
        if (kind == 1)
        {
            final byte[] message = otherKey.get(random.nextInt(otherKey.size()));
            buffer.putBytes(0, message);
            return message.length;
        }
        final byte[] message = genuine.get(random.nextInt(genuine.size()));
        buffer.putBytes(0, message);
        if (kind == 2)
        {
            // one to three bytes changed
            final int flips = 1 + random.nextInt(3);
            for (int i = 0; i < flips; i++)
            {
                final int at = random.nextInt(message.length);
                buffer.putByte(at, (byte)(buffer.getByte(at) ^ (1 + random.nextInt(255))));
            }
            return message.length;
        }
        // cut short, or with bytes added
        if (random.nextBoolean())
        {
            return random.nextInt(message.length);
        }
        final int added = 1 + random.nextInt(40);
        for (int i = 0; i < added; i++)
        {
            buffer.putByte(message.length + i, (byte)random.nextInt());
        }
        return message.length + added;
    }

    /** Sealed messages of every kind, for the standby and for the primary: what a genuine peer could send. */
    private List<byte[]> genuine(final List<byte[]> records, final byte[] key)
    {
        // sent for real, over IPC, and kept as they arrive
        final Publication link = publication("aeron:ipc", 9_001);
        final Subscription recorder = media.aeron().addSubscription("aeron:ipc", 9_001);
        open.add(recorder);
        await(link::isConnected);
        final ReplicationSender primary =
            new ReplicationSender(link, new ReplicationSeal(key, ReplicationSeal.TO_STANDBY));
        final ReplicationSender standby =
            new ReplicationSender(link, new ReplicationSeal(key, ReplicationSeal.TO_PRIMARY));
        int sent = 0;
        for (final byte[] record : records.subList(0, 10))
        {
            final UnsafeBuffer view = new UnsafeBuffer(record);
            assertTrue(primary.ship(2, JournalRecords.sequence(view, 0), view, 0, record.length));
            sent++;
        }
        primary.heartbeat(5, Role.PRIMARY, 40, 0);
        standby.heartbeat(5, Role.STANDBY, 10, 0);
        standby.heartbeat(5, Role.PRIMARY, 10, 0);
        assertTrue(standby.ack(5, 40));
        standby.resendFrom(5, 0, 0);
        sent += 5;
        final List<byte[]> messages = new ArrayList<>();
        final int expected = sent;
        await(() ->
        {
            recorder.poll((buffer, offset, length, header) ->
            {
                final byte[] bytes = new byte[length];
                buffer.getBytes(offset, bytes);
                messages.add(bytes);
            }, 64);
            return messages.size() == expected;
        });
        return messages;
    }

    private ReplicationContext context() throws IOException
    {
        return new ReplicationContext()
            .commandChannel("aeron:udp?endpoint=127.0.0.1:" + RecordFiles.freeUdpPort(), 1001)
            .replyChannel("aeron:udp?endpoint=127.0.0.1:" + RecordFiles.freeUdpPort(), 1002)
            .heartbeatInterval(10, TimeUnit.MILLISECONDS)
            .primaryTimeout(10, TimeUnit.SECONDS)
            .promoteOnPrimaryLoss(false)
            // time stands still: the refusal log's second never passes, so the run logs one line a side
            .clock(() -> 0L)
            .key(ReplicationRig.KEY);
    }

    private StandbyFollower follower(final Journal commands, final ReplicationContext context)
    {
        final Subscription fromPrimary =
            media.aeron().addSubscription(context.commandChannel(), context.commandStreamId());
        final Publication toPrimary = publication(context.replyChannel(), context.replyStreamId());
        open.add(fromPrimary);
        return new StandbyFollower(commands, 0, 1, fromPrimary, toPrimary, context);
    }

    private CommandShipper shipper(final Journal commands, final ReplicationContext context)
    {
        final Publication toStandby = publication(context.commandChannel(), context.commandStreamId());
        final Subscription replies = media.aeron().addSubscription(context.replyChannel(), context.replyStreamId());
        open.add(replies);
        return new CommandShipper(commands, toStandby, replies, context, 1);
    }

    private Publication publication(final String channel, final int streamId)
    {
        final Publication publication = media.aeron().addExclusivePublication(channel, streamId);
        open.add(publication);
        return publication;
    }

    private Journal journal(final String name)
    {
        final Journal journal = Journal.open(folder.resolve(name));
        open.add(journal);
        return journal;
    }

    private static void await(final BooleanSupplier condition, final Agent... agents)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() < deadline, "the condition did not hold within 30 s");
            for (final Agent agent : agents)
            {
                try
                {
                    agent.doWork();
                }
                catch (final Exception ex)
                {
                    throw new AssertionError(ex);
                }
            }
            Thread.yield();
        }
    }
}
