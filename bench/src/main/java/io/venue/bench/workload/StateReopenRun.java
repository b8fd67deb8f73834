package io.venue.bench.workload;

import io.venue.engine.state.Balance;
import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateLimits;

import java.nio.file.Path;

/**
 * What reopening the engine's Chronicle Map state costs after a clean close and after a process stopped without one
 * (then opened through Chronicle's recovery, which releases the locks the stopped process held). Each call is one
 * process, since a stop without a close is a process ending: {@code fill N} makes a production-sized state in the
 * folder with N balances and halts without closing; {@code halt} opens it, prints the time, and halts without
 * closing; {@code close} opens it, prints the time, and closes it cleanly.
 * <p>
 * Usage: {@code StateReopenRun folder fill N | halt | close}
 */
public final class StateReopenRun
{
    private StateReopenRun()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final EngineState.Context context = new EngineState.Context().directory(Path.of(args[0]))
            .sizeFor(StateLimits.PRODUCTION);
        final boolean wasClean = !EngineState.check(context).detail().startsWith("reopened after");
        final long start = System.nanoTime();
        final EngineState state = EngineState.open(context);
        final long openedMs = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("%s: opened in %,d ms (%s)%n", args[1], openedMs, wasClean ? "after a clean close or fresh" :
            "after a stop without a close");
        if ("fill".equals(args[1]))
        {
            final int balances = Integer.parseInt(args[2]);
            final Balance balance = new Balance();
            final byte[] account = new byte[20];
            state.meta().beginApply(1);
            for (int i = 0; i < balances; i++)
            {
                account[0] = (byte)i;
                account[1] = (byte)(i >>> 8);
                account[2] = (byte)(i >>> 16);
                state.balances().acquire(account, 1, balance).available(i);
            }
            state.meta().commitApplied(1);
        }
        if (!"close".equals(args[1]))
        {
            Runtime.getRuntime().halt(0);
        }
        state.close();
    }
}
