package io.venue.snapshot;

import java.nio.file.Path;

/** A snapshot file that cannot be loaded as written: cut short, altered, or of another state format. */
public final class SnapshotDamagedException extends Exception
{
    public SnapshotDamagedException(final Path file, final String detail)
    {
        super("snapshot " + file.getFileName() + " is damaged: " + detail);
    }
}
