package io.venue.crypto;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a signature recovery costs inside the running process: every {@code every}-th recovery of the instances it
 * wraps is timed in its thread's CPU time, so the figure carries whatever the host's other threads do to the
 * recovering core (shared caches, a hyperthread sibling), and the appliance's CPU per action can be set against it in
 * one run. Two reads of the thread's CPU clock per sampled call (system calls, about a microsecond on a virtual host);
 * none on the others.
 * <p>
 * Threads: the counters are read by any thread; each wrapped instance, like the recovery it wraps, by one.
 */
public final class RecoveryCpu
{
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final int every;
    private final AtomicLong samples = new AtomicLong();
    private final AtomicLong cpuNs = new AtomicLong();

    /** @param every times one recovery in this many (1: all). */
    public RecoveryCpu(final int every)
    {
        if (every < 1)
        {
            throw new IllegalArgumentException("every must be at least 1: " + every);
        }
        this.every = every;
    }

    /** Whether this JVM can read a thread's CPU time; without it {@link #timing} returns the recovery unchanged. */
    public static boolean supported()
    {
        return THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
    }

    /** {@code recovery}, its sampled calls counted here. */
    public Secp256k1Recovery timing(final Secp256k1Recovery recovery)
    {
        return supported() ? new Timed(recovery) : recovery;
    }

    /** Recoveries timed so far. */
    public long samples()
    {
        return samples.get();
    }

    /** Their CPU time, summed, in nanoseconds. */
    public long cpuNs()
    {
        return cpuNs.get();
    }

    private final class Timed implements Secp256k1Recovery
    {
        private final Secp256k1Recovery recovery;
        private int calls;

        Timed(final Secp256k1Recovery recovery)
        {
            this.recovery = recovery;
        }

        @Override
        public String name()
        {
            return recovery.name();
        }

        @Override
        public RecoveryStatus recover(final byte[] hash, final int hashOffset, final byte[] signature,
            final int signatureOffset, final byte[] addressOut, final int addressOffset)
        {
            if (++calls < every)
            {
                return recovery.recover(hash, hashOffset, signature, signatureOffset, addressOut, addressOffset);
            }
            calls = 0;
            final long start = THREADS.getCurrentThreadCpuTime();
            final RecoveryStatus status =
                recovery.recover(hash, hashOffset, signature, signatureOffset, addressOut, addressOffset);
            cpuNs.addAndGet(THREADS.getCurrentThreadCpuTime() - start);
            samples.incrementAndGet();
            return status;
        }
    }
}
