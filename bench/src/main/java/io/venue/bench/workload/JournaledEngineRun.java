package io.venue.bench.workload;

import io.venue.engine.Engine;
import io.venue.engine.JournalEventSink;
import io.venue.engine.EngineAgent;
import io.venue.engine.EventSink;
import io.venue.engine.PersistedEngine;
import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateUnusableException;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.queue.JournalPretoucher;
import io.venue.journal.queue.JournalTailer;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The cost of the journals and the state, measured in one JVM with the phases interleaved in every run so
 * that their ratio is not skewed by a noisy neighbour: the engine alone (commands from memory, events
 * dropped), the engine with its Chronicle Map state (memory-mapped, written every 1,000 commands by default), the
 * engine journaled (commands appended to a command journal, then applied with their events appended to an event
 * journal, on one thread), a replay (a fresh engine tailing the command journal just written), and the two-thread
 * shape the appliance runs: a sequencer thread appending the commands while an {@link EngineAgent} tails them and
 * journals the events (timed until the last command is applied). The journaled phases write as a saturated appliance
 * does: {@code commandsPerExcerpt} commands to a command excerpt (what its sequencer stages in one duty cycle), and
 * the events of the commands applied together as one event excerpt.
 * <p>
 * Usage: {@code JournaledEngineRun [commands] [accounts] [folder] [commandsPerFlush]
 * [pretouch|pretouch-own-mapping|no-pretouch] [commandsPerExcerpt]}
 * (given: the state written every that many commands whatever the records, absent or 0: its default rule; the journals'
 * pages faulted in ahead of their writers by a {@link JournalPretoucher} thread, as in the appliance, unless
 * no-pretouch, and through its own mapping only with pretouch-own-mapping; commands per excerpt 64 by default, the
 * appliance's batch limit, 1 for an excerpt per command as at a low rate); the folder (a
 * temporary one by default, also when given as "") gets one pair of journals and one state folder per run,
 * deleted after it.
 */
public final class JournaledEngineRun
{
    private static final int RUNS = 5;
    private static final int WARMUP_RUNS = 2;
    private static long eventsJournaled;
    private static int commandsPerFlush;
    private static boolean pretouch;
    private static boolean populateWriterMappings;
    private static int commandsPerExcerpt;

    private JournaledEngineRun()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final int commands = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        final int accounts = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        final Path root = args.length > 2 && !args[2].isEmpty() ? Path.of(args[2]) :
            Files.createTempDirectory("journaled-run");
        // given: a write every that many commands, whatever the records; absent: the state's default rule
        commandsPerFlush = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        final String pretouching = args.length > 4 ? args[4] : "pretouch";
        pretouch = switch (pretouching)
        {
            case "pretouch", "pretouch-own-mapping" -> true;
            case "no-pretouch" -> false;
            default -> throw new IllegalArgumentException(
                "pretouch, pretouch-own-mapping or no-pretouch: " + pretouching);
        };
        populateWriterMappings = "pretouch".equals(pretouching);
        commandsPerExcerpt = args.length > 5 ? Integer.parseInt(args[5]) : 64;
        System.out.println(commandsPerExcerpt +
            " commands to a command excerpt; the events of the commands applied together as one excerpt");
        System.out.println(!pretouch ? "journals not pretouched" : populateWriterMappings ?
            "journals pretouched ahead of their writers, in the writers' own mappings where the kernel can" :
            "journals pretouched ahead of their writers through the pretoucher's own mapping only");
        final ExchangeCoreWorkload workload = ExchangeCoreWorkload.generate(accounts, commands, 42,
            ExchangeCoreWorkload.amendKeepsSizeAsked());
        final int measured = workload.commands() - workload.setupCommands();
        System.out.printf(Locale.ROOT, "workload: %,d measured commands after %,d setup; mix %s%n", measured,
            workload.setupCommands(), workload.mix());
        if (ExchangeCoreWorkload.amendKeepsSizeAsked())
        {
            System.out.println("the variant whose price amends keep the order's size (" +
                ExchangeCoreWorkload.AMEND_KEEPS_SIZE_PROPERTY + ")");
        }

