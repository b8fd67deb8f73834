package io.venue.appliance;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

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
        final ApplianceContext context;
        try
        {
            context = parse(args);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("venue-appliance: " + ex.getMessage());
            System.err.println("usage: venue-appliance [--config FILE] [--data DIR] [--port N]");
            System.exit(2);
            return;
        }
        final Appliance appliance = Appliance.start(context, System.out);
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            System.out.println("shutting down: no new requests; applying what is journaled; writing the state");
            appliance.close();
            System.out.println("stopped cleanly");
            stopped.countDown();
        }, "shutdown"));
        System.out.println(Banner.text(appliance, context));
        System.out.flush();
        stopped.await();
    }

    static ApplianceContext parse(final String[] args) throws java.io.IOException
    {
        ApplianceContext context = new ApplianceContext();
        for (int i = 0; i < args.length; i++)
        {
            if ("--config".equals(args[i]) && i + 1 < args.length)
            {
                context = ApplianceContext.fromFile(Path.of(args[++i]));
            }
        }
        final Path cwd = Path.of("").toAbsolutePath();
        for (int i = 0; i < args.length; i++)
        {
            switch (args[i])
            {
                case "--config" -> i++;
                case "--data" -> context.set("data.dir", value(args, ++i), cwd);
                case "--port" -> context.set("http.port", value(args, ++i), cwd);
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
