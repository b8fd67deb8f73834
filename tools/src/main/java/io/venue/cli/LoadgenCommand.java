package io.venue.cli;

import io.venue.codec.Hex;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.loadgen.BslTcpLoadClient;
import io.venue.loadgen.HttpLoadClient;
import io.venue.loadgen.LoadAccounts;
import io.venue.loadgen.LoadRun;
import io.venue.loadgen.LoadTransport;
import io.venue.loadgen.PercentilePlot;
import io.venue.transport.bsl.CompactOrders;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * {@code venue loadgen}: signed submits against a running appliance, open loop at fixed rates and optionally a
 * closed-loop throughput ceiling; prints a table, writes JSON and a percentile plot.
 */
@Command(name = "loadgen", mixinStandardHelpOptions = true,
    description =
        "Load generator: funds fresh traders through the operator, pre-signs their actions, then submits them " +
        "at fixed rates (open loop, latency from the intended send time) and, with --ceiling, as fast as answers come.")
final class LoadgenCommand implements Callable<Integer>
{
    private static final String COMPACT_ROUTE = "/api/v1/bsl/orders/compact";
    /** The span a compact ceiling run's orders are dated over (the lane takes orders within 15 s of its clock). */
    private static final long CEILING_DATED_MS = 5_000;

    @Spec
    CommandSpec spec;

    @Mixin
    DeploymentOptions deployment;

    @Option(names = "--url", defaultValue = "http://127.0.0.1:8080",
        description = "The appliance (default: ${DEFAULT-VALUE}).")
    String url;

    @Option(names = "--operator-key", required = true,
        description = "The operator's key file (the demo's data/keys/operator.key).")
    Path operatorKey;

    @Option(names = "--rates", split = ",", defaultValue = "1000,5000",
        description = "Fixed rates, actions/s (default: ${DEFAULT-VALUE}).")
    List<Long> rates;

    @Option(names = "--duration", defaultValue = "5",
        description = "Measured seconds per rate (default: ${DEFAULT-VALUE}).")
    double duration;

    @Option(names = "--warmup", defaultValue = "1",
        description = "Seconds sent first and not recorded (default: ${DEFAULT-VALUE}).")
    double warmup;

    @Option(names = "--ceiling", defaultValue = "0",
        description = "Also run closed loop with this many requests in flight (0: no).")
    int ceiling;

    @Option(names = "--ceiling-actions", defaultValue = "100000",
        description = "Actions the ceiling run sends (default: ${DEFAULT-VALUE}).")
    int ceilingActions;

    @Option(names = "--accounts",
        description = "Traders (default: enough for the highest rate at 40 actions/s each, at least 50).")
    Integer accounts;

    @Option(names = "--market", defaultValue = "1", description = "Spot market to bid in (default: ${DEFAULT-VALUE}).")
    long market;

    @Option(names = "--quote-asset", defaultValue = "1",
        description = "The market's quote asset, deposited to each trader (default: ${DEFAULT-VALUE}).")
    long quoteAsset;

    @Option(names = "--sign-threads", defaultValue = "2",
        description = "Threads that pre-sign (default: ${DEFAULT-VALUE}).")
    int signThreads;

    @Option(names = "--connections", defaultValue = "64",
        description = "Keep-alive connections; each trader uses one (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--compact", defaultValue = "0",
        description = "Send compact binary requests of this many orders (an even " +
        "number, 2 to 1000) on the MM lane, each trader through an institutional agent it makes; rates count orders " +
        "(default: 0, JSON submits on the trading route).")
    int compact;

    @Option(names = "--bsl-tcp", description = "With --compact: send the compact requests as Orders messages over " +
        "BSL Direct TCP sessions (HOST:PORT, the bundle's bslTcp; lanes=http,bsl-tcp), one session per trader logged " +
        "in with its agent's credential, instead of the HTTP compact route.")
    String bslTcp;

    @Option(names = "--out", description = "Write the results as JSON here.")
    Path out;

    @Option(names = "--plot", description = "Write a latency-by-percentile PNG here.")
    Path plot;

