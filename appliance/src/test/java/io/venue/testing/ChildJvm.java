package io.venue.testing;

import io.venue.tuning.JvmFlags;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A main class of the test class path run in a JVM of its own, with the project's JVM flags, its output
 * collected line by line: the process tests (crashes, failover) kill and restart such JVMs. Every one
 * started is remembered, so {@link #stopAll()} (in an {@code @AfterEach}) leaves none running after a
 * failed test.
 */
public final class ChildJvm
{
    private static final List<Process> STARTED = new CopyOnWriteArrayList<>();

    public final Process process;
    public final List<String> lines = new CopyOnWriteArrayList<>();

    private ChildJvm(final Process process)
    {
        this.process = process;
        final Thread reader = new Thread(() ->
        {
            try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
            {
                String line;
                while ((line = in.readLine()) != null)
                {
                    lines.add(line);
                }
            }
            catch (final IOException ignored)
            {
                // the process was killed
            }
        }, "child-jvm-output");
        reader.setDaemon(true);
        reader.start();
    }

    public static ChildJvm start(final Class<?> mainClass, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JvmFlags.flags());
        command.add("-cp");
        // surefire runs tests from a manifest-only jar; it names the real class path separately
        command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        STARTED.add(process);
        return new ChildJvm(process);
    }

    /** Kills every child still running and waits for it. */
    public static void stopAll() throws InterruptedException
    {
        for (final Process process : STARTED)
        {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
        STARTED.clear();
    }

    /** The highest N of the lines "ACK N" the child printed (what it acknowledged before it died). */
    public long lastAcknowledged()
    {
        return lines.stream().filter(l -> l.startsWith("ACK ")).mapToLong(l -> Long.parseLong(l.substring(4)))
            .max().orElse(0);
    }

    /** The first line starting with {@code prefix}, waiting for it; fails when the child ends or time runs out. */
    public String awaitLine(final String prefix, final int seconds) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline)
        {
            for (final String line : lines)
            {
                if (message(line).startsWith(prefix))
                {
                    return message(line);
                }
            }
            if (!process.isAlive())
            {
                // let the reader take the last lines
                Thread.sleep(200);
                for (final String line : lines)
                {
                    if (message(line).startsWith(prefix))
                    {
                        return message(line);
                    }
                }
                throw new AssertionError("the child ended without " + prefix + ": " + lines);
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no " + prefix + " within " + seconds + " s: " + lines + threadDump());
    }

    /** The child's threads as it hangs (SIGQUIT makes a JVM print them to its output), to explain a timeout. */
    private String threadDump() throws InterruptedException
    {
        try
        {
            final int before = lines.size();
            new ProcessBuilder("kill", "-QUIT", Long.toString(process.pid())).start().waitFor(5, TimeUnit.SECONDS);
            Thread.sleep(2_000);
            return "\nthe child's threads:\n" + String.join("\n", lines.subList(before, lines.size()));
        }
        catch (final IOException ex)
        {
            return "\n(no thread dump: " + ex + ")";
        }
    }

    /**
     * A line of the child's output as the node said it: a line of its standard output as it is, one of its log lines
     * ("time [thread] LEVEL logger - message") without what the logging set-up puts before the message.
     */
    public static String message(final String line)
    {
        final int message = line.indexOf(" - ");
        return message > 0 && !line.isEmpty() && Character.isDigit(line.charAt(0)) ? line.substring(message + 3) : line;
    }
}
