package io.venue.tuning;

import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

class PinnedThreadsTest
{
    @Test
    void aPinnedThreadRunsOnItsCoreOnly() throws InterruptedException
    {
        final int cpu = Runtime.getRuntime().availableProcessors() - 1;
        final AtomicReference<BitSet> seen = new AtomicReference<>();
        final Thread thread = PinnedThreads.factory("pinned-test", cpu)
            .newThread(() -> seen.set(PinnedThreads.currentAffinity()));
        thread.start();
        thread.join(10_000);
        assertNotNull(seen.get());
        final BitSet expected = new BitSet();
        expected.set(cpu);
        assertEquals(expected, seen.get());
        assertEquals("pinned-test", thread.getName());
    }
}
