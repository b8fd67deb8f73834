package io.venue.appliance;

import io.venue.action.Address;
import io.venue.engine.EngineConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A data folder keeps the engine configuration its journal was written under, and refuses a start under another. */
class EngineConfigRecordTest
{
    private static final Address OPERATOR = Address.of("0x" + "0a".repeat(20));

    @TempDir
    Path data;

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    private static EngineConfig config(final int shards)
    {
        return new EngineConfig().operator(OPERATOR).shards(shards);
    }

    @Test
    void aJournalWithCommandsIsStartedOnlyUnderItsConfiguration() throws Exception
    {
        EngineConfigRecord.check(data, config(1), 0, log);
        final String recorded = Files.readString(data.resolve(EngineConfigRecord.FILE));
        assertTrue(recorded.contains("shards=1\n") && recorded.contains("operators=" + OPERATOR + "\n"), recorded);

        EngineConfigRecord.check(data, config(1), 500, log);
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> EngineConfigRecord.check(data, config(3).maxLevelsPerSide(10), 500, log));
        assertTrue(refused.getMessage().contains("shards was '1', now '3'") &&
            refused.getMessage().contains("maxLevelsPerSide was '1000', now '10'"), refused.getMessage());
        assertEquals(recorded, Files.readString(data.resolve(EngineConfigRecord.FILE)),
            "a refused start changes nothing");
    }

    @Test
    void theAdmissionGroupCountsOnlyBetweenShards() throws Exception
    {
        EngineConfigRecord.check(data, config(1), 0, log);
        EngineConfigRecord.check(data, config(1).groupCommands(16), 500, log);
        EngineConfigRecord.check(data, config(3), 0, log);
        final IllegalStateException refused = assertThrows(IllegalStateException.class,
            () -> EngineConfigRecord.check(data, config(3).groupCommands(16), 500, log));
        assertTrue(refused.getMessage().contains("groupCommands was '64', now '16'"), refused.getMessage());
    }

    @Test
    void anEmptyJournalTakesTheConfigurationItIsStartedWith() throws Exception
    {
        EngineConfigRecord.check(data, config(1), 0, log);
        EngineConfigRecord.check(data, config(2), 0, log);
        assertTrue(Files.readString(data.resolve(EngineConfigRecord.FILE)).contains("shards=2\n"));
    }

    @Test
    void aJournalWithoutARecordGetsOneAndSaysSo() throws Exception
    {
        EngineConfigRecord.check(data, config(2), 42, log);
        assertTrue(Files.readString(data.resolve(EngineConfigRecord.FILE)).contains("shards=2\n"));
        assertTrue(logBytes.toString(StandardCharsets.UTF_8).contains("recorded the engine configuration"),
            logBytes.toString());
        assertThrows(IllegalStateException.class, () -> EngineConfigRecord.check(data, config(1), 42, log));
    }
}
