package io.venue.appliance;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/** A demo appliance for the session lanes' tests: every port chosen by the system, loopback exempt from the edge. */
final class LaneTestAppliance
{
    private LaneTestAppliance()
    {
    }

    /**
     * Starts it with {@code lanes}, then the {@code defaults} (name, value pairs) the test class always wants, then the
     * test's own {@code settings}, each applied as a configuration file's line would be.
     */
    static Appliance start(final Path dataDir, final Path folder, final String lanes,
        final Map<String, String> settings, final String... defaults) throws Exception
    {
        final ApplianceContext context = new ApplianceContext().dataDir(dataDir).httpPort(0).bslTcpPort(0)
            .edgeExempt("127.0.0.1");
        context.fix().port(0);
        ApplianceConfigFile.apply(context, "lanes", lanes, folder);
        for (int i = 0; i + 1 < defaults.length; i += 2)
        {
            ApplianceConfigFile.apply(context, defaults[i], defaults[i + 1], folder);
        }
        for (final Map.Entry<String, String> setting : settings.entrySet())
        {
            ApplianceConfigFile.apply(context, setting.getKey(), setting.getValue(), folder);
        }
        return Appliance.start(context, new PrintStream(OutputStream.nullOutputStream()));
    }
}
