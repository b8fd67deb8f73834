package io.venue.engine.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Writes raw fields of a closed state's meta file, to stage damage the tests must detect. */
final class MetaPoke
{
    static final int MAGIC = 0;
    static final int FORMAT_VERSION = 8;
    static final int CLOSE_STATE = 12;
    static final int APPLIED_SEQUENCE = 16;
    static final int PENDING_SEQUENCE = 24;
    static final int BOOT_ID = 32;
    static final int STORES = 64;
    static final int STORE_RECORD = 32;
    static final int FILE_LENGTH = 8;
    static final int VALUE_SIZE = 20;

    private MetaPoke()
    {
    }

    static void putInt(final Path folder, final int offset, final int value) throws IOException
    {
        write(folder, offset, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value));
    }

    static void putLong(final Path folder, final int offset, final long value) throws IOException
    {
        write(folder, offset, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value));
    }

    static int storeField(final StoreFile store, final int field)
    {
        return STORES + store.metaSlot() * STORE_RECORD + field;
    }

    private static void write(final Path folder, final int offset, final ByteBuffer bytes) throws IOException
    {
        try (FileChannel channel = FileChannel.open(folder.resolve(StateMeta.FILE_NAME), StandardOpenOption.WRITE))
        {
            channel.write(bytes, offset);
        }
    }
}
