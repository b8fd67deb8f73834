package io.venue.engine.state;

import net.openhft.chronicle.bytes.Byteable;
import net.openhft.chronicle.bytes.BytesStore;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * A fixed-size window over Chronicle {@link BytesStore} memory: a map entry's key or value, or a key's own
 * scratch bytes. Chronicle Map points a flyweight at the entry with {@link #bytesStore(BytesStore, long, long)}
 * on {@code getUsing}/{@code acquireUsing}, so reads and writes go straight to the (mapped) entry memory and
 * nothing is serialized or allocated per access.
 * <p>
 * Multi-byte fields are little-endian (Chronicle's and Agrona's native order on x86 and ARM64). Subclasses
 * must answer {@link #maxSize()} with a constant: Chronicle calls it on an instance made without a constructor.
 */
abstract class Flyweight implements Byteable
{
    private BytesStore<?, ?> store;
    private long offset;

    @Override
    @SuppressWarnings("rawtypes") // Byteable declares the raw type
    public final void bytesStore(final BytesStore bytesStore, final long offset, final long length)
    {
        if (length != maxSize())
        {
            throw new IllegalArgumentException(getClass().getSimpleName() + " is " + maxSize() + " bytes, got " + length);
        }
        this.store = bytesStore;
        this.offset = offset;
    }

    @Override
    public final BytesStore<?, ?> bytesStore()
    {
        return store;
    }

    @Override
    public final long offset()
    {
        return offset;
    }

    /** True once the flyweight points at memory. */
    public final boolean isBound()
    {
        return store != null;
    }

    final long getLong(final int at)
    {
        return store.readLong(offset + at);
    }

    final void putLong(final int at, final long value)
    {
        store.writeLong(offset + at, value);
    }

    final int getInt(final int at)
    {
        return store.readInt(offset + at);
    }

    final void putInt(final int at, final int value)
    {
        store.writeInt(offset + at, value);
    }

    final byte getByte(final int at)
    {
        return store.readByte(offset + at);
    }

    final void putByte(final int at, final byte value)
    {
        store.writeByte(offset + at, value);
    }

    final void putBytes(final int at, final DirectBuffer src, final int srcOffset, final int length)
    {
        final long base = offset + at;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
        {
            store.writeLong(base + i, src.getLong(srcOffset + i, ByteOrder.LITTLE_ENDIAN));
        }
        for (; i < length; i++)
        {
            store.writeByte(base + i, src.getByte(srcOffset + i));
        }
    }

    final void getBytes(final int at, final MutableDirectBuffer dst, final int dstOffset, final int length)
    {
        final long base = offset + at;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
        {
            dst.putLong(dstOffset + i, store.readLong(base + i), ByteOrder.LITTLE_ENDIAN);
        }
        for (; i < length; i++)
        {
            dst.putByte(dstOffset + i, store.readByte(base + i));
        }
    }

    final void putBytes(final int at, final byte[] src, final int srcOffset, final int length)
    {
        final long base = offset + at;
        for (int i = 0; i < length; i++)
        {
            store.writeByte(base + i, src[srcOffset + i]);
        }
    }

    final void getBytes(final int at, final byte[] dst, final int dstOffset, final int length)
    {
        final long base = offset + at;
        for (int i = 0; i < length; i++)
        {
            dst[dstOffset + i] = store.readByte(base + i);
        }
    }

    final boolean bytesEqual(final int at, final DirectBuffer other, final int otherOffset, final int length)
    {
        final long base = offset + at;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
        {
            if (store.readLong(base + i) != other.getLong(otherOffset + i, ByteOrder.LITTLE_ENDIAN))
            {
                return false;
            }
        }
        for (; i < length; i++)
        {
            if (store.readByte(base + i) != other.getByte(otherOffset + i))
            {
                return false;
            }
        }
        return true;
    }

    final void zero(final int at, final int length)
    {
        final long base = offset + at;
        for (int i = 0; i < length; i++)
        {
            store.writeByte(base + i, (byte)0);
        }
    }

    /** Scratch memory for a key flyweight that is filled by the caller before each lookup. */
    static BytesStore<?, ?> scratch(final int size)
    {
        return BytesStore.wrap(new byte[size]);
    }
}
