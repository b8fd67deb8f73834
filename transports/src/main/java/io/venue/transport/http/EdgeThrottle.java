package io.venue.transport.http;

import java.net.InetAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The edge IP throttle of spec 8.1 on the submit route: a token bucket per remote address, {@code ratePerSecond}
 * sustained with a burst of {@code burst} (defaults 10 and 20), on the wall clock (the edge is outside the
 * deterministic engine). Addresses in the exempt set (a colocated firm's gateway, a load generator) are never
 * throttled. Buckets idle long enough to be full again are dropped when the table grows, so a flood from many
 * addresses does not grow it without bound.
 */
public final class EdgeThrottle
{
    private static final long NANOS = 1_000_000_000L;
    private static final int PRUNE_ABOVE = 100_000;

    private final long ratePerSecond;
    private final long burst;
    private final Set<InetAddress> exempt;
    private final LongSupplier nanoClock;
    private final ConcurrentHashMap<InetAddress, Bucket> buckets = new ConcurrentHashMap<>();

    public EdgeThrottle(final long ratePerSecond, final long burst, final Set<InetAddress> exempt, final LongSupplier nanoClock)
    {
        if (ratePerSecond < 1 || burst < 1)
        {
            throw new IllegalArgumentException("rate and burst must be positive");
        }
        this.ratePerSecond = ratePerSecond;
        this.burst = burst;
        this.exempt = Set.copyOf(exempt);
        this.nanoClock = nanoClock;
    }

    /**
     * Takes a token for a request from {@code address}.
     *
     * @return 0 when the request may pass, otherwise the whole seconds (at least 1) until it would.
     */
    public long acquire(final InetAddress address)
    {
        if (exempt.contains(address))
        {
            return 0;
        }
        if (buckets.size() > PRUNE_ABOVE)
        {
            prune();
        }
        final Bucket bucket = buckets.computeIfAbsent(address, a -> new Bucket(burst * NANOS, nanoClock.getAsLong()));
        synchronized (bucket)
        {
            final long now = nanoClock.getAsLong();
            // tokens are kept in token-nanoseconds: one token is NANOS units, refilled at ratePerSecond units a nanosecond
            final long elapsed = Math.max(0, now - bucket.lastNs);
            final long capacity = burst * NANOS;
            bucket.units = elapsed >= capacity / ratePerSecond ? capacity : Math.min(capacity, bucket.units + elapsed * ratePerSecond);
            bucket.lastNs = now;
            if (bucket.units >= NANOS)
            {
                bucket.units -= NANOS;
                return 0;
            }
            final long waitNs = (NANOS - bucket.units + ratePerSecond - 1) / ratePerSecond;
            return Math.max(1, (waitNs + NANOS - 1) / NANOS);
        }
    }

    public long ratePerSecond()
    {
        return ratePerSecond;
    }

    public long burst()
    {
        return burst;
    }

    private void prune()
    {
        final long now = nanoClock.getAsLong();
        final long fullAfterNs = burst * NANOS / ratePerSecond;
        buckets.entrySet().removeIf(e ->
        {
            synchronized (e.getValue())
            {
                return now - e.getValue().lastNs >= fullAfterNs;
            }
        });
    }

    private static final class Bucket
    {
        long units;
        long lastNs;

        Bucket(final long units, final long lastNs)
        {
            this.units = units;
            this.lastNs = lastNs;
        }
    }
}