        final double[] alone = new double[RUNS];
        final double[] journaled = new double[RUNS];
        final double[] replay = new double[RUNS];
        final double[] pipelined = new double[RUNS];
        final double[] stated = new double[RUNS];
        final double[] statedJournaled = new double[RUNS];
        for (int run = -WARMUP_RUNS; run < RUNS; run++)
        {
            final Path folder = root.resolve("run" + (run + WARMUP_RUNS));
            final double a = measured / seconds(() -> engineAlone(workload));
            final double s = measured / seconds(() -> engineWithState(workload, folder.resolve("state")));
            final double j;
            final double r;
            final double p;
            final double sj;
            try (Journal commandJournal = Journal.open(folder.resolve("state-commands"));
                Journal eventJournal = Journal.open(folder.resolve("state-events")))
            {
                final AgentRunner pretoucher = pretouching(commandJournal, eventJournal);
                sj = measured /
                    seconds(() -> engineWithStateJournaled(workload, folder.resolve("state-journaled"), commandJournal,
                    eventJournal));
                CloseHelper.quietClose(pretoucher);
            }
            try (Journal commandJournal = Journal.open(folder.resolve("commands"));
                Journal eventJournal = Journal.open(folder.resolve("events")))
            {
                final AgentRunner pretoucher = pretouching(commandJournal, eventJournal);
                j = measured / seconds(() -> engineJournaled(workload, commandJournal, eventJournal));
                CloseHelper.quietClose(pretoucher);
                r = workload.commands() / seconds(() -> replay(commandJournal));
            }
            try (Journal commandJournal = Journal.open(folder.resolve("pipelined-commands"));
                Journal eventJournal = Journal.open(folder.resolve("pipelined-events")))
            {
                final AgentRunner pretoucher = pretouching(commandJournal, eventJournal);
                p = measured / seconds(() -> pipelined(workload, commandJournal, eventJournal));
                CloseHelper.quietClose(pretoucher);
            }
            final long bytes = BenchFiles.size(folder);
            BenchFiles.delete(folder);
            System.out.printf(Locale.ROOT,
                "%s %d: alone %,.0f/s, with state %,.0f/s (%.0f%%), journaled %,.0f/s (%.0f%%), two threads %,.0f/s " +
                "(%.0f%%), " + "state and journals %,.0f/s (%.0f%% of with state), replay %,.0f/s; %,d events, %,d " +
                "MiB of journal files%n", run < 0 ? "warm-up" : "run", run < 0 ? run + WARMUP_RUNS + 1 : run + 1, a, s,
                100 * s / a, j, 100 * j / a, p, 100 * p / a,
                sj, 100 * sj / s, r, eventsJournaled, bytes >> 20);
            if (run >= 0)
            {
                alone[run] = a;
                journaled[run] = j;
                replay[run] = r;
                pipelined[run] = p;
                stated[run] = s;
                statedJournaled[run] = sj;
            }
        }
        final double[] ratio = new double[RUNS];
        final double[] pipelinedRatio = new double[RUNS];
        final double[] stateRatio = new double[RUNS];
        final double[] journalOverState = new double[RUNS];
        for (int i = 0; i < RUNS; i++)
        {
            journalOverState[i] = statedJournaled[i] / stated[i];
            stateRatio[i] = stated[i] / alone[i];
            ratio[i] = journaled[i] / alone[i];
            pipelinedRatio[i] = pipelined[i] / alone[i];
        }
        System.out.printf(Locale.ROOT, "median: with state %s, with state/alone %.1f%% (%s)%n", range(stated),
            100 * median(stateRatio), rangePercent(stateRatio));
        System.out.printf(Locale.ROOT, "median: state and journals %s, of with state %.1f%% (%s)%n",
            range(statedJournaled), 100 * median(journalOverState), rangePercent(journalOverState));
        System.out.printf(Locale.ROOT, "median: alone %s, journaled %s, journaled/alone %.1f%% (%s), two threads %s, " +
            "two threads/alone %.1f%% (%s), replay %s commands/s%n", range(alone), range(journaled),
            100 * median(ratio), rangePercent(ratio), range(pipelined), 100 * median(pipelinedRatio),
            rangePercent(pipelinedRatio), range(replay));
    }

    /** The appliance's pretoucher following both journals on a thread of its own, or null with no-pretouch. */
    private static AgentRunner pretouching(final Journal commands, final Journal events)
    {
        if (!pretouch)
        {
            return null;
        }
        final AgentRunner runner = new AgentRunner(new BackoffIdleStrategy(10, 10, 1_000, 1_000_000),
            Throwable::printStackTrace,
            null, new JournalPretoucher(new JournalPretoucher.Context().populateWriterMappings(populateWriterMappings))
            .follow(commands).follow(events));
        AgentRunner.startOnThread(runner);
        return runner;
    }

    private static void engineAlone(final ExchangeCoreWorkload workload)
    {
        final Engine engine = new Engine(ExchangeCoreWorkload.config(), new DiscardingSink());
        workload.forEach(engine::onCommand);
    }

    private static EngineState.Context stateContext(final Path folder)
    {
        final EngineState.Context context = new EngineState.Context().directory(folder);
        return commandsPerFlush > 0 ?
            context.commandsPerFlush(commandsPerFlush).recordsPerFlush(Integer.MAX_VALUE) : context;
    }

    /** The engine with its Chronicle Map state (memory-mapped files, written by the chosen rule), events dropped. */
    private static void engineWithState(final ExchangeCoreWorkload workload, final Path folder)
    {
        try (PersistedEngine persisted = PersistedEngine.open(ExchangeCoreWorkload.config(), new DiscardingSink(),
            stateContext(folder)))
        {
            workload.forEach(persisted.engine()::onCommand);
        }
        catch (final StateUnusableException ex)
        {
            throw new IllegalStateException("a fresh state folder was refused", ex);
        }
    }

    /**
     * The appliance's own shape on one thread: commands appended, then applied with their state, their
     * events journaled.
     */
    private static void engineWithStateJournaled(
        final ExchangeCoreWorkload workload, final Path folder, final Journal commands, final Journal events)
    {
        try (PersistedEngine persisted = PersistedEngine.open(ExchangeCoreWorkload.config(),
            JournalEventSink.heldUntilFlush(events.appender()), stateContext(folder)))
        {
            final ExcerptBatcher batcher = new ExcerptBatcher(commands.appender(), persisted.engine());
            workload.forEach(batcher);
            batcher.flush();
        }
        catch (final StateUnusableException ex)
        {
            throw new IllegalStateException("a fresh state folder was refused", ex);
        }
    }

    private static void engineJournaled(final ExchangeCoreWorkload workload, final Journal commands,
        final Journal events)
    {
        final JournalAppender eventOut = events.appender();
        eventsJournaled = 0;
        final JournalEventSink journal = JournalEventSink.heldUntilFlush(eventOut);
        final Engine engine = new Engine(ExchangeCoreWorkload.config(), new EventSink()
        {
            public void onEvent(final DirectBuffer buffer, final int offset, final int length)
            {
                journal.onEvent(buffer, offset, length);
                eventsJournaled++;
            }

            public void onCommandEnd()
            {
                journal.onCommandEnd();
            }

            public void flush()
            {
                journal.flush();
            }
        });
        final ExcerptBatcher batcher = new ExcerptBatcher(commands.appender(), engine);
        workload.forEach(batcher);
        batcher.flush();
    }

    private static void pipelined(final ExchangeCoreWorkload workload, final Journal commands, final Journal events)
    {
        final JournalAppender eventOut = events.appender();
        final Engine engine = new Engine(ExchangeCoreWorkload.config(), JournalEventSink.heldUntilFlush(eventOut));
        final EngineAgent agent = new EngineAgent(engine, commands.tailer(), 64);
        final Thread sequencer = new Thread(() ->
        {
            final ExcerptBatcher batcher = new ExcerptBatcher(commands.appender(), null);
            workload.forEach(batcher);
            batcher.flush();
        }, "sequencer");
        sequencer.start();
        while (engine.commandCount() < workload.commands())
        {
            if (agent.doWork() == 0)
            {
                Thread.onSpinWait();
            }
        }
        try
        {
            sequencer.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void replay(final Journal commands)
    {
        final Engine engine = new Engine(ExchangeCoreWorkload.config(), new DiscardingSink());
        final JournalTailer tailer = commands.tailer();
        while (tailer.read((buffer, offset, length, index) -> engine.onCommand(buffer, offset, length)))
        {
            // to the end
        }
    }

    /** Setup commands are included in every phase's time; they are under 0.2% of the default workload. */
    private static double seconds(final Runnable phase)
    {
        final long begin = System.nanoTime();
        phase.run();
        return (System.nanoTime() - begin) / 1e9;
    }

    private static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static String range(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return String.format(Locale.ROOT, "%,.0f (%,.0f–%,.0f)", sorted[sorted.length / 2], sorted[0],
            sorted[sorted.length - 1]);
    }

    private static String rangePercent(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return String.format(Locale.ROOT, "%.1f–%.1f%%", 100 * sorted[0], 100 * sorted[sorted.length - 1]);
    }

    /**
     * Stages {@code commandsPerExcerpt} commands and appends them as one excerpt, as the appliance's sequencer does
     * with the requests of one duty cycle; then, given an engine, applies them and has it write their events.
     */
    private static final class ExcerptBatcher implements ExchangeCoreWorkload.CommandSink
    {
        private final JournalAppender commandOut;
        private final Engine engine;
        private final int[] offsets = new int[commandsPerExcerpt];
        private final int[] lengths = new int[commandsPerExcerpt];
        private DirectBuffer records;
        private int staged;

        ExcerptBatcher(final JournalAppender commandOut, final Engine engine)
        {
            this.commandOut = commandOut;
            this.engine = engine;
        }

        @Override
        public void onCommand(final DirectBuffer buffer, final int offset, final int length)
        {
            commandOut.add(buffer, offset, length);
            records = buffer;
            offsets[staged] = offset;
            lengths[staged] = length;
            if (++staged == commandsPerExcerpt)
            {
                flush();
            }
        }

        void flush()
        {
            if (staged == 0)
            {
                return;
            }
            commandOut.commit();
            if (null != engine)
            {
                for (int i = 0; i < staged; i++)
                {
                    engine.onCommand(records, offsets[i], lengths[i]);
                }
                engine.flushEvents();
            }
            staged = 0;
        }
    }

    private static final class DiscardingSink implements EventSink
    {
        @Override
        public void onEvent(final DirectBuffer buffer, final int offset, final int length)
        {
            // the engine alone: events are produced and dropped
        }
    }
}
