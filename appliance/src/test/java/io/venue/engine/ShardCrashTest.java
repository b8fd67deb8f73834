package io.venue.engine;

import io.venue.codec.Hex;
import io.venue.testing.ChildJvm;
import io.venue.testing.RecordFiles;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
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

    @AfterEach
    void stopShards() throws InterruptedException
    {
        ChildJvm.stopAll();
    }

    @Test
    void killedAndRestartedShardEndsWithTheBytesOfAnUninterruptedRun() throws Exception
    {
        killAndRestart(1, KILLS);
    }

    /** The same with three matching shards: the state is written where groups begin, the replays cross groups. */
    @Test
    void killedAndRestartedShardsEndWithTheBytesOfAnUninterruptedRun() throws Exception
    {
        killAndRestart(3, Math.max(3, KILLS / 2));
    }

    private void killAndRestart(final int shards, final int kills) throws Exception
    {
        final EngineHarness generator = new EngineHarness(RandomStream.config(), false);
        new RandomStream(generator, 2026).setUp().run(COMMANDS);
        final List<byte[]> records = generator.records();
        final Path source = folder.resolve("source.bin");
        RecordFiles.write(records, source);
        final EventLog reference = new EventLog(false);
        final byte[] referenceHash;
        try (Engine engine = new Engine(CrashingShard.config(shards), reference))
        {
            records.forEach(r -> engine.onCommand(new UnsafeBuffer(r), 0, r.length));
            referenceHash = engine.stateHash();
        }

        final Path shard = folder.resolve("shard");
        final SplittableRandom random = new SplittableRandom(7);
        int killedMidRun = 0;
        final List<String> recoveries = new ArrayList<>();
        long acknowledged = 0;
        for (int i = 0; i < kills; i++)
        {
            final ChildJvm child = start(shard, source, shards);
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
            recoveries.add(report(child));
            acknowledged = Math.max(acknowledged, child.lastAcknowledged());
        }
        final ChildJvm last = start(shard, source, shards);
        final String lastRecovered = last.awaitLine("RECOVERED", 60);
        assertTrue(Long.parseLong(lastRecovered.substring(lastRecovered.lastIndexOf(' ') + 1)) >= acknowledged);
        final String done = last.awaitLine("DONE", 240);
        assertTrue(last.process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, last.process.exitValue(), last.lines.toString());

        recoveries.add(report(last));
        System.out.println("crash test recoveries (" + shards + " shards): " + recoveries);
        assertTrue(killedMidRun > 0, "at least one kill landed while the shard was working: " + recoveries);
        assertEquals("DONE " + Hex.to0x(referenceHash), done, "state after the crashes: " + recoveries);
        assertArrayEquals(reference.bytes(), ShardRecoveryTest.journal(shard.resolve("events")),
            "the event journal holds exactly the uninterrupted run's events: " + recoveries);
    }

    private static ChildJvm start(final Path shard, final Path source, final int shards) throws IOException
    {
        return ChildJvm.start(CrashingShard.class, shard.toString(), source.toString(), Integer.toString(shards));
    }

    /** What the shard said about its recovery: the SET ASIDE, REBUILT and RECOVERED lines. */
    private static String report(final ChildJvm child)
    {
        final StringBuilder report = new StringBuilder();
        child.lines.stream()
            .filter(l -> l.startsWith("REBUILT") || l.startsWith("RECOVERED") || l.startsWith("SET ASIDE"))
            .forEach(l -> report.append(l).append("; "));
        return report.toString();
    }
}
