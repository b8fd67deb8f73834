package io.venue.journal.queue;

import net.openhft.chronicle.bytes.MappedBytesStore;
import net.openhft.chronicle.core.OS;
import net.openhft.chronicle.core.io.ReferenceOwner;
import org.agrona.ErrorHandler;
import org.agrona.IoUtil;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Faults in the pages a journal's writer is about to fill, on a thread of its own, so that the writer (the
 * sequencer, the engine) does not stop in the kernel for each new page of a memory-mapped queue file. On this
 * machine that stop was about half of what journaling cost the engine (docs/PERFORMANCE.md).
 * <p>
 * For each journal it follows, it keeps the pages from its writer's position up to {@link Context#aheadBytes}
 * further resident and writable, within the file's current length (Chronicle grows the file ahead of its writer),
 * two ways:
 * <ul>
 * <li>in the writer's own mapping (published by the writer, {@link WriteFront#mapping}) with
 * {@code madvise(MADV_POPULATE_WRITE)} ({@link WriterPages}), where the kernel has it: page tables are the
 * process's, so the writer then takes no fault at all on those pages;</li>
 * <li>past the end of the writer's mapping, or where the kernel cannot populate, through a mapping of its own: a
 * compare-and-set of each page's first int from 0 to 0 makes the page resident in the page cache (allocated, zeroed),
 * and no value ever changes, whatever the writer does to it at the same moment. The writer may still fault on such a
 * page, but only to map it, not to allocate it.</li>
 * </ul>
 * <p>
 * An Agrona {@link Agent}: run it on its own thread (an {@code AgentRunner}), not inside the writer's duty cycle.
 */
public final class JournalPretoucher implements Agent
{
    private static final int PAGE = OS.pageSize();
    /**
     * Populated per call: each call holds the process's map lock for reading, which a writer mapping its next chunk
     * waits for.
     */
    private static final long POPULATE_STEP = 256L << 10;
    /** The span of one mapping; the file is mapped window by window as the writer moves on. */
    private static final long WINDOW = 64L << 20;

    private final Context context;
    private final List<Follower> followers = new ArrayList<>();
    private volatile long pagesTouched;
    private volatile int failures;

    public JournalPretoucher(final Context context)
    {
        this.context = context;
    }

    /** Adds a journal; call before the agent starts. */
    public JournalPretoucher follow(final Journal journal)
    {
        return follow(journal.writeFront());
    }

    JournalPretoucher follow(final WriteFront front)
    {
        followers.add(new Follower(front, this, context.populateWriterMappings && WriterPages.SUPPORTED));
        return this;
    }

    @Override
    public int doWork()
    {
        int work = 0;
        for (int i = 0, n = followers.size(); i < n; i++)
        {
            work += followers.get(i).touchAhead(context.aheadBytes, context.pagesPerDutyCycle);
        }
        if (work > 0)
        {
            pagesTouched += work; // one writer: this agent's thread
        }
        return work;
    }

    /** Whether it populates its writers' own mappings (the setting, on a kernel that can). */
    public boolean populatesWriterMappings()
    {
        return context.populateWriterMappings && WriterPages.SUPPORTED;
    }

    /** Pages touched or populated so far, for the operators' metrics and for tests. */
    public long pagesTouched()
    {
        return pagesTouched;
    }

    /**
     * Files it gave up on: an I/O error (no file descriptor or mapping left, the file gone) stops it for that file,
     * reported once to {@link Context#errorHandler}, and it tries again at the writer's next file. Its writer then
     * meets its own page faults, as without a pretoucher; nothing else changes.
     */
    public int failures()
    {
        return failures;
    }

    private void failed(final File file, final Exception cause)
    {
        failures++; // one writer: this agent's thread
        context.errorHandler.onError(
            new IOException("journal pretouching stopped for " + file + " until its next file", cause));
    }

    /** The file the pretoucher maps for the {@code i}-th journal it follows, or null before its first excerpt. */
    File following(final int i)
    {
        return followers.get(i).file;
    }

