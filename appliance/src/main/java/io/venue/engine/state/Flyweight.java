package io.venue.engine.state;

import net.openhft.chronicle.bytes.Byteable;
import net.openhft.chronicle.bytes.BytesStore;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

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
    /** The same bytes as an Agrona view on their native address: field access without Chronicle's per-call checks. */
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);

    @Override
    @SuppressWarnings("rawtypes") // Byteable declares the raw type
    public final void bytesStore(final BytesStore bytesStore, final long offset, final long length)
    {
        if (length != maxSize())
        {
            throw new IllegalArgumentException(
                getClass().getSimpleName() + " is " + maxSize() + " bytes, got " + length);
        }
        if (!bytesStore.isDirectMemory())
        {
            // map entries are off-heap and scratch() is native: anything else is a defect
            throw new IllegalArgumentException(getClass().getSimpleName() + " needs native memory");
        }
        this.store = bytesStore;
        this.offset = offset;
        view.wrap(bytesStore.addressForWrite(offset), (int)length);
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

    /** The native address of the memory this flyweight points at, once bound. */
    public final long address()
    {
        return view.addressOffset();
    }

    /**
     * Points at a map entry's value by the native address {@link #address()} gave after an acquire of the same key. An
     * entry of fixed size stays where it is while it is in the map (Chronicle Map never moves a present entry), so a
     * writer that keeps the address can write it again without the lookup. The flyweight then has no Chronicle store
     * ({@link #bytesStore()} is null); the next lookup that takes it binds it again.
     */
    public final void wrapAddress(final long address)
    {
        store = null;
        offset = 0;
        view.wrap(address, (int)maxSize());
    }

    /** True once the flyweight points at memory. */
    public final boolean isBound()
    {
        return view.addressOffset() != 0;
    }

    final long getLong(final int at)
    {
        return view.getLong(at, ByteOrder.LITTLE_ENDIAN);
    }

    final void putLong(final int at, final long value)
    {
        view.putLong(at, value, ByteOrder.LITTLE_ENDIAN);
    }

    final int getInt(final int at)
    {
        return view.getInt(at, ByteOrder.LITTLE_ENDIAN);
    }

    final void putInt(final int at, final int value)
    {
        view.putInt(at, value, ByteOrder.LITTLE_ENDIAN);
    }

    final byte getByte(final int at)
    {
        return view.getByte(at);
    }

    final void putByte(final int at, final byte value)
    {
        view.putByte(at, value);
    }

    final void putBytes(final int at, final DirectBuffer src, final int srcOffset, final int length)
    {
        view.putBytes(at, src, srcOffset, length);
    }

    final void getBytes(final int at, final MutableDirectBuffer dst, final int dstOffset, final int length)
    {
        view.getBytes(at, dst, dstOffset, length);
    }

    final void putBytes(final int at, final byte[] src, final int srcOffset, final int length)
    {
        view.putBytes(at, src, srcOffset, length);
    }

    final void getBytes(final int at, final byte[] dst, final int dstOffset, final int length)
    {
        view.getBytes(at, dst, dstOffset, length);
    }

    final boolean bytesEqual(final int at, final DirectBuffer other, final int otherOffset, final int length)
    {
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
        {
            if (view.getLong(at + i) != other.getLong(otherOffset + i))
            {
                return false;
            }
        }
        for (; i < length; i++)
        {
            if (view.getByte(at + i) != other.getByte(otherOffset + i))
            {
                return false;
            }
        }
        return true;
    }

    final void zero(final int at, final int length)
    {
        view.setMemory(at, length, (byte)0);
    }

    /**
     * Native scratch memory for a key flyweight that is filled by the caller before each lookup; never freed (a few
     * bytes per key).
     */
    static BytesStore<?, ?> scratch(final int size)
    {
        return BytesStore.nativeStoreWithFixedCapacity(size);
    }
}