    @Override
    public Integer call() throws Exception
    {
        final PrintWriter log = spec.commandLine().getOut();
        if (rates.stream().anyMatch(r -> r < 1) || duration <= 0 || warmup < 0 || ceiling < 0 || connections < 1)
        {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                "--rates must be positive, --duration positive, --warmup and --ceiling not negative, --connections " +
                "positive");
        }
        if (compact != 0 && (compact < 2 || compact > CompactOrders.MAX_ORDERS || compact % 2 != 0 ||
            rates.stream().anyMatch(r -> r % compact != 0)))
        {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                "--compact is an even number from 2 to 1000 (a bid and its cancel, again), and every rate a " +
                "multiple of it");
        }
        if (bslTcp != null && (compact == 0 || !bslTcp.matches("[^:]+:[0-9]+")))
        {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                "--bsl-tcp is HOST:PORT and goes with --compact");
        }
        final long maxRate = rates.stream().mapToLong(Long::longValue).max().orElse(0);
        final int traders = accounts != null ? accounts :
            (int)Math.max(50,
                (maxRate + LoadAccounts.ACTIONS_PER_ACCOUNT_PER_SECOND - 1) /
                LoadAccounts.ACTIONS_PER_ACCOUNT_PER_SECOND);
        final String baseUrl = url.replaceAll("/+$", "");
        final String submit = baseUrl + Submit.ROUTE;
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).executor(Executors.newFixedThreadPool(2, r ->
            {
                final Thread t = new Thread(r, "loadgen-answers");
                t.setDaemon(true);
                return t;
            })).build();
        final Secp256k1KeyPair operator = Secp256k1KeyPair.fromPrivateKey(
            Hex.fromHex(Secrets.read(operatorKey, "--operator-key")));
        final LoadAccounts load = new LoadAccounts(traders, deployment.chainId, deployment.contractAddress(),
            market, quoteAsset);

        long begin = System.nanoTime();
        load.fund(client, submit, operator);
        log.printf(Locale.ROOT, "funded %d traders in %.1f s%n", traders, (System.nanoTime() - begin) / 1e9);

        if (compact > 0)
        {
            begin = System.nanoTime();
            load.createAgents(client, baseUrl);
            log.printf(Locale.ROOT, "made %d institutional agents in %.1f s%n", traders,
                (System.nanoTime() - begin) / 1e9);
        }
        // a run's connections are opened once its requests are signed: the lanes close a connection that sends nothing
        // within their header or login deadline, and the signing takes seconds
        final Transports transports = () -> bslTcp != null ?
            new BslTcpLoadClient(bslTcp.substring(0, bslTcp.lastIndexOf(':')),
                Integer.parseInt(bslTcp.substring(bslTcp.lastIndexOf(':') + 1)), traders, load::bslLogin) :
            new HttpLoadClient(compact > 0 ? baseUrl + COMPACT_ROUTE : submit, Math.min(connections, traders));
        // how fast this machine signs, measured once: compact orders are dated from when the signing will have ended
        final double signaturesPerSecond = compact > 0 ? load.signaturesPerSecond(signThreads) : 0;
        final Function<LoadTransport, LoadRun> runOn = transport -> compact > 0 && bslTcp == null ?
            new LoadRun(transport, traders, (trader, body) -> load.svcHeaders(trader, COMPACT_ROUTE, body)) :
            new LoadRun(transport, traders);
        final List<LoadRun.Result> results = new ArrayList<>();
        for (final long rate : rates)
        {
            begin = System.nanoTime();
            final byte[][] bodies;
            final long requestRate = compact > 0 ? rate / compact : rate;
            long startMs = 0;
            if (compact > 0)
            {
                // the orders carry their due time, after the signing (measured speed, with a margin) and a second
                final int requests = (int)Math.round(requestRate * (warmup + duration));
                startMs = datedStart(requests, signaturesPerSecond);
                bodies = load.signCompact(requests, compact, signThreads, startMs, requestRate);
            }
            else
            {
                bodies = load.sign((int)Math.round(rate * (warmup + duration)), signThreads);
            }
            log.printf(Locale.ROOT, "signed %,d actions in %.1f s%n", (long)bodies.length * perRequest(),
                (System.nanoTime() - begin) / 1e9);
            if (compact > 0)
            {
                waitFor(startMs, log);
            }
            final LoadRun.Result result;
            try (LoadTransport transport = transports.open())
            {
                result = runOn.apply(transport).fixedRate(bodies, requestRate, warmup);
            }
            results.add(result);
            log.println(line(result));
            log.flush();
        }
        if (ceiling > 0)
        {
            // compact orders are dated from the end of the signing over at most CEILING_DATED_MS, whatever the venue's
            // speed, so a request sent early or late by up to the lane's 15 s less that span is still taken
            final int requests = Math.max(1, ceilingActions / perRequest());
            final long startMs = compact == 0 ? 0 : datedStart(requests, signaturesPerSecond);
            final byte[][] bodies = compact > 0 ? load.signCompact(requests, compact, signThreads, startMs,
                requests * 1_000.0 / CEILING_DATED_MS) : load.sign(ceilingActions, signThreads);
            if (compact > 0)
            {
                waitFor(startMs, log);
            }
            final LoadRun.Result result;
            try (LoadTransport transport = transports.open())
            {
                result = runOn.apply(transport).ceiling(bodies, ceiling, warmup);
            }
            results.add(result);
            log.println(line(result));
        }
        if (out != null)
        {
            Files.writeString(out, json(traders, results));
            log.println("wrote " + out);
        }
        if (plot != null)
        {
            final List<String> labels = new ArrayList<>();
            final List<Histogram> histograms = new ArrayList<>();
            for (final LoadRun.Result r : results)
            {
                labels.add(label(r));
                histograms.add(r.latencyNs());
            }
            PercentilePlot.write(labels, histograms,
                compact > 0 ? "compact requests of " + compact + " signed orders, latency " +
                "from intended send time" : "signed submits, latency from intended send time", plot);
            log.println("wrote " + plot);
        }
        log.flush();
        return results.stream().allMatch(r -> r.failed() == 0) ? 0 : 1;
    }

    /** Opens a run's connections (or sessions). */
    @FunctionalInterface
    private interface Transports
    {
        LoadTransport open() throws IOException;
    }

    /** When {@code requests} compact requests will be signed: the measured signing time with a margin, and a second. */
    private long datedStart(final int requests, final double signaturesPerSecond)
    {
        return System.currentTimeMillis() + 1_000 + (long)(requests * (double)compact * 1_300 / signaturesPerSecond);
    }

    /** Waits until the time the pre-signed orders are dated from, or says the signing took longer than expected. */
    private static void waitFor(final long startMs, final PrintWriter log) throws InterruptedException
    {
        final long late = System.currentTimeMillis() - startMs;
        if (late > 0)
        {
            log.printf(Locale.ROOT,
                "signing took %,d ms longer than estimated: the first orders are dated that far back " +
                "(the lane takes 15,000 ms)%n", late);
        }
        Thread.sleep(Math.max(0, -late));
        log.printf(Locale.ROOT, "sending from %d (Unix ms)%n", System.currentTimeMillis());
        log.flush();
    }

    /** Orders a request carries: 1 for JSON submits. */
    private int perRequest()
    {
        return Math.max(1, compact);
    }

    private String label(final LoadRun.Result r)
    {
        return r.mode().equals("fixed") ? String.format(Locale.ROOT, "%,d/s", r.targetRate() * perRequest()) :
            String.format(Locale.ROOT, "ceiling, %d in flight (%,.0f/s)", r.concurrency(),
                r.ok() * (double)perRequest() / r.seconds());
    }

    private String line(final LoadRun.Result r)
    {
        final Histogram h = r.latencyNs();
        // actions a second counts the orders of requests answered with every order accepted
        return String.format(Locale.ROOT,
            "%-34s answered %,.0f actions/s over %.1f s (%,.0f requests/s): ok %,d, refused %s, " +
            "failed %d; latency p50 %.3f ms, p90 %.3f, p99 %.3f, p99.9 %.3f, max %.3f", label(r),
            r.ok() * (double)perRequest() / r.seconds(), r.seconds(), r.answeredPerSecond(), r.ok(), r.refused(),
            r.failed(), ms(h, 50), ms(h, 90), ms(h, 99), ms(h, 99.9), h.getMaxValue() / 1e6);
    }

    private static double ms(final Histogram h, final double percentile)
    {
        return h.getValueAtPercentile(percentile) / 1e6;
    }

    private String json(final int traders, final List<LoadRun.Result> results)
    {
        final StringBuilder b = new StringBuilder();
        b.append("{\"url\":\"").append(url).append("\",\"traders\":").append(traders).append(",\"ordersPerRequest\":")
            .append(perRequest()).append(",\"runs\":[");
        for (int i = 0; i < results.size(); i++)
        {
            final LoadRun.Result r = results.get(i);
            final Histogram h = r.latencyNs();
            b.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT,
                "{\"mode\":\"%s\",\"targetRate\":%d,\"concurrency\":%d,\"seconds\":%.3f,\"sent\":%d,\"answered\":%d," +
                "\"answeredPerSecond\":%.1f,\"ok\":%d,\"failed\":%d,\"refused\":{", r.mode(), r.targetRate(),
                r.concurrency(), r.seconds(), r.sent(), r.answered(), r.answeredPerSecond(), r.ok(), r.failed()));
            final StringBuilder codes = new StringBuilder();
            r.refused()
                .forEach((code, n) -> codes.append(codes.length() == 0 ? "" : ",").append('"').append(code)
                    .append("\":").append(n));
            b.append(codes)
                .append(String.format(Locale.ROOT, "},\"latencyMs\":{\"p50\":%.3f,\"p90\":%.3f,\"p99\":%.3f," +
                "\"p999\":%.3f,\"max\":%.3f}}", ms(h, 50), ms(h, 90), ms(h, 99), ms(h, 99.9), h.getMaxValue() / 1e6));
        }
        return b.append("]}\n").toString();
    }
}