    @Override
    public void onClose()
    {
        for (final Follower follower : followers)
        {
            follower.release();
        }
    }

    @Override
    public String roleName()
    {
        return "journal-pretouch";
    }

    /** How far ahead and how much per duty cycle. */
    public static final class Context
    {
        private long aheadBytes = 32L << 20;
        private int pagesPerDutyCycle = 256;
        private boolean populateWriterMappings = true;
        private ErrorHandler errorHandler =
            error -> LoggerFactory.getLogger(JournalPretoucher.class).warn("journal pretouching", error);

        /** Where a file it gives up on is reported (once per file); a warning in the log by default. */
        public Context errorHandler(final ErrorHandler handler)
        {
            errorHandler = Objects.requireNonNull(handler, "errorHandler");
            return this;
        }

        /** Bytes kept touched ahead of each writer (32 MiB: about 40,000 commands with their events). */
        public Context aheadBytes(final long bytes)
        {
            if (bytes < PAGE || bytes > WINDOW)
            {
                throw new IllegalArgumentException(
                    "aheadBytes must be between " + PAGE + " and " + WINDOW + ": " + bytes);
            }
            aheadBytes = bytes;
            return this;
        }

        public long aheadBytes()
        {
            return aheadBytes;
        }

        /** The most pages one duty cycle touches (256: 1 MiB), so that the agent stays responsive to its runner. */
        public Context pagesPerDutyCycle(final int pages)
        {
            if (pages < 1)
            {
                throw new IllegalArgumentException("pagesPerDutyCycle must be positive: " + pages);
            }
            pagesPerDutyCycle = pages;
            return this;
        }

        public int pagesPerDutyCycle()
        {
            return pagesPerDutyCycle;
        }

        /**
         * Whether to populate the writers' own mappings where the kernel can (true by default); false touches through
         * the pretoucher's own mapping only, as before Linux 5.14 (for comparing the two).
         */
        public Context populateWriterMappings(final boolean populate)
        {
            populateWriterMappings = populate;
            return this;
        }
    }

    /** One journal's file, the window of it mapped, and how far it is touched. */
    private static final class Follower
    {
        private final WriteFront front;
        private final JournalPretoucher owner;
        private final boolean populating;
        /**
         * The writer's mapping populated so far, up to populatedTo; one that failed is left until the writer moves on.
         */
        private WriteFront.WriterMapping populatedMapping;
        private WriteFront.WriterMapping failedMapping;
        private long populatedTo;
        /** Who holds the writer's store while it is populated. */
        private final ReferenceOwner referenceOwner = ReferenceOwner.temporary("journal-pretouch");
        /** The file it gave up on, left alone until the writer moves to another. */
        private File abandoned;
        private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
        private File file;
        private FileChannel channel;
        private MappedByteBuffer mapped;
        private long mappedFrom;
        private long mappedTo;
        private long touchedTo;
        /** The file's length when the writer was last seen to move: asked again only after it moves. */
        private long fileLength;
        private long lengthAtPosition = -1;

        Follower(final WriteFront front, final JournalPretoucher owner, final boolean populating)
        {
            this.front = front;
            this.owner = owner;
            this.populating = populating;
        }

