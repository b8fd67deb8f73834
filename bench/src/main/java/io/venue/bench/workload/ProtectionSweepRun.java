package io.venue.bench.workload;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.engine.Engine;
import io.venue.engine.EngineAgent;
import io.venue.engine.EngineConfig;
import io.venue.engine.JournalEventSink;
import io.venue.entry.protect.ProtectionCommands;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.SignerMatch;
import io.venue.sequencer.ActionCommandEncoder;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BusySpinIdleStrategy;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The time from a protection's trigger to the last covered order's cancel in the event journal, for one account's
 * {@code orders} resting orders (10,000 by default): the appliance's shape, a command journal tailed by an
 * {@link EngineAgent} on a thread of its own that journals the events. Two triggers, each timed from the moment the
 * trigger's command excerpt is appended until the agent publishes its sequence as applied (after the batch's events
 * are written to the event journal):
 * <ul>
 *   <li>disconnect: a SessionClosed of the account's cancel-on-disconnect session (grace 0) and the ProtectionTick
 *   stamped with it, as the sequencer journals them once the grace is over;</li>
 *   <li>dead-man: the ProtectionTick stamped at the deadline of a timer armed before.</li>
 * </ul>
 * The sequencer's part (it journals the tick on its next duty cycle once its clock reaches the deadline the engine
 * published) is not in the figure. Usage: {@code ProtectionSweepRun [orders] [runs] [folder]}; the folder (a temporary
 * one by default) gets a pair of journals per run, deleted after it.
 */
public final class ProtectionSweepRun
{
    private static final Address OPERATOR = Address.of("0x00000000000000000000000000000000000000ff");
    private static final Address TRADER = Address.of("0x" + "a1".repeat(20));
    private static final long USD = 1;
    private static final long BTC = 2;
    private static final long MARKET = 7;
    private static final long T0 = 1_763_000_000_000L;
    private static final int WARMUP_RUNS = 3;
    /** Orders a price level holds here, so that 10,000 fit the default 1,000 levels of a side. */
    private static final int ORDERS_PER_LEVEL = 10;

    private final ActionCommandEncoder encoder = new ActionCommandEncoder();
    private final ProtectionCommands protections = new ProtectionCommands();
    private final ExpandableArrayBuffer record = new ExpandableArrayBuffer(1024);
    private final byte[] digest = new byte[32];
    private final byte[] zeros = new byte[20];
    private long sequence;
    private long nonce;
    private long operatorNonce;

