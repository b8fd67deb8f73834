package io.venue.engine.state;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * Identifies the current boot of the host, so an open state left behind by a dead process can be told apart
 * from one left behind by a host crash (whose mapped pages may never have reached disk).
 */
final class HostBoot
{
    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");

    /** Zero when unknown: such a state is never trusted after an unclean stop. */
    static final long UNKNOWN = 0L;

    private static final long HIGH;
    private static final long LOW;

    static
    {
        long high = UNKNOWN;
        long low = UNKNOWN;
        try
        {
            final UUID id = UUID.fromString(new String(Files.readAllBytes(BOOT_ID), StandardCharsets.US_ASCII).trim());
            high = id.getMostSignificantBits();
            low = id.getLeastSignificantBits();
        }
        catch (final IOException | IllegalArgumentException ignore)
        {
            // not Linux, or /proc hidden: treat as unknown
        }
        HIGH = high;
        LOW = low;
    }

    private HostBoot()
    {
    }

    static long high()
    {
        return HIGH;
    }

    static long low()
    {
        return LOW;
    }

    static boolean isKnown()
    {
        return HIGH != UNKNOWN || LOW != UNKNOWN;
    }
}
