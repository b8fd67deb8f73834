package io.venue.loadgen;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;

/**
 * One measured run against a submit route (HTTP, or BSL Direct TCP sessions), with pre-signed bodies. Open loop at a
 * fixed rate: request i is due at {@code start + i / rate} and its latency is measured from that intended time, so a
 * stall shows in every request queued behind it (no coordinated omission). Closed loop ("ceiling"): {@code
 * concurrency} requests in flight, each answer releasing the next, to find the most the venue answers per second. The
 * first {@code warmupSeconds} of bodies are sent but not recorded.
 */
public final class LoadRun
{
    /** What one run measured. */
    public record Result(String mode, long targetRate, int concurrency, double seconds, long sent, long answered,
        long ok, Map<String, Long> refused, long failed, Histogram latencyNs)
    {
        public double answeredPerSecond()
        {
            return answered / seconds;
        }
    }

    /** The longest the open-loop sender sleeps between batches. */
    private static final long PACING_NS = 100_000;

    private final LoadTransport client;
    private final int accounts;
    private final BiFunction<Integer, byte[], Map<String, String>> headers;

    /** @param accounts the traders the bodies rotate over: body i is trader i mod accounts's, on its own connection. */
    public LoadRun(final LoadTransport client, final int accounts)
    {
        this(client, accounts, (trader, body) -> Map.of());
    }

    /**
     * @param headers a request's headers from its trader and body, made on the sending thread as it is sent (the
     *                compact lane's SVC-* headers, whose nonce must grow in the order the trader's requests arrive).
     */
    public LoadRun(final LoadTransport client, final int accounts,
        final BiFunction<Integer, byte[], Map<String, String>> headers)
    {
        this.client = client;
        this.accounts = accounts;
        this.headers = headers;
    }

    public Result fixedRate(final byte[][] bodies, final long rate, final double warmupSeconds)
        throws InterruptedException
    {
        final Counters counters = new Counters();
        final int warmup = (int)Math.min(bodies.length, Math.round(rate * warmupSeconds));
        if (rate < 1)
        {
            throw new IllegalArgumentException("rate must be positive");
        }
        final long start = System.nanoTime();
        final long measuredStart = start + due(warmup, rate);
        int i = 0;
        while (i < bodies.length)
        {
            // send every request already due, then sleep a little: pacing in small batches instead of spinning
            // keeps a core for the venue; latency still counts from each request's own intended time
            final long now = System.nanoTime();
            while (i < bodies.length && start + due(i, rate) <= now)
            {
                send(i, bodies[i], start + due(i, rate), i >= warmup, counters, null);
                i++;
            }
            if (i < bodies.length)
            {
                LockSupport.parkNanos(Math.min(PACING_NS, start + due(i, rate) - now));
            }
        }
        counters.awaitAll(bodies.length);
        // from the first measured request's due time to the last answer: a run that falls behind shows a lower rate
        final double seconds = (Math.max(counters.lastAnswerNs.get(), start + due(bodies.length, rate)) -
            measuredStart) /
            1e9;
        return counters.result("fixed", rate, 0, seconds);
    }

    /** When request {@code i} is due, in nanoseconds after the start. */
    private static long due(final long i, final long rate)
    {
        return i * 1_000_000_000L / rate;
    }

    public Result ceiling(final byte[][] bodies, final int concurrency, final double warmupSeconds)
        throws InterruptedException
    {
        final Counters counters = new Counters();
        final Semaphore inFlight = new Semaphore(concurrency);
        final long start = System.nanoTime();
        final long warmupEnd = start + (long)(warmupSeconds * 1e9);
        long measuredStart = -1;
        int sent = 0;
        for (; sent < bodies.length; sent++)
        {
            if (!inFlight.tryAcquire(30, TimeUnit.SECONDS))
            {
                break; // answers stopped coming: the unsent rest are not counted, the unanswered are failures
            }
            final long now = System.nanoTime();
            final boolean measured = now >= warmupEnd;
            if (measured && measuredStart < 0)
            {
                measuredStart = now;
            }
            send(sent, bodies[sent], now, measured, counters, inFlight);
        }
        counters.awaitAll(sent);
        final long lastAnswer = counters.lastAnswerNs.get();
        // no answer at all: no time to divide by, and a rate of 0
        final double seconds = lastAnswer == 0 ? 1 :
            Math.max(1e-9, (lastAnswer - (measuredStart < 0 ? start : measuredStart)) / 1e9);
        return counters.result("ceiling", 0, concurrency, seconds);
    }

    private void send(final int i, final byte[] body, final long intendedNs, final boolean measured,
        final Counters counters, final Semaphore inFlight)
    {
        counters.sent.increment();
        client.submit((i % accounts) % client.connections(), body, headers.apply(i % accounts, body),
            (status, code, error) ->
        {
            final long now = System.nanoTime();
            counters.lastAnswerNs.accumulateAndGet(now, Math::max);
            if (measured)
            {
                counters.count(status, code, error, now - intendedNs);
            }
            counters.finished.increment();
            if (inFlight != null)
            {
                inFlight.release();
            }
        });
    }

    /** Tallies shared by the answering threads. */
    private static final class Counters
    {
        final LongAdder sent = new LongAdder();
        final LongAdder finished = new LongAdder();
        final LongAdder answered = new LongAdder();
        final LongAdder ok = new LongAdder();
        final LongAdder failed = new LongAdder();
        final ConcurrentHashMap<String, LongAdder> refused = new ConcurrentHashMap<>();
        final Recorder latency = new Recorder(TimeUnit.SECONDS.toNanos(60), 3);
        final AtomicLong lastAnswerNs = new AtomicLong();

        void count(final int status, final String code, final Throwable error, final long latencyNs)
        {
            if (error != null)
            {
                failed.increment();
                return;
            }
            answered.increment();
            latency.recordValue(Math.min(latencyNs, TimeUnit.SECONDS.toNanos(60)));
            if (status == 200 && "ok".equals(code))
            {
                ok.increment();
            }
            else
            {
                refused.computeIfAbsent("HTTP".equals(code) ? "HTTP " + status : code, c -> new LongAdder())
                    .increment();
            }
        }

        void awaitAll(final long count) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (finished.sum() < count && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
        }

        Result result(final String mode, final long rate, final int concurrency, final double seconds)
        {
            final Map<String, Long> codes = new TreeMap<>();
            refused.forEach((code, n) -> codes.put(code, n.sum()));
            return new Result(mode, rate, concurrency, seconds, sent.sum(), answered.sum(), ok.sum(), codes,
                failed.sum() + (sent.sum() - finished.sum()), latency.getIntervalHistogram());
        }
    }
}
