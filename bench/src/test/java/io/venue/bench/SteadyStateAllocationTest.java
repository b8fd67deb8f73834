package io.venue.bench;

import com.sun.management.ThreadMXBean;
import io.venue.bench.workload.ExchangeCoreWorkload;
import io.venue.engine.Engine;
import io.venue.engine.EngineAgent;
import io.venue.engine.JournalEventSink;
import io.venue.engine.PersistedEngine;
import io.venue.engine.state.EngineState;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.queue.JournalForce;
import io.venue.sequencer.ActionCommandEncoder;
import io.venue.sequencer.Sequencer;
import io.venue.sequencer.SequencerListener;
import io.venue.verifier.VerifierPool;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the engine's and the sequencer's duty cycles allocate per command once warm: each runs here on the test's own
 * thread (its agent's doWork in a loop, as its AgentRunner would call it), with real Chronicle journals (and the
 * engine's Chronicle Map state) in a temporary folder, and the bytes that thread allocated
 * (com.sun.management.ThreadMXBean, exact per thread) are counted over tens of thousands of commands after a warm-up.
 * Nothing is timed.
 * <p>
 * The engine allocates nothing per command: 0.2 to 0.6 bytes a command on average, all of it one allocation of about
 * 24 KB in the window whatever its length (the event journal's writer moving on in its file, it seems; an idle poll
 * allocates nothing), so a single object a command would fail here. The sequencer, given the command the verifier wrote
 * (as the appliance runs it: {@code commandWriters}), only stamps a verified action and allocates nothing for it; what
 * it still allocates is a refused body's detail, built as a String (about 15 bytes a command in this mix, where it was
 * 532 when the sequencer read the canonical JSON back into the action model). Its bound holds today's figure with room
 * for less than one small object a command, so that it does not grow unseen.
 */
class SteadyStateAllocationTest
{
    /** The engine: less than one object of 16 bytes in eight commands. */
    private static final double ENGINE_BYTES_PER_COMMAND = 2.0;
    /** The sequencer: today's 15 bytes a command (refusals' details only), with room for less than one object more. */
    private static final double SEQUENCER_BYTES_PER_COMMAND = 32.0;

    @TempDir
    Path folder;

    private static final ThreadMXBean THREADS = (ThreadMXBean)ManagementFactory.getThreadMXBean();

