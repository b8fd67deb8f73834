package io.venue.entry.admission;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Token buckets keyed by client input (an account, an address), {@code ratePerSecond} sustained with a burst of
 * {@code burst}, in a table of at most {@code capacity} keys: past it the key used least recently is dropped, so a
 * flood of new keys costs a bounded table, and what it evicts is a bucket that then starts full again (an evicted key
 * gains at most one burst; reaching its own bucket again takes {@code capacity} other keys first). Thread safe (one
 * lock: each call is a table lookup and a few arithmetic steps).
 */
public final class BoundedBuckets<K>
{
    private static final long NANOS = 1_000_000_000L;

    private final long ratePerSecond;
    private final long burst;
    private final int capacity;
    private final LongSupplier nanoClock;
    private final LinkedHashMap<K, long[]> buckets;

    public BoundedBuckets(final long ratePerSecond, final long burst, final int capacity, final LongSupplier nanoClock)
    {
        if (ratePerSecond < 1 || burst < 1 || capacity < 1)
        {
            throw new IllegalArgumentException("rate, burst and capacity must be positive");
        }
        this.ratePerSecond = ratePerSecond;
        this.burst = burst;
        this.capacity = capacity;
        this.nanoClock = nanoClock;
        this.buckets = new LinkedHashMap<>(16, 0.75f, true)
        {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(final Map.Entry<K, long[]> eldest)
            {
                return size() > BoundedBuckets.this.capacity;
            }
        };
    }

    /**
     * Takes a token for {@code key}.
     *
     * @return 0 when it may pass, otherwise the whole seconds (at least 1) until it would.
     */
    public long acquire(final K key)
    {
        final long now = nanoClock.getAsLong();
        final long full = burst * NANOS;
        synchronized (buckets)
        {
            // a bucket is {units, last refill}: one token is NANOS units, refilled at ratePerSecond units a nanosecond
            long[] bucket = buckets.get(key);
            if (bucket == null)
            {
                bucket = new long[] {full, now};
                buckets.put(key, bucket);
            }
            final long elapsed = Math.max(0, now - bucket[1]);
            bucket[0] = elapsed >= full / ratePerSecond ? full : Math.min(full, bucket[0] + elapsed * ratePerSecond);
            bucket[1] = now;
            if (bucket[0] >= NANOS)
            {
                bucket[0] -= NANOS;
                return 0;
            }
            final long waitNs = (NANOS - bucket[0] + ratePerSecond - 1) / ratePerSecond;
            return Math.max(1, (waitNs + NANOS - 1) / NANOS);
        }
    }

    /** The keys held now (at most the capacity). */
    public int size()
    {
        synchronized (buckets)
        {
            return buckets.size();
        }
    }

    public long burst()
    {
        return burst;
    }
}
