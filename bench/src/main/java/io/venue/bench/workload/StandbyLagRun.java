package io.venue.bench.workload;

import io.aeron.Publication;
import io.aeron.Subscription;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.replication.CommandShipper;
import io.venue.replication.ReplicationContext;
import io.venue.replication.ReplicationMedia;
import io.venue.replication.StandbyFollower;
import org.HdrHistogram.Histogram;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What synchronous replication adds to an answer, and how far a standby trails, on one host: a primary thread
 * appends the exchange-core workload's commands to its command journal at a fixed rate and ships them; a
 * standby thread follows over Aeron (IPC, or UDP on loopback) into its own journal and acknowledges. The time
 * from each command's intended append time to the primary hearing the standby hold it is what a client of
 * the synchronous mode waits on top of the journal (HdrHistogram, open loop: a stall counts against every
 * command behind it). The lag is the primary's last sequence minus the standby's, sampled at every send.
 * No engine runs: this is the replication path alone.
 * <p>
 * Usage: {@code StandbyLagRun [commands] [rate,rate,...] [ipc|udp] [spin|yield]}: with {@code yield}, both threads
 * give their core up ({@link Thread#yield}) on every turn that found nothing to do instead of spinning on it, so that
 * the machine's other threads run at once rather than at the end of a scheduler's slice.
 */
public final class StandbyLagRun
{
    private StandbyLagRun()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int commands = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        final long[] rates = Arrays.stream((args.length > 1 ? args[1] : "10000,50000,100000").split(","))
            .mapToLong(Long::parseLong).toArray();
        final boolean udp = args.length > 2 && "udp".equals(args[2]);
        yielding = args.length > 3 && "yield".equals(args[3]);
        final ExchangeCoreWorkload workload = ExchangeCoreWorkload.generate(2_000, commands, 42);
        final byte[][] records = split(workload);
        System.out.printf(Locale.ROOT, "%,d command records, %s, idle threads %s%n", records.length,
            udp ? "UDP on loopback" : "IPC", yielding ? "yield" : "spin");
        for (final long rate : rates)
        {
            run(records, rate, udp, false);
            run(records, rate, udp, true);
        }
    }

    private static void run(final byte[][] records, final long rate, final boolean udp, final boolean report)
        throws Exception
    {
        final Path folder = Files.createTempDirectory("standby-lag");
        final ReplicationContext context = new ReplicationContext()
            .commandChannel(udp ? "aeron:udp?endpoint=127.0.0.1:" + freePort() : "aeron:ipc", 1001)
            .replyChannel(udp ? "aeron:udp?endpoint=127.0.0.1:" + freePort() : "aeron:ipc", 1002)
            .promoteOnPrimaryLoss(false)
            .key(KEY);
        STALLS.reset();
        lastTurn = 0;
        final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        final Histogram appends = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        long maxLag = 0;
        // the driver runs on the standby's thread: two busy threads, not three, on this 2-core machine
        try (ReplicationMedia media = ReplicationMedia.launch(folder.resolve("aeron"), true);
            Journal primaryJournal = Journal.open(folder.resolve("primary"));
            Journal standbyJournal = Journal.open(folder.resolve("standby")))
        {
            final Publication toStandby = media.aeron()
                .addExclusivePublication(context.commandChannel(), context.commandStreamId());
            final Subscription fromPrimary = media.aeron()
                .addSubscription(context.commandChannel(), context.commandStreamId());
            final Publication toPrimary = media.aeron()
                .addExclusivePublication(context.replyChannel(), context.replyStreamId());
            final Subscription replies = media.aeron().addSubscription(context.replyChannel(), context.replyStreamId());
            final CommandShipper shipper = new CommandShipper(primaryJournal, toStandby, replies, context, 1);
            final StandbyFollower follower = new StandbyFollower(standbyJournal, 0, 1, fromPrimary, toPrimary, context);
            final AtomicBoolean running = new AtomicBoolean(true);
            final Thread standby = new Thread(() ->
            {
                while (running.get())
                {
                    if (follower.doWork() + media.invokeDriver() == 0)
                    {
                        idle();
                    }
                }
            }, "standby");
            standby.start();
            // the standby asks where to start; wait until the link is up both ways
            while (!toStandby.isConnected() || !toPrimary.isConnected())
            {
                shipper.doWork();
                Thread.onSpinWait();
            }

            final JournalAppender out = primaryJournal.appender();
            final long[] intended = new long[records.length + 1];
            final double interval = 1e9 / rate;
            long recorded = 0;
            final long begin = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
            for (int i = 0; i < records.length; i++)
            {
                final long sequence = i + 1;
                intended[(int)sequence] = begin + (long)(i * interval);
                while (System.nanoTime() < intended[(int)sequence])
                {
                    final long before = recorded;
                    recorded = drain(shipper, histogram, intended, recorded);
                    if (recorded == before)
                    {
                        idle();
                    }
                }
                final long appendStart = System.nanoTime();
                out.append(new UnsafeBuffer(records[i]), 0, records[i].length);
                appends.recordValue(System.nanoTime() - appendStart);
                maxLag = Math.max(maxLag, sequence - follower.lastSequence());
                recorded = drain(shipper, histogram, intended, recorded);
            }
            while (recorded < records.length)
            {
                recorded = drain(shipper, histogram, intended, recorded);
            }
            running.set(false);
            standby.join();
        }
        finally
        {
            BenchFiles.delete(folder);
        }
        if (report)
        {
            System.out.printf(Locale.ROOT,
                "rate %,d/s: synchronous answer delay p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us; " +
                "standby lag at most %,d commands%n",
                rate, histogram.getValueAtPercentile(50) / 1e3, histogram.getValueAtPercentile(99) / 1e3,
                histogram.getValueAtPercentile(99.9) / 1e3, histogram.getMaxValue() / 1e3, maxLag);
            System.out.printf(Locale.ROOT,
                "  the primary thread off its core (gaps over 50 us in a loop that never blocks): %,d times, " +
                "median %.1f us, max %.1f us, %.1f ms in all%n", STALLS.getTotalCount(),
                STALLS.getValueAtPercentile(50) / 1e3,
                STALLS.getMaxValue() / 1e3, STALLS.getTotalCount() * STALLS.getMean() / 1e6);
            System.out.printf(Locale.ROOT,
                "  the primary's own journal append: p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us%n",
                appends.getValueAtPercentile(50) / 1e3, appends.getValueAtPercentile(99) / 1e3,
                appends.getValueAtPercentile(99.9) / 1e3, appends.getMaxValue() / 1e3);
        }
    }

    private static boolean yielding;

    private static void idle()
    {
        if (yielding)
        {
            Thread.yield();
        }
        else
        {
            Thread.onSpinWait();
        }
    }

    /** Gaps over 50 us between two turns of the primary's loop: the thread was off its core (it never blocks). */
    private static final Histogram STALLS = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
    /** The pair's replication key: any 32 bytes both ends share (the run measures the seal's cost, not its secrecy). */
    private static final byte[] KEY = randomKey();
    private static long lastTurn;

    /** Ships, reads the standby's acknowledgement, and records the delay of every command it now covers. */
    private static long drain(final CommandShipper shipper, final Histogram histogram, final long[] intended,
        final long recorded)
    {
        final long turn = System.nanoTime();
        if (lastTurn != 0 && turn - lastTurn > 50_000)
        {
            STALLS.recordValue(turn - lastTurn);
        }
        lastTurn = turn;
        shipper.doWork();
        final long acked = shipper.ackedSequence();
        long next = recorded;
        if (acked > next)
        {
            final long now = System.nanoTime();
            while (next < acked)
            {
                next++;
                histogram.recordValue(Math.max(0, now - intended[(int)next]));
            }
        }
        return next;
    }

    /** The workload's records with their sequences renumbered from 1 (the set-up commands included). */
    private static byte[][] split(final ExchangeCoreWorkload workload)
    {
        final DirectBuffer all = workload.records();
        final byte[][] records = new byte[workload.commands()][];
        int position = 0;
        for (int i = 0; i < records.length; i++)
        {
            final int length = all.getInt(position);
            records[i] = new byte[length];
            all.getBytes(position + 4, records[i]);
            new UnsafeBuffer(records[i]).putLong(JournalRecords.SEQUENCE_OFFSET, i + 1, JournalRecords.BYTE_ORDER);
            position += 4 + length;
        }
        return records;
    }

    private static int freePort() throws IOException
    {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    private static byte[] randomKey()
    {
        final byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return key;
    }
}
