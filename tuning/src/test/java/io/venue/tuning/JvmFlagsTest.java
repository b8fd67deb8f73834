package io.venue.tuning;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

class JvmFlagsTest
{
    @Test
    void listsTheExportChronicleNeedsAndReachesThisTestJvm()
    {
        final List<String> flags = JvmFlags.flags();
        assertTrue(flags.contains("--add-exports=java.base/sun.nio.ch=ALL-UNNAMED"), flags.toString());
        // surefire's argLine comes from the same file, so the running test JVM must carry every flag
        final List<String> running = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (final String flag : flags)
        {
            assertTrue(running.contains(flag), () -> "test JVM lacks " + flag + ": " + running);
        }
    }
}
