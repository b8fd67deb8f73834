package io.venue.appliance;

import io.venue.engine.EngineConfig;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine configuration a data folder's journal was written under ({@link EngineConfig#describe()}), kept in
 * {@value #FILE}: a start under other values would apply the journal's commands under other rules than those that
 * made its events, and recovery, replay and a standby would no longer agree with it. Such a start is refused, naming
 * each difference; a folder whose journal is empty takes the values it is started with.
 */
final class EngineConfigRecord
{
    static final String FILE = "engine-config";

    private EngineConfigRecord()
    {
    }

    /**
     * @param journaled the command journal's last sequence (0 when empty).
     * @throws IllegalStateException when the journal holds commands and the recorded configuration differs.
     */
    static void check(final Path data, final EngineConfig config, final long journaled, final PrintStream log)
        throws IOException
    {
        final Path file = data.resolve(FILE);
        final String now = config.describe();
        final String recorded = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
        if (journaled > 0 && recorded != null)
        {
            final List<String> differences = differences(recorded, now);
            if (!differences.isEmpty())
            {
                throw new IllegalStateException("the engine configuration differs from the one the journal in " + data +
                    " was written under (" + file + "): " + String.join("; ", differences) +
                    ". Start with the configuration " + "of that run (docs/OPERATIONS.md, the engine configuration)");
            }
            return;
        }
        if (journaled > 0)
        {
            log.println(
                "recorded the engine configuration in " + file + " for the journal's next starts (it had none)");
        }
        if (!now.equals(recorded))
        {
            DurableFiles.replace(file, now);
        }
    }

    private static List<String> differences(final String recorded, final String now)
    {
        final Map<String, String> was = values(recorded);
        final Map<String, String> is = values(now);
        final List<String> differences = new ArrayList<>();
        for (final Map.Entry<String, String> value : is.entrySet())
        {
            final String before = was.get(value.getKey());
            if (!value.getValue().equals(before))
            {
                differences.add(value.getKey() + " was " + (before == null ? "not recorded" : "'" + before + "'") +
                    ", now '" + value.getValue() + "'");
            }
        }
        was.keySet().stream().filter(name -> !is.containsKey(name))
            .forEach(name -> differences.add(name + " is no longer set"));
        return differences;
    }

    private static Map<String, String> values(final String text)
    {
        final Map<String, String> values = new LinkedHashMap<>();
        for (final String line : text.split("\n"))
        {
            final int equals = line.indexOf('=');
            if (equals > 0)
            {
                values.put(line.substring(0, equals), line.substring(equals + 1));
            }
        }
        return values;
    }
}
