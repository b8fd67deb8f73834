package io.venue.transport.fix;

import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.action.Address;
import io.venue.loadgen.LoadAccounts;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A FIX load generator (docs/PERFORMANCE.md, "FIX order entry"): {@code --sessions} {@code order_entry} sessions
 * over plain sockets, written with the lane's own codec ({@link FixWriter}), against a running appliance with the
 * {@code fix} lane. It funds one fresh trader a session with the operator key, makes each an institutional agent
 * holding trade and cancel, onboards each credential for FIX (the operator's SetFixOnboarding: FIX on, the node's
 * default rate), logs each on (with ResetSeqNumFlag Y), then sends NewOrderSingles, order n on session n mod
 * sessions: a limit buy, IOC, priced under the book, so each is accepted and cancelled (two ExecutionReports) and the
 * book stays empty. At each fixed rate (open loop: every order has an intended send time, and the round trip runs
 * from it to the order's first ExecutionReport, so a stall counts against every order it delays) it prints p50, p99
 * and p99.9; then the closed-loop ceiling, {@code --window} orders in flight over all sessions, written a session's
 * waiting orders at a time (one socket write for all the orders the window lets go at once), so the client's own
 * system calls do not bound the lane it measures on a host whose cores it shares.
 * <p>
 * usage: {@code java -cp benchmarks.jar io.venue.transport.fix.FixLoadBench --url http://127.0.0.1:8080
 * --operator-key data/keys/operator.key --fix 127.0.0.1:9400 [--sessions 1] [--rates 1000,2000] [--duration 5]
 * [--warmup 1] [--ceiling 20000] [--window 64] [--chain-id 8453] [--contract 0x5e5e...] [--market 1]
 * [--quote-asset 1]}
 */
public final class FixLoadBench
{
    private static final byte SOH = 1;

    /** One logged-on session: its socket, its writer and a buffer of orders not yet written. */
    private final class Session
    {
        private final String apiKeyId;
        private final Socket socket;
        private final OutputStream out;
        private final FixWriter writer = new FixWriter(4096);
        private final byte[] pending = new byte[1 << 16];
        private int pendingLength;
        private long seq;

        Session(final String host, final int port, final String apiKeyId) throws IOException
        {
            this.apiKeyId = apiKeyId;
            socket = new Socket(host, port);
            socket.setTcpNoDelay(true);
            out = socket.getOutputStream();
        }

        void logon(final String password, final String account) throws IOException
        {
            writer.begin("A", apiKeyId, null, "VENUE", ++seq, System.currentTimeMillis())
                .string(57, "order_entry").number(98, 0).number(108, 300).character(141, 'Y')
                .string(553, apiKeyId).string(554, password).string(1, account);
            append();
            flush();
        }

        /** Adds order n to what the session writes next; writes first when the buffer is full. */
        void order(final int n) throws IOException
        {
            writer.begin("D", apiKeyId, null, "VENUE", ++seq, System.currentTimeMillis())
                .number(11, (long)run * ORDER_IDS + n).string(55, options.get("market")).character(54, '1')
                .character(40, '2').string(44, "1").string(38, "0.001").character(59, '3');
            append();
        }

        private void append() throws IOException
        {
            writer.finish();
            final int length = writer.messageLength();
            if (pendingLength + length > pending.length)
            {
                flush();
            }
            writer.buffer().getBytes(writer.messageStart(), pending, pendingLength, length);
            pendingLength += length;
        }

        void flush() throws IOException
        {
            if (pendingLength > 0)
            {
                out.write(pending, 0, pendingLength);
                out.flush();
                pendingLength = 0;
            }
        }
    }

    /** ClOrdID is run × this + the order's number: one decimal field, parsed without text. */
    private static final long ORDER_IDS = 1_000_000_000L;

    private final Map<String, String> options;
    private Session[] sessions;
    /** Intended send time (ns) of order n of the current run; 0 once its first report came. */
    private long[] intended = new long[0];
    private volatile Histogram histogram;
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private volatile int run;

    private FixLoadBench(final Map<String, String> options)
    {
        this.options = options;
    }

    public static void main(final String[] args) throws Exception
    {
        final Map<String, String> options = new LinkedHashMap<>();
        options.put("sessions", "1");
        options.put("rates", "1000,2000");
        options.put("duration", "5");
        options.put("warmup", "1");
        options.put("ceiling", "20000");
        options.put("window", "64");
        options.put("chain-id", "8453");
        options.put("contract", "0x5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e");
        options.put("market", "1");
        options.put("quote-asset", "1");
        for (int i = 0; i + 1 < args.length; i += 2)
        {
            if (!args[i].startsWith("--"))
            {
                throw new IllegalArgumentException("options are --name value: " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        for (final String required : List.of("url", "operator-key", "fix"))
        {
            if (!options.containsKey(required))
            {
                throw new IllegalArgumentException("--" + required + " is required (see the class comment)");
            }
        }
        new FixLoadBench(options).runAll();
    }

    private void runAll() throws Exception
    {
        final String url = options.get("url").replaceAll("/+$", "");
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
        final Secp256k1KeyPair operator = Secp256k1KeyPair.fromPrivateKey(Hex.fromHex(
            Files.readString(Path.of(options.get("operator-key"))).trim()));
        final int count = Integer.parseInt(options.get("sessions"));
        final LoadAccounts traders = new LoadAccounts(count, Long.parseLong(options.get("chain-id")),
            Address.of(options.get("contract")), Long.parseLong(options.get("market")),
            Long.parseLong(options.get("quote-asset")));
        traders.fund(client, url + "/api/v1/trading/actions", operator);
        traders.createAgents(client, url, Scope.TRADE, Scope.CANCEL);
        traders.onboardFix(client, url + "/api/v1/trading/actions", operator);
        final String fix = options.get("fix");
        final int colon = fix.lastIndexOf(':');
        sessions = new Session[count];
        for (int i = 0; i < count; i++)
        {
            final String[] credential = traders.credential(i);
            sessions[i] = new Session(fix.substring(0, colon), Integer.parseInt(fix.substring(colon + 1)),
                credential[0]);
            final Session session = sessions[i];
            final Thread reader = new Thread(() -> read(session), "fix-load-reader-" + i);
            reader.setDaemon(true);
            session.logon(credential[1] + ":" + credential[2], traders.account(i));
            reader.start();
        }
        final long warmup = Long.parseLong(options.get("warmup"));
        final long duration = Long.parseLong(options.get("duration"));
        for (final String rate : options.get("rates").split(","))
        {
            fixedRate(Long.parseLong(rate.trim()), warmup, duration);
        }
        ceiling(Integer.parseInt(options.get("ceiling")), Integer.parseInt(options.get("window")));
        for (final Session session : sessions)
        {
            session.socket.close();
        }
    }

    /** Orders at {@code rate} a second for {@code warmup + duration} s; the round trips of the last duration. */
    private void fixedRate(final long rate, final long warmup, final long duration) throws Exception
    {
        final int total = (int)(rate * (warmup + duration));
        final int measuredFrom = (int)(rate * warmup);
        startRun(total);
        final long periodNs = 1_000_000_000L / rate;
        final long begin = System.nanoTime() + 10_000_000L;
        for (int n = 0; n < total; n++)
        {
            final long due = begin + n * periodNs;
            long now;
            while ((now = System.nanoTime()) < due)
            {
                LockSupport.parkNanos(Math.min(due - now, 200_000));
            }
            intended[n] = n >= measuredFrom ? due : -due;
            final Session session = sessions[n % sessions.length];
            session.order(n);
            session.flush();
        }
        final long sentNs = System.nanoTime() - begin;
        awaitAnswers(total);
        final Histogram h = histogram;
        System.out.printf(Locale.ROOT, "fix %,d/s over %d sessions: sent %,d in %.2f s (%,.0f/s), answered %,d (%,d " +
            "rejected); round trip from the intended send time p50 %.3f ms, p99 %.3f, p99.9 %.3f, max %.3f (%,d " +
            "measured)%n", rate, sessions.length, total, sentNs / 1e9, total * 1e9 / sentNs, answered.get(),
            rejected.get(), h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6,
            h.getValueAtPercentile(99.9) / 1e6, h.getMaxValue() / 1e6, h.getTotalCount());
    }

    /**
     * {@code count} orders, at most {@code window} without an answer over all sessions: the sessions' orders a second.
     * The orders the window lets go at once are written a session at a time, each session's in one write.
     */
    private void ceiling(final int count, final int window) throws Exception
    {
        startRun(count);
        final long begin = System.nanoTime();
        int n = 0;
        while (n < count)
        {
            final long free = window - (n - answered.get());
            if (free <= 0)
            {
                Thread.onSpinWait();
                continue;
            }
            final long now = System.nanoTime();
            for (long k = 0; k < free && n < count; k++, n++)
            {
                intended[n] = now;
                sessions[n % sessions.length].order(n);
            }
            for (final Session session : sessions)
            {
                session.flush();
            }
        }
        awaitAnswers(count);
        final long elapsed = System.nanoTime() - begin;
        final Histogram h = histogram;
        System.out.printf(Locale.ROOT, "fix ceiling, %d sessions, %d in flight: %,d orders in %.2f s (%,.0f/s), %,d " +
            "rejected; round trip p50 %.3f ms, p99 %.3f%n", sessions.length, window, count, elapsed / 1e9,
            count * 1e9 / elapsed, rejected.get(), h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6);
    }

    private void startRun(final int total)
    {
        intended = new long[total];
        histogram = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        answered.set(0);
        rejected.set(0);
        run++;
    }

    private void awaitAnswers(final int total) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (answered.get() < total && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
        if (answered.get() < total)
        {
            System.out.printf(Locale.ROOT, "fix: %,d of %,d orders unanswered after 60 s%n", total - answered.get(),
                total);
        }
    }

    /** Reads one session's messages: the first ExecutionReport of each order ends its round trip. */
    private void read(final Session session)
    {
        final byte[] buffer = new byte[1 << 20];
        int filled = 0;
        try (InputStream in = session.socket.getInputStream())
        {
            while (true)
            {
                final int read = in.read(buffer, filled, buffer.length - filled);
                if (read < 0)
                {
                    return;
                }
                filled += read;
                int start = 0;
                while (true)
                {
                    final int end = messageEnd(buffer, start, filled);
                    if (end < 0)
                    {
                        break;
                    }
                    onMessage(buffer, start, end);
                    start = end;
                }
                System.arraycopy(buffer, start, buffer, 0, filled - start);
                filled -= start;
            }
        }
        catch (final IOException ex)
        {
            // the socket closed: the run is over
        }
    }

    /** The end of the message starting at {@code from} (after its CheckSum field), or -1 when it is not all here. */
    private static int messageEnd(final byte[] buffer, final int from, final int to)
    {
        for (int i = from; i + 7 < to; i++)
        {
            if (buffer[i] == SOH && buffer[i + 1] == '1' && buffer[i + 2] == '0' && buffer[i + 3] == '=' &&
                buffer[i + 7] == SOH)
            {
                return i + 8;
            }
        }
        return -1;
    }

    private void onMessage(final byte[] buffer, final int from, final int to)
    {
        final int type = valueAt(buffer, from, to, "35");
        if (type < 0)
        {
            return;
        }
        if (buffer[type] == '5' || buffer[type] == '3')
        {
            System.out.println("fix: the venue sent " +
                new String(buffer, from, to - from, StandardCharsets.ISO_8859_1).replace('\u0001', '|'));
            return;
        }
        if (buffer[type] != '8' || buffer[type + 1] != SOH)
        {
            return;
        }
        final long clOrdId = number(buffer, valueAt(buffer, from, to, "11"));
        if (clOrdId < 0 || clOrdId / ORDER_IDS != run)
        {
            return;
        }
        final int n = (int)(clOrdId % ORDER_IDS);
        final long[] times = intended;
        if (n >= times.length)
        {
            return;
        }
        final long due = times[n];
        if (due == 0)
        {
            return;
        }
        times[n] = 0;
        if (due > 0)
        {
            histogram.recordValue(Math.min(System.nanoTime() - due, TimeUnit.SECONDS.toNanos(60)));
        }
        final int execType = valueAt(buffer, from, to, "150");
        if (execType >= 0 && buffer[execType] == '8')
        {
            rejected.incrementAndGet();
        }
        answered.incrementAndGet();
    }

    /** Where the value of {@code tag} starts in the message, or -1 when the message has no such field. */
    private static int valueAt(final byte[] buffer, final int from, final int to, final String tag)
    {
        final int length = tag.length();
        for (int i = from; i + length + 1 < to; i++)
        {
            if ((i == from || buffer[i - 1] == SOH) && buffer[i + length] == '=')
            {
                boolean same = true;
                for (int k = 0; k < length && same; k++)
                {
                    same = buffer[i + k] == tag.charAt(k);
                }
                if (same)
                {
                    return i + length + 1;
                }
            }
        }
        return -1;
    }

    /** The decimal digits from {@code at} to the next SOH, or -1 (none there, or not all digits). */
    private static long number(final byte[] buffer, final int at)
    {
        if (at < 0)
        {
            return -1;
        }
        long value = 0;
        int i = at;
        for (; i < buffer.length && buffer[i] != SOH; i++)
        {
            final int digit = buffer[i] - '0';
            if (digit < 0 || digit > 9)
            {
                return -1;
            }
            value = value * 10 + digit;
        }
        return i == at ? -1 : value;
    }
}
