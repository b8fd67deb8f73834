package io.venue.engine.state;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The journal command index the whole engine state reflects, kept in one memory-mapped page beside the maps.
 * One index serves every store because one thread applies each command to all of them.
 * <p>
 * Per command (or batch): {@link #beginApply} before the first map write, {@link #commitApplied} after the
 * last. Both are single ordered stores to the mapped page — no system call — so a process crash between them
 * leaves {@code pendingSequence} set and the next open reports {@link StateStatus#APPLY_INCOMPLETE} instead of
 * trusting half-applied maps. Durability against a host crash is the journal's job: the page reaches disk
 * when the kernel writes it back, or at {@link EngineState#close()}.
 * <pre>
 *    0  magic            i64   "VNSTATE1" as little-endian ASCII
 *    8  formatVersion    i32
 *   12  closeState       i32   1 = open (in use, or the process died), 2 = closed cleanly
 *   16  appliedSequence  i64   last command index whose effects are all in the maps; -1 = none
 *   24  pendingSequence  i64   index being applied; -1 between commands
 *   32  bootId           16 bytes  the host boot the state was last opened in (Linux boot_id)
 *   48  priority         i64   the engine's time-priority counter (last sequence given to an order)
 *   56  venueFlags       i32   bit 0: the venue-wide kill switch is on
 *   60  (reserved)       4 bytes
 *   64  stores           10 x 32 bytes, in StoreFile slot order:
 *         +0  entries     i64  capacity the map file was made with
 *         +8  fileLength  i64  file length at the last open or clean close
 *        +16  keySize     i32
 *        +20  valueSize   i32
 *        +24  (reserved)  i64
 * </pre>
 */
public final class StateMeta
{
    public static final long NO_SEQUENCE = -1L;
    /** Bump on any change of a key or value layout, a file name or this page. */
    public static final int FORMAT_VERSION = 5;
    /** {@link #venueFlags()} bit: the venue-wide kill switch is on. */
    public static final int VENUE_KILLED = 1;
    public static final String FILE_NAME = "state.meta";
    public static final int LENGTH = 4096;

    static final long MAGIC = 0x3145544154534E56L; // "VNSTATE1"
    static final int OPEN = 1;
    static final int CLOSED = 2;

    private static final int MAGIC_OFFSET = 0;
    private static final int FORMAT_VERSION_OFFSET = 8;
    private static final int CLOSE_STATE_OFFSET = 12;
    private static final int APPLIED_SEQUENCE_OFFSET = 16;
    private static final int PENDING_SEQUENCE_OFFSET = 24;
    private static final int BOOT_ID_OFFSET = 32;
    private static final int PRIORITY_OFFSET = 48;
    private static final int VENUE_FLAGS_OFFSET = 56;
    private static final int STORES_OFFSET = 64;
    private static final int STORE_RECORD_LENGTH = 32;
    private static final int ENTRIES = 0;
    private static final int FILE_LENGTH = 8;
    private static final int KEY_SIZE = 16;
    private static final int VALUE_SIZE = 20;

    private final UnsafeBuffer buffer;
    private final FileChannel channel;
    private final FileLock lock;
    private final MappedByteBuffer mapped;

    private StateMeta(
        final UnsafeBuffer buffer, final FileChannel channel, final FileLock lock, final MappedByteBuffer mapped)
    {
        this.buffer = buffer;
        this.channel = channel;
        this.lock = lock;
        this.mapped = mapped;
    }

    /** A meta page in heap memory, for a state without files. */
    static StateMeta inMemory()
    {
        final StateMeta meta = new StateMeta(new UnsafeBuffer(ByteBuffer.allocateDirect(LENGTH)), null, null, null);
        meta.initialise();
        return meta;
    }

    /**
     * Maps an existing meta file (or makes a new one when {@code create}) and takes its exclusive lock.
     * Returns null when another process holds the lock.
     */
    static StateMeta map(final Path file, final boolean create) throws IOException
    {
        final FileChannel channel = create ?
            FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE) :
            FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try
        {
            final FileLock lock = tryLock(channel);
            if (null == lock)
            {
                channel.close();
                return null;
            }
            final long length = create ? LENGTH : channel.size();
            if (length != LENGTH)
            {
                lock.release();
                channel.close();
                throw new MetaLengthException(length);
            }
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, LENGTH);
            final StateMeta meta = new StateMeta(new UnsafeBuffer(mapped), channel, lock, mapped);
            if (create)
            {
                meta.initialise();
                meta.force();
            }
            return meta;
        }
        catch (final IOException | RuntimeException ex)
        {
            if (channel.isOpen())
            {
                channel.close();
            }
            throw ex;
        }
    }

    /** The exclusive lock, or null when another process (or this one) holds it. */
    static FileLock tryLock(final FileChannel channel) throws IOException
    {
        try
        {
            return channel.tryLock();
        }
        catch (final OverlappingFileLockException ex)
        {
            return null;
        }
    }

    private void initialise()
    {
        buffer.setMemory(0, LENGTH, (byte)0);
        buffer.putLong(MAGIC_OFFSET, MAGIC);
        buffer.putInt(FORMAT_VERSION_OFFSET, FORMAT_VERSION);
        buffer.putInt(CLOSE_STATE_OFFSET, OPEN);
        buffer.putLong(APPLIED_SEQUENCE_OFFSET, NO_SEQUENCE);
        buffer.putLong(PENDING_SEQUENCE_OFFSET, NO_SEQUENCE);
        for (final StoreFile store : StoreFile.values())
        {
            final int base = storeBase(store);
            buffer.putInt(base + KEY_SIZE, store.keySize());
            buffer.putInt(base + VALUE_SIZE, store.valueSize());
        }
    }

    /** The last journal command index whose effects are all in the maps; {@link #NO_SEQUENCE} for none. */
    public long appliedSequence()
    {
        return buffer.getLongVolatile(APPLIED_SEQUENCE_OFFSET);
    }

    /** The index being applied, or {@link #NO_SEQUENCE} between commands. */
    public long pendingSequence()
    {
        return buffer.getLongVolatile(PENDING_SEQUENCE_OFFSET);
    }

    /**
     * Marks {@code sequence} (a command, or the last command of a batch) as being applied. Call before the
     * first map write of that command or batch.
     */
    public void beginApply(final long sequence)
    {
        if (sequence <= buffer.getLong(APPLIED_SEQUENCE_OFFSET))
        {
            throw new IllegalArgumentException(
                "sequence " + sequence + " is not after applied " + buffer.getLong(APPLIED_SEQUENCE_OFFSET));
        }
        buffer.putLongOrdered(PENDING_SEQUENCE_OFFSET, sequence);
        // the mark must be in memory before any map write that follows it
        VarHandle.storeStoreFence();
    }

    /** Records that every effect of the commands up to and including {@code sequence} is in the maps. */
    public void commitApplied(final long sequence)
    {
        if (sequence != buffer.getLong(PENDING_SEQUENCE_OFFSET))
        {
            throw new IllegalStateException(
                "commit of " + sequence + " but pending is " + buffer.getLong(PENDING_SEQUENCE_OFFSET));
        }
        // ordered: the map writes before it, then applied, then the pending mark cleared
        buffer.putLongOrdered(APPLIED_SEQUENCE_OFFSET, sequence);
        buffer.putLongOrdered(PENDING_SEQUENCE_OFFSET, NO_SEQUENCE);
    }

    /**
     * The engine's time-priority counter, the one engine scalar no map holds. Written with plain stores between
     * {@link #beginApply} and {@link #commitApplied}, like the maps.
     */
    public long priority()
    {
        return buffer.getLong(PRIORITY_OFFSET);
    }

    public void priority(final long priority)
    {
        buffer.putLong(PRIORITY_OFFSET, priority);
    }

    /** Venue-wide engine flags ({@link #VENUE_KILLED}); written like {@link #priority(long)}. */
    public int venueFlags()
    {
        return buffer.getInt(VENUE_FLAGS_OFFSET);
    }

    public void venueFlags(final int flags)
    {
        buffer.putInt(VENUE_FLAGS_OFFSET, flags);
    }

    public int formatVersion()
    {
        return buffer.getInt(FORMAT_VERSION_OFFSET);
    }

    long magic()
    {
        return buffer.getLong(MAGIC_OFFSET);
    }

    boolean closedCleanly()
    {
        return buffer.getInt(CLOSE_STATE_OFFSET) == CLOSED;
    }

    long bootIdHigh()
    {
        return buffer.getLong(BOOT_ID_OFFSET);
    }

    long bootIdLow()
    {
        return buffer.getLong(BOOT_ID_OFFSET + 8);
    }

    long entries(final StoreFile store)
    {
        return buffer.getLong(storeBase(store) + ENTRIES);
    }

    long fileLength(final StoreFile store)
    {
        return buffer.getLong(storeBase(store) + FILE_LENGTH);
    }

    int keySize(final StoreFile store)
    {
        return buffer.getInt(storeBase(store) + KEY_SIZE);
    }

    int valueSize(final StoreFile store)
    {
        return buffer.getInt(storeBase(store) + VALUE_SIZE);
    }

    void recordStore(final StoreFile store, final long entries, final long fileLength)
    {
        final int base = storeBase(store);
        buffer.putLong(base + ENTRIES, entries);
        buffer.putLong(base + FILE_LENGTH, fileLength);
    }

    void markOpen(final long bootIdHigh, final long bootIdLow)
    {
        buffer.putLong(BOOT_ID_OFFSET, bootIdHigh);
        buffer.putLong(BOOT_ID_OFFSET + 8, bootIdLow);
        buffer.putIntVolatile(CLOSE_STATE_OFFSET, OPEN);
    }

    void markClosed()
    {
        buffer.putIntVolatile(CLOSE_STATE_OFFSET, CLOSED);
    }

    /** Writes the page to disk (no-op in memory). */
    void force()
    {
        if (null != mapped)
        {
            mapped.force();
        }
    }

    /** Unmaps the page and releases the folder lock; EngineState.close() calls it last. */
    void close()
    {
        if (null != mapped)
        {
            IoUtil.unmap(mapped);
            try
            {
                lock.release();
                channel.close();
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
    }

    private static int storeBase(final StoreFile store)
    {
        return STORES_OFFSET + store.metaSlot() * STORE_RECORD_LENGTH;
    }

    /** The meta file is not one page long. */
    static final class MetaLengthException extends IOException
    {
        private static final long serialVersionUID = 1L;

        MetaLengthException(final long length)
        {
            super("meta file is " + length + " bytes, expected " + LENGTH);
        }
    }
}
