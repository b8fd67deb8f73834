package io.venue.engine.state;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.venue.engine.state.TestBytes.address;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A child JVM writes state and dies without closing (Runtime.halt); the parent judges what it left. */
class CrashTest
{
    private static final int COMMANDS = 50;
    private static final int HALT_STATUS = 3;

    @TempDir
    Path folder;

    private static EngineState.Context context(final Path folder)
    {
        return new EngineState.Context().directory(folder).sizeFor(1_000, 1_000);
    }

    @Test
    void diedBetweenCommandsReopensWithEveryCommittedEffect() throws Exception
    {
        runChild("between");

        final StateCheck check = EngineState.check(context(folder));
        assertEquals(StateStatus.CONSISTENT, check.status(), check.toString());
        assertEquals(COMMANDS - 1, check.appliedSequence());
        try (EngineState state = EngineState.open(context(folder)))
        {
            final Balance balance = new Balance();
            for (int i = 0; i < COMMANDS; i++)
            {
                assertEquals(i * 10L, state.balances().find(address(i), 1, balance).available());
            }
        }
    }

    /**
     * Chronicle Map's segment locks live in the mapped file, so a process killed while it read the maps (start-up's
     * restore walks them) leaves a lock that no one will release; opened as it was, the next process's first write
     * to that segment waited a minute and failed. A state reopened after an unclean stop must write at once.
     */
    @Test
    void diedWhileReadingTheMapsLeavesNoLockBehind() throws Exception
    {
        runChild("reading");

        final StateCheck check = EngineState.check(context(folder));
        assertEquals(StateStatus.CONSISTENT, check.status(), check.toString());
        try (EngineState state = EngineState.open(context(folder)))
        {
            assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
            {
                final Balance balance = new Balance();
                // new keys in every segment: an insert needs the segment's write lock, which waits for its readers
                for (int i = COMMANDS; i < 900; i++)
                {
                    state.balances().acquire(address(i), 1, balance).available(i);
                }
            });
            final Balance balance = new Balance();
            assertEquals(490L, state.balances().find(address(49), 1, balance).available());
            assertEquals(899L, state.balances().find(address(899), 1, balance).available());
        }
    }

    /** Chronicle's recovery repairs what it finds wrong by dropping entries: a state it had to repair is not used. */
    @Test
    void aMapTheRecoveryFindsDamagedIsRefused() throws Exception
    {
        runChild("between");
        final Path balances = folder.resolve(StoreFile.BALANCES.fileName());
        final long length = Files.size(balances);
        try (FileChannel channel = FileChannel.open(balances, StandardOpenOption.WRITE))
        {
            final byte[] garbage = new byte[(int)Math.min(1 << 20, length / 2)];
            Arrays.fill(garbage, (byte)0x5A);
            channel.write(ByteBuffer.wrap(garbage), length / 4);
        }
        assertEquals(StateStatus.CONSISTENT, EngineState.check(context(folder)).status(), "the meta alone cannot tell");
        final StateUnusableException refused = Assertions.assertThrows(StateUnusableException.class,
            () -> EngineState.open(context(folder)).close());
        assertEquals(StateStatus.MAP_FILE_CORRUPT, refused.check().status(), refused.getMessage());
        assertTrue(refused.getMessage().contains("recovery found it damaged"), refused.getMessage());
    }

    @Test
    void diedWhileApplyingIsRefused() throws Exception
    {
        runChild("during");

        final StateCheck check = EngineState.check(context(folder));
        assertEquals(StateStatus.APPLY_INCOMPLETE, check.status(), check.toString());
    }

    private void runChild(final String mode) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // the surefire JVM's own flags: the Chronicle exports and opens the child needs too
        for (final String argument : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (argument.startsWith("--add-") || argument.startsWith("-Dchronicle"))
            {
                command.add(argument);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Writer.class.getName());
        command.add(folder.toString());
        command.add(mode);
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), output);
        assertEquals(HALT_STATUS, process.exitValue(), output);
    }

    /** Entry point of the child JVM. */
    static final class Writer
    {
        public static void main(final String[] args) throws Exception
        {
            final EngineState state = EngineState.open(context(Path.of(args[0])));
            final Balance balance = new Balance();
            for (int i = 0; i < COMMANDS; i++)
            {
                state.meta().beginApply(i);
                state.balances().acquire(address(i), 1, balance).available(i * 10L);
                state.meta().commitApplied(i);
            }
            if ("reading".equals(args[1]))
            {
                // dies inside the walk, holding the segment's lock
                state.balances().forEach((key, value) -> Runtime.getRuntime().halt(HALT_STATUS));
            }
            if ("during".equals(args[1]))
            {
                state.meta().beginApply(COMMANDS);
                state.balances().acquire(address(0), 1, balance).available(-1);
            }
            // no close, no shutdown hooks: as abrupt as a kill -9
            Runtime.getRuntime().halt(HALT_STATUS);
        }
    }
}
