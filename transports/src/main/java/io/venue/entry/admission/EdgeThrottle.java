package io.venue.entry.admission;

import java.net.InetAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ObjLongConsumer;

/**
 * The edge IP throttle of spec 8.1 on the submit route: a token bucket per remote address, {@code ratePerSecond}
 * sustained with a burst of {@code burst} (defaults 10 and 20), on the wall clock (the edge is outside the
 * deterministic engine). Addresses in the exempt set (a colocated firm's gateway, a load generator) are never
 * throttled. IPv6 addresses share a bucket per /64 (one host's usual allocation), so rotating through its addresses
 * gains nothing. Buckets idle long enough to be full again are dropped, at most once a second, when the table grows,
 * so a flood from many addresses neither grows it without bound nor has every request scan it.
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
    private final AtomicLong nextPruneNs = new AtomicLong();

    public EdgeThrottle(final long ratePerSecond, final long burst, final Set<InetAddress> exempt,
        final LongSupplier nanoClock)
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

    /** A throttle of the same rate, burst and exempt addresses whose buckets are its own. */
    public EdgeThrottle sibling()
    {
        return new EdgeThrottle(ratePerSecond, burst, exempt, nanoClock);
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
            final long now = nanoClock.getAsLong();
            final long next = nextPruneNs.get();
            if (now - next >= 0 && nextPruneNs.compareAndSet(next, now + NANOS))
            {
                prune();
            }
        }
        final Bucket bucket = buckets.computeIfAbsent(key(address),
            a -> new Bucket(burst * NANOS, nanoClock.getAsLong()));
        synchronized (bucket)
        {
            final long now = nanoClock.getAsLong();
            bucket.units = refilled(bucket, now);
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

    /**
     * Whether {@code address} has no token now, without taking one: for a route that charges the throttle only for
     * what it refuses (the MM lane charges failed authentications) and refuses before the costly checks once spent.
     */
    public boolean exhausted(final InetAddress address)
    {
        if (exempt.contains(address))
        {
            return false;
        }
        final Bucket bucket = buckets.get(key(address));
        if (bucket == null)
        {
            return false;
        }
        synchronized (bucket)
        {
            return refilled(bucket, nanoClock.getAsLong()) < NANOS;
        }
    }

    /**
     * The bucket's units at {@code now}: tokens are kept in token-nanoseconds, one token NANOS units, refilled at
     * ratePerSecond units a nanosecond up to the burst. Call holding the bucket's lock.
     */
    private long refilled(final Bucket bucket, final long now)
    {
        final long elapsed = Math.max(0, now - bucket.lastNs);
        final long capacity = burst * NANOS;
        return elapsed >= capacity / ratePerSecond ? capacity :
            Math.min(capacity, bucket.units + elapsed * ratePerSecond);
    }

    /** The address itself for IPv4, its /64 for IPv6: what a per-address limit counts by. */
    public static InetAddress key(final InetAddress address)
    {
        final byte[] bytes = address.getAddress();
        if (bytes.length != 16)
        {
            return address;
        }
        Arrays.fill(bytes, 8, 16, (byte)0);
        try
        {
            return InetAddress.getByAddress(bytes);
        }
        catch (final UnknownHostException impossible)
        {
            throw new IllegalStateException(impossible);
        }
    }

    /**
     * Counts a refusal of {@code address} (or, with {@code refused} false, only looks) and says how many of its
     * refusals to journal now: every refusal is counted, but an address gets at most one journal record a second,
     * carrying the count since its last one, so a flood cannot turn the journal into its amplifier. A count left
     * when a flood stops is written with the address's next request a second or more later.
     *
     * @return the refusals to journal now (this one included), or 0.
     */
    public long refusalsToJournal(final InetAddress address, final boolean refused)
    {
        final Bucket bucket = buckets.get(key(address));
        if (bucket == null)
        {
            return 0;
        }
        synchronized (bucket)
        {
            if (refused)
            {
                bucket.refusedSinceRecord++;
            }
            final long now = nanoClock.getAsLong();
            if (bucket.refusedSinceRecord == 0 || (bucket.recordedNs != 0 && now - bucket.recordedNs < NANOS))
            {
                return 0;
            }
            final long count = bucket.refusedSinceRecord;
            bucket.refusedSinceRecord = 0;
            bucket.recordedNs = now;
            return count;
        }
    }

    /**
     * Hands over the counts held for a second or more (addresses that stopped sending), so none is lost; the gateway
     * calls it once a second. {@code sink} gets the address (a /64 for IPv6) and the count.
     */
    public void flushHeld(final ObjLongConsumer<String> sink)
    {
        final long now = nanoClock.getAsLong();
        buckets.forEach((address, bucket) ->
        {
            long count = 0;
            synchronized (bucket)
            {
                if (bucket.refusedSinceRecord > 0 && now - bucket.recordedNs >= NANOS)
                {
                    count = bucket.refusedSinceRecord;
                    bucket.refusedSinceRecord = 0;
                    bucket.recordedNs = now;
                }
            }
            if (count > 0)
            {
                sink.accept(describe(address), count);
            }
        });
    }

    /** How an address is named in the journal: itself, or its /64. */
    public static String describe(final InetAddress key)
    {
        return key.getAddress().length == 16 ? key.getHostAddress() + "/64" : key.getHostAddress();
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
                // a count not journaled yet keeps its bucket until the next flush has written it
                return now - e.getValue().lastNs >= fullAfterNs && e.getValue().refusedSinceRecord == 0;
            }
        });
    }

    private static final class Bucket
    {
        long units;
        long lastNs;
        long refusedSinceRecord;
        long recordedNs;

        Bucket(final long units, final long lastNs)
        {
            this.units = units;
            this.lastNs = lastNs;
        }
    }
}
