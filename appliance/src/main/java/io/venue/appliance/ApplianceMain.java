package io.venue.appliance;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Starts one appliance: {@code [--config FILE] [--data DIR] [--port N]}. Without a file it is the embedded demo
 * (docs/OPERATIONS.md). Ctrl-C (SIGINT) or SIGTERM shuts it down cleanly; a restart recovers from the journals.
 */
public final class ApplianceMain
{
    private ApplianceMain()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (args.length > 0 && "promote".equals(args[0]))
        {
            System.exit(promote(args));
            return;
        }
        final ApplianceContext context;
        try
        {
            context = parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("venue-appliance: " + ex.getMessage());
            System.err.println("usage: venue-appliance [--config FILE] [--data DIR] [--port N]");
            System.err.println("       venue-appliance promote --data DIR [--force]");
            System.exit(2);
            return;
        }
        // the node's events go to the log, one line each; standard output has the banner only
        final Logger logger = LoggerFactory.getLogger("io.venue.appliance");
        final PrintStream log = new PrintStream(new LogLines(logger), true, StandardCharsets.UTF_8);
        final Appliance appliance;
        try
        {
            appliance = Appliance.start(context, log);
        }
        catch (final IllegalStateException | IllegalArgumentException | IOException ex)
        {
            logger.error("venue-appliance: cannot start: {}", ex.getMessage());
            System.exit(1);
            return;
        }
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            logger.info("shutting down: no new requests; applying what is journaled; writing the state");
            appliance.close();
            final Throwable engineFailure = appliance.engineFailure();
            if (engineFailure == null)
            {
                logger.info("stopped cleanly");
            }
            else
            {
                logger.warn(
                    "stopped; the engine had stopped on {}, so its state was not written: the next start replays " +
                    "the journal from the state it last wrote", engineFailure.toString());
            }
            stopped.countDown();
        }, "shutdown"));
        System.out.println(Banner.text(appliance, context));
        System.out.flush();
        stopped.await();
    }

    /**
     * The operator's promotion: asks the standby running on the data folder to become the primary, and waits for it
     * to confirm (exit 0) or refuse (exit 1, the reason on stderr) for up to 30 s (exit 1). {@code --force} promotes
     * even a standby that has not heard a primary since it started (PromotionWatch).
     */
    static int promote(final String[] args) throws Exception
    {
        final boolean force = args.length == 4 && "--force".equals(args[3]);
        if ((args.length != 3 && !force) || !"--data".equals(args[1]))
        {
            System.err.println("usage: venue-appliance promote --data DIR [--force]");
            return 2;
        }
        final Path data = Path.of(args[2]);
        final Path request = data.resolve(PromotionWatch.REQUEST);
        final Path done = data.resolve(PromotionWatch.DONE);
        final Path refused = data.resolve(PromotionWatch.REFUSED);
        if (!Files.isDirectory(data))
        {
            System.err.println("no data folder " + data.toAbsolutePath());
            return 1;
        }
        Files.deleteIfExists(done);
        Files.deleteIfExists(refused);
        // whole or not at all: the standby reads the request as soon as it exists
        DurableFiles.replace(request,
            force ? PromotionWatch.FORCE + ", requested by the operator\n" : "requested by the operator\n");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline)
        {
            if (Files.exists(done) && !Files.exists(request))
            {
                System.out.println("promoted: " + Files.readString(done).trim());
                return 0;
            }
            if (Files.exists(refused) && !Files.exists(request))
            {
                System.err.println("promotion refused: " + Files.readString(refused).trim());
                return 1;
            }
            Thread.sleep(50);
        }
        Files.deleteIfExists(request);
        System.err.println(
            "no standby on " + data.toAbsolutePath() + " took the request within 30 s; request withdrawn");
        return 1;
    }

    static ApplianceContext parse(final String[] args) throws IOException
    {
        ApplianceContext context = new ApplianceContext();
        for (int i = 0; i < args.length; i++)
        {
            if ("--config".equals(args[i]) && i + 1 < args.length)
            {
                context = ApplianceConfigFile.read(Path.of(args[++i]));
            }
        }
        final Path cwd = Path.of("").toAbsolutePath();
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--config" -> i++;
                case "--data" -> ApplianceConfigFile.apply(context, "data.dir", value(args, ++i), cwd);
                case "--port" -> ApplianceConfigFile.apply(context, "http.port", value(args, ++i), cwd);
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
            }
        }
        return context;
    }

    private static String value(final String[] args, final int i)
    {
        if (i >= args.length)
        {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }
}