        int touchAhead(final long aheadBytes, final int maxPages)
        {
            final File current = front.file();
            if (current == null || current.equals(abandoned))
            {
                return 0;
            }
            try
            {
                if (!current.equals(file))
                {
                    open(current);
                }
                final long position = front.position();
                // behind the writer, or far ahead of it: a position read from before a roll (then it starts again)
                if (touchedTo < position || position + aheadBytes + PAGE < touchedTo)
                {
                    touchedTo = (position + PAGE - 1) & -PAGE;
                }
                if (position != lengthAtPosition)
                {
                    fileLength = channel.size();
                    lengthAtPosition = position;
                }
                final long target = Math.min(position + aheadBytes, fileLength);
                int pages = 0;
                final WriteFront.WriterMapping mapping = populating ? front.mapping() : null;
                if (mapping != null && mapping != failedMapping)
                {
                    pages = populate(mapping, position, target, aheadBytes, maxPages);
                    if (mapping != failedMapping)
                    {
                        // the writer's own mapping is populated to its end: ours touches only past it
                        touchedTo = Math.max(touchedTo, mapping.to());
                    }
                }
                while (touchedTo + Integer.BYTES <= target && pages < maxPages)
                {
                    if (touchedTo < mappedFrom || touchedTo + Integer.BYTES > mappedTo)
                    {
                        map(touchedTo, fileLength);
                    }
                    view.compareAndSetInt((int)(touchedTo - mappedFrom), 0, 0);
                    touchedTo += PAGE;
                    pages++;
                }
                return pages;
            }
            catch (final IOException | RuntimeException ex)
            {
                // never an error loop on the agent's thread: give this file up, say so once
                release();
                abandoned = current;
                owner.failed(current, ex);
                return 0;
            }
        }

        /** Populates the writer's mapping from the writer's page up to the target; returns the pages done. */
        private int populate(final WriteFront.WriterMapping mapping, final long position, final long target,
            final long aheadBytes, final int maxPages)
        {
            // another mapping is another set of page tables, even over the same bytes of the file: start again
            if (mapping != populatedMapping || populatedTo < (position & -PAGE) ||
                position + aheadBytes + PAGE < populatedTo)
            {
                populatedMapping = mapping;
                populatedTo = position & -PAGE;
            }
            final long from = Math.max(populatedTo, mapping.from());
            final long to = Math.min(target, mapping.to()) & -PAGE;
            if (from >= to)
            {
                return 0;
            }
            final long length = Math.min(to - from, (long)maxPages * PAGE);
            if (!reserve(mapping.store()))
            {
                // released by the writer's queue since it was published: wait for the writer's next mapping
                failedMapping = mapping;
                return 0;
            }
            try
            {
                for (long done = 0; done < length; done += POPULATE_STEP)
                {
                    if (!WriterPages.populate(mapping.address() + (from + done - mapping.from()),
                        Math.min(POPULATE_STEP, length - done)))
                    {
                        // not expected while the store is held (the range lies within the file and the mapping)
                        failedMapping = mapping;
                        populatedTo = from + done;
                        return (int)(done / PAGE);
                    }
                }
            }
            finally
            {
                mapping.store().release(referenceOwner);
            }
            populatedTo = from + length;
            return (int)(length / PAGE);
        }

        /** Holds the store so that it stays mapped while its pages are populated; false once it is released. */
        private boolean reserve(final MappedBytesStore store)
        {
            try
            {
                return store.tryReserve(referenceOwner);
            }
            catch (final IllegalStateException ex)
            {
                return false; // closed
            }
        }

        private void open(final File next) throws IOException
        {
            release();
            channel = FileChannel.open(next.toPath(), StandardOpenOption.READ, StandardOpenOption.WRITE);
            file = next;
            touchedTo = 0;
            lengthAtPosition = -1;
        }

        /** Maps the window holding {@code offset}, never past the file's length (mapping further would grow it). */
        private void map(final long offset, final long fileLength) throws IOException
        {
            unmap();
            mappedFrom = offset & -WINDOW;
            mappedTo = Math.min(mappedFrom + WINDOW, fileLength);
            mapped = channel.map(FileChannel.MapMode.READ_WRITE, mappedFrom, mappedTo - mappedFrom);
            view.wrap(mapped);
        }

        private void unmap()
        {
            if (mapped != null)
            {
                IoUtil.unmap(mapped);
                mapped = null;
            }
            view.wrap(0, 0);
            mappedFrom = 0;
            mappedTo = 0;
        }

        void release()
        {
            unmap();
            if (channel != null)
            {
                try
                {
                    channel.close();
                }
                catch (final IOException ignored)
                {
                    // closing a channel we only mapped: nothing was written through it that could be lost
                }
                channel = null;
            }
            file = null;
        }
    }
}
