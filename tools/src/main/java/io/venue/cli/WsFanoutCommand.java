package io.venue.cli;

import io.venue.loadgen.WsFanout;
import io.venue.loadgen.WsNioFanout;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;

/**
 * {@code venue ws-fanout}: many public WebSocket subscribers of the same channels, while another process (for example
 * {@code venue loadgen}) sends orders; prints the frames delivered per second, any gap in a channel's {@code seq}, and
 * the delay from a frame's {@code ts} to its arrival at the last subscriber.
 */
@Command(name = "ws-fanout", mixinStandardHelpOptions = true,
    description = "Public WebSocket subscribers of the same channels: frames delivered per second, seq gaps, and the " +
        "delay from each frame's ts to the last subscriber that received it (ms, this host's clock).")
final class WsFanoutCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--url", defaultValue = "ws://127.0.0.1:8080/api/v1/ws/public",
        description = "The public stream (default: ${DEFAULT-VALUE}).")
    String url;

    @Option(names = "--subscribers", defaultValue = "1000", description = "Connections (default: ${DEFAULT-VALUE}).")
    int subscribers;

    @Option(names = "--stalled", defaultValue = "0",
        description = "Of the subscribers, how many stop reading once subscribed (default: ${DEFAULT-VALUE}).")
    int stalled;

    @Option(names = "--channels", split = ",", defaultValue = "book.1,trades.1",
        description = "Channels each subscribes to (default: ${DEFAULT-VALUE}).")
    List<String> channels;

    @Option(names = "--duration", defaultValue = "30", description = "Seconds recorded (default: ${DEFAULT-VALUE}).")
    double duration;

    @Option(names = "--threads", defaultValue = "2",
        description = "Threads that read the subscribers' frames with --client java (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--client", defaultValue = "nio",
        description = "nio: every subscriber on one thread with non-blocking sockets, reading only each frame's ch, " +
            "seq and ts (next to no CPU beside the server measured); java: Java's WebSocket client, each frame " +
            "parsed as text (default: ${DEFAULT-VALUE}).")
    String client;

    @Override
    public Integer call() throws Exception
    {
        if (subscribers < 1 || duration <= 0 || threads < 1 || channels.isEmpty() || stalled < 0 ||
            stalled > subscribers)
        {
            throw new ParameterException(spec.commandLine(),
                "--subscribers, --duration and --threads must be positive, --channels not empty, --stalled from 0 " +
                "to --subscribers");
        }
        if (!"nio".equals(client) && !"java".equals(client))
        {
            throw new ParameterException(spec.commandLine(), "--client is nio or java");
        }
        final PrintWriter out = spec.commandLine().getOut();
        final WsFanout.Result result;
        if ("nio".equals(client))
        {
            try (WsNioFanout fanout = new WsNioFanout(url, subscribers, stalled, channels))
            {
                out.printf(Locale.ROOT, "%d subscribers of %s (one thread, non-blocking)%n", subscribers,
                    String.join(",", channels));
                out.flush();
                fanout.start();
                Thread.sleep((long)(duration * 1_000));
                result = fanout.stop(duration, 1_000);
                out.printf(Locale.ROOT, "connections closed by the server %d%n", fanout.closedByServer());
            }
        }
        else
        {
            final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .executor(Executors.newFixedThreadPool(threads, r ->
                {
                    final Thread thread = new Thread(r, "ws-fanout");
                    thread.setDaemon(true);
                    return thread;
                })).build();
            try (WsFanout fanout = new WsFanout(url, subscribers, stalled, channels, http))
            {
                out.printf(Locale.ROOT, "%d subscribers of %s%n", subscribers, String.join(",", channels));
                out.flush();
                fanout.start();
                Thread.sleep((long)(duration * 1_000));
                result = fanout.stop(duration, 1_000);
            }
        }
        final Histogram delays = result.lastDelayMs();
        out.printf(Locale.ROOT, "frames delivered %,d (%,.0f/s), seq gaps %d, distinct frames %,d%n",
            result.frames(), result.framesPerSecond(), result.gaps(), delays.getTotalCount());
        out.printf(Locale.ROOT, "delay ts -> last subscriber, ms: p50 %d  p99 %d  p99.9 %d  max %d%n",
            delays.getValueAtPercentile(50), delays.getValueAtPercentile(99),
            delays.getValueAtPercentile(99.9), delays.getMaxValue());
        return result.gaps() == 0 ? 0 : 1;
    }
}
