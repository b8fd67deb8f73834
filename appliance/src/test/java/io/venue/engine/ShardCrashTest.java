package io.venue.engine;

import io.venue.codec.Hex;
import io.venue.tuning.JvmFlags;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.BufferedOutputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kills a shard process with SIGKILL (no shutdown hook, no close) at random moments while it journals and
 * applies commands, restarts it each time, and finally checks that the event journal holds exactly the
 * bytes of an uninterrupted run and the recovered state the same hash: nothing lost, nothing twice. Every
 * command a killed process acknowledged (journaled) is found by the next one's recovery.
 */
class ShardCrashTest
{
    private static final int COMMANDS = 150_000;
    /** Kills per run: 5 in CI; a long run raises it with -Dvenue.crash.kills=N (docs/OPERATIONS.md). */
    private static final int KILLS = Integer.getInteger("venue.crash.kills", 5);

    @TempDir
    Path folder;

    /** Every shard process started, so none outlives a failed test. */
    private static final List<Process> STARTED = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopShards() throws InterruptedException
    {
        for (final Process process : STARTED)
        {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
        STARTED.clear();
    }

    @Test
    void killedAndRestartedShardEndsWithTheBytesOfAnUninterruptedRun() throws Exception
    {
        final EngineHarness reference = new EngineHarness(RandomStream.config(), false);
        new RandomStream(reference, 2026).setUp().run(COMMANDS);
        final List<byte[]> records = ShardRecoveryTest.commands(reference);
        final Path source = folder.resolve("source.bin");
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(source.toFile()))))
        {
            for (final byte[] record : records)
            {
                out.writeInt(record.length);
                out.write(record);
            }
        }

        final Path shard = folder.resolve("shard");
        final SplittableRandom random = new SplittableRandom(7);
        int killedMidRun = 0;
        final List<String> recoveries = new ArrayList<>();
        long acknowledged = 0;
        for (int i = 0; i < KILLS; i++)
        {
            final Child child = Child.start(shard, source);
            final String recovered = child.awaitLine("RECOVERED", 60);
            final long recoveredThrough = Long.parseLong(recovered.substring(recovered.lastIndexOf(' ') + 1));
            assertTrue(recoveredThrough >= acknowledged,
                "acknowledged through " + acknowledged + " but recovered only through " + recoveredThrough);
            Thread.sleep(random.nextInt(50, 700));
            if (child.process.isAlive())
            {
                killedMidRun++;
            }
            child.process.destroyForcibly();
            assertTrue(child.process.waitFor(30, TimeUnit.SECONDS));
            recoveries.add(child.report());
            acknowledged = Math.max(acknowledged, child.lastAcknowledged());
        }
        final Child last = Child.start(shard, source);
        final String lastRecovered = last.awaitLine("RECOVERED", 60);
        assertTrue(Long.parseLong(lastRecovered.substring(lastRecovered.lastIndexOf(' ') + 1)) >= acknowledged);
        final String done = last.awaitLine("DONE", 240);
        assertTrue(last.process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, last.process.exitValue(), last.lines.toString());

        recoveries.add(last.report());
        System.out.println("crash test recoveries: " + recoveries);
        assertTrue(killedMidRun > 0, "at least one kill landed while the shard was working: " + recoveries);
        assertEquals("DONE " + Hex.to0x(reference.engine.stateHash()), done, "state after the crashes: " + recoveries);
        assertArrayEquals(reference.log.bytes(), ShardRecoveryTest.journal(shard.resolve("events")),
            "the event journal holds exactly the uninterrupted run's events: " + recoveries);
    }

    /** A shard child JVM with its output collected line by line. */
    private static final class Child
    {
        final Process process;
        final List<String> lines = new CopyOnWriteArrayList<>();

        private Child(final Process process)
        {
            this.process = process;
            final Thread reader = new Thread(() ->
            {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
                {
                    String line;
                    while ((line = in.readLine()) != null)
                    {
                        lines.add(line);
                    }
                }
                catch (final java.io.IOException ignored)
                {
                    // the process was killed
                }
            }, "crash-child-output");
            reader.setDaemon(true);
            reader.start();
        }

        static Child start(final Path shard, final Path source) throws java.io.IOException
        {
            final List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(JvmFlags.flags());
            command.add("-cp");
            // surefire runs tests from a manifest-only jar; it names the real class path separately
            command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
            command.add(CrashingShard.class.getName());
            command.add(shard.toString());
            command.add(source.toString());
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            STARTED.add(process);
            return new Child(process);
        }

        /** The highest sequence the process acknowledged before it died. */
        long lastAcknowledged()
        {
            return lines.stream().filter(l -> l.startsWith("ACK ")).mapToLong(l -> Long.parseLong(l.substring(4))).max().orElse(0);
        }

        /** What the shard said about its recovery: the REBUILT and RECOVERED lines. */
        String report()
        {
            final StringBuilder report = new StringBuilder();
            lines.stream().filter(l -> l.startsWith("REBUILT") || l.startsWith("RECOVERED")).forEach(l -> report.append(l).append("; "));
            return report.toString();
        }

        String awaitLine(final String prefix, final int seconds) throws InterruptedException
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            boolean ended = false;
            while (System.nanoTime() < deadline)
            {
                final Optional<String> line = lines.stream().filter(l -> l.startsWith(prefix)).findFirst();
                if (line.isPresent())
                {
                    return line.get();
                }
                if (ended)
                {
                    throw new AssertionError("the shard process ended without " + prefix + ": " + lines);
                }
                // once it has ended, one more look: its last lines may still be on their way through the pipe
                ended = !process.isAlive();
                Thread.sleep(ended ? 200 : 10);
            }
            process.destroyForcibly();
            throw new AssertionError("no " + prefix + " within " + seconds + " s: " + lines);
        }
    }
}