    private ProtectionSweepRun()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int orders = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        final int runs = args.length > 1 ? Integer.parseInt(args[1]) : 11;
        final Path root = args.length > 2 && !args[2].isEmpty() ? Path.of(args[2]) :
            Files.createTempDirectory("protection-sweep");
        final double[] disconnect = new double[runs];
        final double[] deadMan = new double[runs];
        for (int run = -WARMUP_RUNS; run < runs; run++)
        {
            final Path folder = root.resolve("run" + (run + WARMUP_RUNS));
            final double d = new ProtectionSweepRun().sweep(folder.resolve("disconnect"), orders, false);
            final double m = new ProtectionSweepRun().sweep(folder.resolve("dead-man"), orders, true);
            BenchFiles.delete(folder);
            System.out.printf(Locale.ROOT, "%s %d: disconnect to last cancel journaled %.2f ms, dead-man %.2f ms%n",
                run < 0 ? "warm-up" : "run", run < 0 ? run + WARMUP_RUNS + 1 : run + 1, d, m);
            if (run >= 0)
            {
                disconnect[run] = d;
                deadMan[run] = m;
            }
        }
        System.out.printf(Locale.ROOT, "%,d resting orders: disconnect %s ms, dead-man %s ms (median, min-max of %d)%n",
            orders, range(disconnect), range(deadMan), runs);
    }

    /** One run: the orders rested, then the trigger timed; milliseconds to the last cancel journaled. */
    private double sweep(final Path folder, final int orders, final boolean deadMan) throws IOException
    {
        final EngineConfig config = new EngineConfig().operator(OPERATOR).maxOpenOrdersPerAccountAndMarket(2 * orders)
            .maxOpenOrdersPerAccount(2 * orders);
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events")))
        {
            final JournalAppender out = commands.appender();
            final Engine engine = new Engine(config, JournalEventSink.heldUntilFlush(events.appender()));
            final EngineAgent agent = new EngineAgent(engine, commands.tailer(), 64);
            final AgentRunner runner = new AgentRunner(new BusySpinIdleStrategy(), Throwable::printStackTrace, null,
                agent);
            AgentRunner.startOnThread(runner);
            try
            {
                long now = T0;
                admin(out, now, new CreateAsset(USD, "USD"));
                admin(out, now, new CreateAsset(BTC, "BTC"));
                admin(out, now, new CreateSpotMarket(MARKET, BTC, USD, 100, 1000, 1000));
                admin(out, now, new Deposit(TRADER, USD, 1_000_000_000_000_000L));
                out.commit();
                if (!deadMan)
                {
                    stage(out, protections.sessionOpened(record, 0, 1, TRADER.toBytes(), 0x0123_4567_89ab_cdefL,
                        false, true, 0), now);
                    out.commit();
                }
                for (int i = 0; i < orders; i++)
                {
                    final long price = 1_000_000 + 100L * (i / ORDERS_PER_LEVEL);
                    place(out, now, new SpotPlaceOrder(MARKET, null, Side.BID, price, 1_000, null, TimeInForce.GTC,
                        false, false, SpotPlaceOrder.NO_EXPIRY));
                    if (i % 64 == 63)
                    {
                        out.commit();
                    }
                }
                out.commit();
                if (deadMan)
                {
                    stage(out, protections.deadManArm(record, 0, TRADER.toBytes(), ProtectionCommands.ALL_MARKETS,
                        1_000), now);
                    out.commit();
                }
                awaitApplied(agent, sequence);
                if (engine.openOrders() != orders)
                {
                    throw new IllegalStateException(engine.openOrders() + " orders rest, not " + orders);
                }

                final long begin = System.nanoTime();
                if (deadMan)
                {
                    now += 1_000;
                }
                else
                {
                    stage(out, protections.sessionClosed(record, 0, 1), now);
                }
                stage(out, protections.tick(record, 0), now);
                out.commit();
                awaitApplied(agent, sequence);
                final long elapsed = System.nanoTime() - begin;
                if (engine.openOrders() != 0)
                {
                    throw new IllegalStateException(engine.openOrders() + " orders left after the sweep");
                }
                return elapsed / 1e6;
            }
            finally
            {
                runner.close();
            }
        }
    }

    private static void awaitApplied(final EngineAgent agent, final long sequence)
    {
        while (agent.appliedSequence() < sequence)
        {
            if (agent.failure() != null)
            {
                throw new IllegalStateException("the engine failed", agent.failure());
            }
            Thread.onSpinWait();
        }
    }

    private void admin(final JournalAppender out, final long now, final Action action)
    {
        final ActionPayload payload = new ActionPayload(OPERATOR, operatorNonce++, null, now, action);
        nextDigest();
        final int length = encoder.encode(++sequence, now, 1, payload, digest, SignerMatch.ACCOUNT_RAW,
            OPERATOR.toBytes(), zeros, record, 0);
        out.add(record, 0, length);
    }

    private void place(final JournalAppender out, final long now, final SpotPlaceOrder order)
    {
        final ActionPayload payload = new ActionPayload(TRADER, nonce++, null, now, order);
        nextDigest();
        // of limit class MM: the per-account action limiter does not count it, as on the binary lanes
        final int length = encoder.encode(++sequence, now, 1, payload, digest, SignerMatch.ACCOUNT_RAW,
            TRADER.toBytes(), zeros, null, true, record, 0);
        out.add(record, 0, length);
    }

    /** Stamps the protection command written at 0 with the next sequence and {@code now} and stages it. */
    private void stage(final JournalAppender out, final int length, final long now)
    {
        record.putLong(MessageHeaderEncoder.ENCODED_LENGTH, ++sequence, ByteOrder.LITTLE_ENDIAN);
        record.putLong(MessageHeaderEncoder.ENCODED_LENGTH + 8, now, ByteOrder.LITTLE_ENDIAN);
        record.putInt(MessageHeaderEncoder.ENCODED_LENGTH + 16, 1, ByteOrder.LITTLE_ENDIAN);
        out.add(record, 0, length);
    }

    /** A distinct order id per command (the engine does no hashing: any 32 bytes do). */
    private void nextDigest()
    {
        final long n = sequence + 1;
        Arrays.fill(digest, (byte)0);
        for (int i = 0; i < 8; i++)
        {
            digest[31 - i] = (byte)(n >>> (8 * i));
        }
        digest[0] = 0x5a;
    }

    private static String range(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return String.format(Locale.ROOT, "%.2f (%.2f-%.2f)", sorted[sorted.length / 2], sorted[0],
            sorted[sorted.length - 1]);
    }
}
