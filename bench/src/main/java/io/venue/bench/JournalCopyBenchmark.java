package io.venue.bench;

import net.openhft.chronicle.bytes.MappedBytes;
import org.agrona.BufferUtil;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The copy of a journal batch into a Chronicle mapped file, the way {@code JournalAppender.commit} writes an excerpt's
 * bytes: from a heap array ({@code Bytes.write(byte[])}, which Chronicle copies with a loop of 16 bytes an iteration
 * on Java 9 and later) against from off-heap memory ({@code Bytes.unsafeWrite(address)}, one memory-to-memory copy).
 * A batch of 64 commands with their events is about 57 KB; the writes walk a 64 MiB mapped region, so the target is
 * mostly not in the cache, as a journal's next pages are not, but its pages are mapped and touched once at set-up, as
 * the journal pretoucher leaves them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class JournalCopyBenchmark
{
    private static final long REGION = 64L << 20;

    @Param({"1024", "57600"})
    int batchBytes;

    private File file;
    private MappedBytes mapped;
    private byte[] heap;
    private ByteBuffer direct;
    private long directAddress;
    private long position;

    @Setup
    public void setUp() throws Exception
    {
        final File folder = new File("/dev/shm").isDirectory() ? new File("/dev/shm") : null;
        file = File.createTempFile("journal-copy", ".bin", folder);
        mapped = MappedBytes.mappedBytes(file, REGION + (1 << 20));
        heap = new byte[batchBytes];
        new Random(7).nextBytes(heap);
        direct = ByteBuffer.allocateDirect(batchBytes);
        direct.put(heap).flip();
        directAddress = BufferUtil.address(direct);
        for (long at = 0; at < REGION; at += batchBytes)
        {
            mapped.writePosition(at);
            mapped.write(heap, 0, batchBytes);
        }
    }

    @TearDown
    public void tearDown() throws Exception
    {
        mapped.releaseLast();
        Files.deleteIfExists(file.toPath());
    }

    private long next()
    {
        position += batchBytes;
        if (position + batchBytes > REGION)
        {
            position = 0;
        }
        return position;
    }

    @Benchmark
    public long fromHeapArray()
    {
        mapped.writePosition(next());
        mapped.write(heap, 0, batchBytes);
        return mapped.writePosition();
    }

    @Benchmark
    public long fromOffHeap()
    {
        mapped.writePosition(next());
        mapped.unsafeWrite(directAddress, batchBytes);
        return mapped.writePosition();
    }
}