    private static long allocatedByThisThread()
    {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void theEngineAllocatesNothingPerCommandOnceWarm() throws Exception
    {
        assumeTrue(THREADS.isThreadAllocatedMemorySupported() && THREADS.isThreadAllocatedMemoryEnabled());
        final int warmUp = 60_000;
        final int measured = 40_000;
        // places, price amends, cancels, reductions and trades on one market of 2,000 accounts (exchange-core's mix)
        final ExchangeCoreWorkload workload = ExchangeCoreWorkload.generate(2_000, warmUp + measured, 42);
        final LocalDate day = LocalDate.now(ZoneOffset.UTC);
        try (Journal commands = Journal.open(folder.resolve("commands"));
            Journal events = Journal.open(folder.resolve("events"));
            PersistedEngine persisted = PersistedEngine.open(ExchangeCoreWorkload.config(),
                JournalEventSink.heldUntilFlush(events.appender()),
                new EngineState.Context().directory(folder.resolve("state"))))
        {
            // the commands are journaled first, 64 to an excerpt as a busy sequencer writes them: not part of the count
            final JournalAppender appender = commands.appender();
            final int[] staged = {0};
            workload.forEach((buffer, offset, length) ->
            {
                appender.add(buffer, offset, length);
                if (++staged[0] == 64)
                {
                    appender.commit();
                    staged[0] = 0;
                }
            });
            appender.commit();

            // the appliance's engine thread: the agent tails the command journal, applies each command to the engine
            // and its state, and journals the events of each batch
            final Engine engine = persisted.engine();
            final EngineAgent agent = new EngineAgent(engine, commands.tailer(), 64);
            final long warm = workload.setupCommands() + warmUp;
            while (engine.commandCount() < warm)
            {
                agent.doWork();
            }
            final long from = engine.commandCount();
            final long before = allocatedByThisThread();
            while (engine.commandCount() < workload.commands())
            {
                agent.doWork();
            }
            final long allocated = allocatedByThisThread() - before;
            final long applied = engine.commandCount() - from;
            report("engine", allocated, applied);
            assertNull(agent.failure());
            assertEquals(workload.commands(), engine.commandCount());
            assumeTrue(day.equals(LocalDate.now(ZoneOffset.UTC)), "the journals rolled to a new day's file meanwhile");
            assertTrue(allocated <= ENGINE_BYTES_PER_COMMAND * applied, String.format(Locale.ROOT,
                "the engine thread allocated %,d bytes over %,d commands (%.2f a command)", allocated, applied,
                (double)allocated / applied));
        }
    }

    @Test
    void theSequencerAllocatesNoMorePerCommandThanItDoesToday() throws Exception
    {
        sequencerAllocation(JournalForce.NONE);
    }

    /** {@code journal.force=group}: each group's force (an fdatasync) allocates nothing once its file is open. */
    @Test
    void theSequencerForcingEachGroupAllocatesNoMorePerCommand() throws Exception
    {
        sequencerAllocation(JournalForce.GROUP);
    }

    private void sequencerAllocation(final JournalForce mode) throws Exception
    {
        assumeTrue(THREADS.isThreadAllocatedMemorySupported() && THREADS.isThreadAllocatedMemoryEnabled());
        final int warmUp = 10_000;
        final int measured = 20_000;
        // signed orders, each verified in full by the pool's thread, and a malformed body now and then (journaled as a
        // refusal with the parser's reason)
        final byte[][] bodies = Fixtures.signedBodies(256);
        final byte[] malformed = "{\"payload\":{\"nonce\":-1}}".getBytes(StandardCharsets.US_ASCII);
        final LocalDate day = LocalDate.now(ZoneOffset.UTC);
        final long[] told = {0, 0};
        final SequencerListener listener = new SequencerListener()
        {
            public void onSequenced(final long connectionId, final long correlationId, final long sequence,
                final long index)
            {
                told[0]++;
            }

            public void onRejected(final long connectionId, final long correlationId, final long sequence,
                final long index)
            {
                told[1]++;
            }
        };
        try (Journal commands = Journal.open(folder.resolve("commands"));
            VerifierPool pool = VerifierPool.start(new VerifierPool.Context().threads(1).chainId(Fixtures.CHAIN_ID)
                .verifyingContract(Fixtures.CONTRACT).commandWriters(ActionCommandEncoder::new)))
        {
            final Sequencer sequencer = new Sequencer(pool, commands.appender(), SystemEpochClock.INSTANCE, listener, 1,
                0, 64).forces(mode);
            final int total = warmUp + measured;
            final AtomicReference<Throwable> producerFailure = new AtomicReference<>();
            final Thread producer = new Thread(() ->
            {
                try
                {
                    final long giveUpAt = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
                    for (int i = 0; i < total; i++)
                    {
                        final byte[] body = i % 16 == 15 ? malformed : bodies[i % bodies.length];
                        while (!pool.offer(i % 8, i, body, 0, body.length))
                        {
                            if (System.nanoTime() - giveUpAt > 0)
                            {
                                throw new IllegalStateException(
                                    "request " + i + " refused for 3 min: the pool's ring stayed full");
                            }
                            Thread.yield();
                        }
                    }
                }
                catch (final Throwable ex)
                {
                    producerFailure.set(ex);
                }
            }, "producer");
            producer.setDaemon(true);
            producer.start();

            // the appliance's sequencer: it takes the pool's results, journals them (one excerpt a duty cycle) and
            // tells the listener; the deadline is read only every 4,096 duty cycles, so that its clock is not what
            // is counted
            final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            int cycles = 0;
            while (told[0] + told[1] < warmUp)
            {
                if (sequencer.doWork() == 0)
                {
                    Thread.yield();
                }
                if ((++cycles & 4095) == 0)
                {
                    assertTrue(System.nanoTime() - deadline < 0 && producerFailure.get() == null,
                        () -> "warm-up not done: " + (told[0] + told[1]) + " journaled, " + producerFailure.get());
                }
            }
            final long from = told[0] + told[1];
            final long before = allocatedByThisThread();
            while (told[0] + told[1] < total)
            {
                if (sequencer.doWork() == 0)
                {
                    Thread.yield();
                }
                if ((++cycles & 4095) == 0 && System.nanoTime() - deadline > 0)
                {
                    break;
                }
            }
            final long allocated = allocatedByThisThread() - before;
            final long journaled = told[0] + told[1] - from;
            report("sequencer (journal.force=" + mode + ", " + sequencer.forces() + " forces)", allocated, journaled);
            producer.join(TimeUnit.SECONDS.toMillis(10));
            assertNull(producerFailure.get());
            assertEquals(total, told[0] + told[1], "every request journaled within 3 minutes");
            assertEquals(total / 16, told[1], "the malformed bodies journaled as refusals");
            assertEquals(total, sequencer.sequence());
            assertEquals(mode == JournalForce.GROUP ? total : 0, sequencer.forcedSequence());
            assumeTrue(day.equals(LocalDate.now(ZoneOffset.UTC)), "the journal rolled to a new day's file meanwhile");
            assertTrue(allocated <= SEQUENCER_BYTES_PER_COMMAND * journaled, String.format(Locale.ROOT,
                "the sequencer thread allocated %,d bytes over %,d commands (%.2f a command)", allocated, journaled,
                (double)allocated / journaled));
        }
    }

    private static void report(final String thread, final long allocated, final long commands)
    {
        System.out.printf(Locale.ROOT,
            "SteadyStateAllocationTest: the %s thread allocated %,d bytes over %,d commands (%.3f a command)%n",
            thread, allocated, commands, (double)allocated / commands);
    }
}
