package io.venue.journal.queue;

import net.openhft.chronicle.core.OS;
import net.openhft.posix.PosixAPI;

/**
 * Makes pages of another thread's mapping resident and writable in this process's page tables, with
 * {@code madvise(MADV_POPULATE_WRITE)} (Linux 5.14 and later). Page tables belong to the process, not the thread,
 * so a writer whose mapping was populated this way writes without a fault; touching the same file through a
 * mapping of one's own only brings the pages into the page cache, and the writer may still fault on each of them.
 * <p>
 * Populating changes no byte of what is mapped. The caller keeps the mapping from being unmapped during the call
 * (the pretoucher holds a reference on the writer's Chronicle store), so the range is the writer's and nothing else's.
 */
final class WriterPages
{
    private static final int MADV_POPULATE_WRITE = 23;

    /** Whether this kernel populates on request, through a native library that really calls it. */
    static final boolean SUPPORTED = OS.isLinux() && supports(nativeApi());

    private WriterPages()
    {
    }

    private static PosixAPI nativeApi()
    {
        try
        {
            return PosixAPI.posix();
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return null; // no native access: the pretoucher touches through its own mapping only
        }
    }

    /**
     * An unknown advice is refused with EINVAL before the length is looked at, so an empty range tells whether the
     * kernel knows this one; an unaligned address must then be refused, which also tells a real call from the
     * library's no-op stand-in (used when its native part cannot load), whose every call "succeeds".
     */
    static boolean supports(final PosixAPI api)
    {
        return api != null && api.madvise(0, 0, MADV_POPULATE_WRITE) == 0 &&
            api.madvise(1, OS.pageSize(), MADV_POPULATE_WRITE) != 0;
    }

    /**
     * Populates {@code [address, address + length)}, both page-aligned; false when some of it is not mapped or lies
     * past the end of its file.
     */
    static boolean populate(final long address, final long length)
    {
        return PosixAPI.posix().madvise(address, length, MADV_POPULATE_WRITE) == 0;
    }
}
