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
 * A FIX load generator (docs/PERFORMANCE.md, "FIX order entry"): one {@code order_entry} session over a plain socket,
 * written with the lane's own codec ({@link FixWriter}), against a running appliance with the {@code fix} lane. It
 * funds a fresh trader with the operator key, makes it an institutional agent holding trade and cancel, onboards its
 * credential for FIX (the operator's SetFixOnboarding: every market, no rate tier), logs on (with
 * ResetSeqNumFlag Y), then sends NewOrderSingles: a limit buy, IOC, priced under the book, so each is accepted and
 * cancelled (two ExecutionReports) and the book stays empty. At each fixed rate (open loop: every order has an intended
 * send time, and the round trip runs from it to the order's first ExecutionReport, so a stall counts against every
 * order it delays) it prints p50, p99 and p99.9; then the closed-loop ceiling, {@code --window} orders in flight.
 * <p>
 * usage: {@code java -cp benchmarks.jar io.venue.transport.fix.FixLoadBench --url http://127.0.0.1:8080
 * --operator-key data/keys/operator.key --fix 127.0.0.1:9400 [--rates 1000,2000] [--duration 5] [--warmup 1]
 * [--ceiling 20000] [--window 64] [--chain-id 8453] [--contract 0x5e5e...] [--market 1] [--quote-asset 1]}
 */
public final class FixLoadBench
{
    private static final String SOH = "\u0001";

    private final Map<String, String> options;
    private final FixWriter writer = new FixWriter(4096);
    private Socket socket;
    private OutputStream out;
    private String apiKeyId;
    private long seq;
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
        final LoadAccounts trader = new LoadAccounts(1, Long.parseLong(options.get("chain-id")),
            Address.of(options.get("contract")), Long.parseLong(options.get("market")),
            Long.parseLong(options.get("quote-asset")));
        trader.fund(client, url + "/api/v1/trading/actions", operator);
        trader.createAgents(client, url, Scope.TRADE, Scope.CANCEL);
        trader.onboardFix(client, url + "/api/v1/trading/actions", operator);
        final String[] credential = trader.credential(0);
        apiKeyId = credential[0];
        final String fix = options.get("fix");
        final int colon = fix.lastIndexOf(':');
        socket = new Socket(fix.substring(0, colon), Integer.parseInt(fix.substring(colon + 1)));
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        final Thread reader = new Thread(this::read, "fix-load-reader");
        reader.setDaemon(true);
        writer.begin("A", apiKeyId, null, "VENUE", ++seq, System.currentTimeMillis())
            .string(57, "order_entry").number(98, 0).number(108, 300).character(141, 'Y')
            .string(553, apiKeyId).string(554, credential[1] + ":" + credential[2]).string(1, trader.account(0));
        out.write(writer.finish().toBytes());
        out.flush();
        reader.start();
        final long warmup = Long.parseLong(options.get("warmup"));
        final long duration = Long.parseLong(options.get("duration"));
        for (final String rate : options.get("rates").split(","))
        {
            fixedRate(Long.parseLong(rate.trim()), warmup, duration);
        }
        ceiling(Integer.parseInt(options.get("ceiling")), Integer.parseInt(options.get("window")));
        socket.close();
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
            send(n);
        }
        final long sentNs = System.nanoTime() - begin;
        awaitAnswers(total);
        final Histogram h = histogram;
        System.out.printf(Locale.ROOT, "fix %,d/s: sent %,d in %.2f s (%,.0f/s), answered %,d (%,d rejected); round " +
            "trip from the intended send time p50 %.3f ms, p99 %.3f, p99.9 %.3f, max %.3f (%,d measured)%n", rate,
            total, sentNs / 1e9, total * 1e9 / sentNs, answered.get(), rejected.get(), h.getValueAtPercentile(50) / 1e6,
            h.getValueAtPercentile(99) / 1e6, h.getValueAtPercentile(99.9) / 1e6, h.getMaxValue() / 1e6,
            h.getTotalCount());
    }

    /** {@code count} orders, at most {@code window} without an answer: the session's orders a second. */
    private void ceiling(final int count, final int window) throws Exception
    {
        startRun(count);
        final long begin = System.nanoTime();
        for (int n = 0; n < count; n++)
        {
            while (n - answered.get() >= window)
            {
                Thread.onSpinWait();
            }
            intended[n] = System.nanoTime();
            send(n);
        }
        awaitAnswers(count);
        final long elapsed = System.nanoTime() - begin;
        final Histogram h = histogram;
        System.out.printf(Locale.ROOT, "fix ceiling, %d in flight: %,d orders in %.2f s (%,.0f/s), %,d rejected; " +
            "round trip p50 %.3f ms, p99 %.3f%n", window, count, elapsed / 1e9, count * 1e9 / elapsed,
            rejected.get(), h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6);
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

    private void send(final int n) throws IOException
    {
        writer.begin("D", apiKeyId, null, "VENUE", ++seq, System.currentTimeMillis())
            .string(11, run + "-" + n).string(55, options.get("market")).character(54, '1').character(40, '2')
            .string(44, "1").string(38, "0.001").character(59, '3');
        out.write(writer.finish().toBytes());
        out.flush();
    }

    /** Reads the venue's messages: the first ExecutionReport of each order ends its round trip. */
    private void read()
    {
        final byte[] buffer = new byte[1 << 20];
        int filled = 0;
        try (InputStream in = socket.getInputStream())
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
                    onMessage(new String(buffer, start, end - start, StandardCharsets.ISO_8859_1));
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
            if (buffer[i] == 1 && buffer[i + 1] == '1' && buffer[i + 2] == '0' && buffer[i + 3] == '=' &&
                buffer[i + 7] == 1)
            {
                return i + 8;
            }
        }
        return -1;
    }

    private void onMessage(final String message)
    {
        final String type = field(message, "35");
        if (type.equals("5") || type.equals("3"))
        {
            System.out.println("fix: the venue sent " + message.replace(SOH, "|"));
            return;
        }
        if (!type.equals("8"))
        {
            return;
        }
        final String clOrdId = field(message, "11");
        final int dash = clOrdId.indexOf('-');
        if (dash < 0 || Integer.parseInt(clOrdId.substring(0, dash)) != run)
        {
            return;
        }
        final int n = Integer.parseInt(clOrdId.substring(dash + 1));
        final long[] times = intended;
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
        if (field(message, "150").equals("8"))
        {
            rejected.incrementAndGet();
        }
        answered.incrementAndGet();
    }

    private static String field(final String message, final String tag)
    {
        final String key = SOH + tag + "=";
        final int at = message.indexOf(key);
        if (at < 0)
        {
            return "";
        }
        final int end = message.indexOf(SOH, at + key.length());
        return message.substring(at + key.length(), end < 0 ? message.length() : end);
    }
}
