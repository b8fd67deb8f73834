package io.venue.journal.queue;

import net.openhft.chronicle.core.OS;
import net.openhft.posix.PosixAPI;

/**
 * Makes pages of another thread's mapping resident and writable in this process's page tables, with
 * {@code madvise(MADV_POPULATE_WRITE)} (Linux 5.14 and later). Page tables belong to the process, not the thread,
 * so a writer whose mapping was populated this way writes without a fault; touching the same file through a
 * mapping of one's own only brings the pages into the page cache, and the writer still faults on each of them.
 * <p>
 * Safe on an address the writer's queue may unmap at any moment: madvise fails on a range that is not mapped
 * instead of faulting, and populating changes no byte of what is mapped there.
 */
final class WriterPages
{
    private static final int MADV_POPULATE_WRITE = 23;

    /** Whether this kernel populates on request: an unknown advice is refused with EINVAL before the length is looked at. */
    static final boolean SUPPORTED = probe();

    private WriterPages()
    {
    }

    private static boolean probe()
    {
        if (!OS.isLinux())
        {
            return false;
        }
        try
        {
            return PosixAPI.posix().madvise(0, 0, MADV_POPULATE_WRITE) == 0;
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return false; // no native access: the pretoucher touches through its own mapping only
        }
    }

    /**
     * Populates {@code [address, address + length)}, both page-aligned; false when some of it is not mapped (any more)
     * or lies past the end of its file.
     */
    static boolean populate(final long address, final long length)
    {
        return PosixAPI.posix().madvise(address, length, MADV_POPULATE_WRITE) == 0;
    }
}
