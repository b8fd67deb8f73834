package io.venue.appliance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The node's SVC-Nonce file: what is put is loaded by the next process; a file that cannot be read is started anew. */
class SvcNonceFileTest
{
    @TempDir
    Path data;

    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logged, true, StandardCharsets.UTF_8);

    private Map<String, Long> load() throws Exception
    {
        final Map<String, Long> loaded = new HashMap<>();
        try (SvcNonceFile file = new SvcNonceFile(data, log))
        {
            file.load(loaded::put);
        }
        return loaded;
    }

    @Test
    void theHighestNoncesOutliveTheProcess() throws Exception
    {
        try (SvcNonceFile file = new SvcNonceFile(data, log))
        {
            file.put("spk_0000000000000001", 5);
            file.put("spk_0000000000000001", 9);
            file.put("spk_0000000000000002", -1L >>> 1);
        }
        assertEquals(Map.of("spk_0000000000000001", 9L, "spk_0000000000000002", Long.MAX_VALUE), load());
        assertEquals("", logged.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aFileThatCannotBeReadIsStartedEmptyAndSaysSo() throws Exception
    {
        Files.createDirectories(data.resolve("lane"));
        Files.write(data.resolve("lane").resolve("svc-nonces.dat"), "not a map".getBytes(StandardCharsets.US_ASCII));
        assertEquals(Map.of(), load());
        assertTrue(logged.toString(StandardCharsets.UTF_8).contains("could not be read"), logged.toString(StandardCharsets.UTF_8));
        try (SvcNonceFile file = new SvcNonceFile(data, log))
        {
            file.put("spk_0000000000000003", 1);
        }
        assertEquals(Map.of("spk_0000000000000003", 1L), load());
    }
}
