package io.venue.tuning;

import net.openhft.affinity.Affinity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.BitSet;
import java.util.concurrent.ThreadFactory;

/**
 * Threads bound to one CPU core (OpenHFT affinity), for the roles that own a core: the engine shard, the
 * sequencer, the verifiers. A negative core means "not pinned", the right choice on a shared 2-core
 * machine; the production profile pins.
 */
public final class PinnedThreads
{
    private static final Logger LOG = LoggerFactory.getLogger(PinnedThreads.class);

    private PinnedThreads()
    {
    }

    /**
     * A factory of daemon threads named {@code name} that pin themselves to {@code cpu} before running.
     * If the operating system refuses the binding, the thread runs unpinned and says so once (a warning in the log).
     */
    public static ThreadFactory factory(final String name, final int cpu)
    {
        return runnable ->
        {
            final Thread thread = new Thread(() ->
            {
                if (cpu >= 0)
                {
                    pinCurrentThread(cpu);
                }
                runnable.run();
            }, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Binds the calling thread to one core; returns false (and reports) if that was refused. */
    public static boolean pinCurrentThread(final int cpu)
    {
        final BitSet mask = new BitSet();
        mask.set(cpu);
        try
        {
            Affinity.setAffinity(mask);
            final boolean pinned = mask.equals(Affinity.getAffinity());
            if (!pinned)
            {
                LOG.warn("could not pin {} to cpu {}: the system kept {}", Thread.currentThread().getName(), cpu,
                    Affinity.getAffinity());
            }
            return pinned;
        }
        catch (final RuntimeException | LinkageError ex)
        {
            LOG.warn("could not pin {} to cpu {}: {}", Thread.currentThread().getName(), cpu, ex.toString());
            return false;
        }
    }

    /** The cores the calling thread may run on. */
    public static BitSet currentAffinity()
    {
        return Affinity.getAffinity();
    }
}
