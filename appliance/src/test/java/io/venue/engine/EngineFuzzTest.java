package io.venue.engine;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Damaged and random command records: the engine never throws, and a record it refuses (onCommand
 * returns false) changes nothing at all. A damaged record it accepts is a well-formed command and goes
 * through the gate like any other.
 */
class EngineFuzzTest
{
    private static final int STREAM = 600;

    private static List<byte[]> stream(final long seed)
    {
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        new RandomStream(h, seed).setUp().run(STREAM);
        return h.records();
    }

    @Property(tries = 40)
    void damagedRecordsNeverThrowAndRefusedOnesChangeNothing(@ForAll final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<byte[]> records = stream(seed);
        final Engine engine = new Engine(RandomStream.config().operator(EngineHarness.OPERATOR),
            (buffer, offset, length) -> { });
        for (final byte[] record : records)
        {
            if (random.nextInt(3) == 0)
            {
                final byte[] damaged = damage(record, random);
                final byte[] before = engine.stateHash();
                if (!engine.onCommand(new UnsafeBuffer(damaged), 0, damaged.length))
                {
                    assertArrayEquals(before, engine.stateHash(), "a refused record must change nothing");
                }
            }
            engine.onCommand(new UnsafeBuffer(record), 0, record.length);
        }
    }

    @Property(tries = 200)
    void randomBytesNeverThrow(@ForAll final byte[] bytes)
    {
        final Engine engine = new Engine(RandomStream.config().operator(EngineHarness.OPERATOR),
            (buffer, offset, length) -> { });
        final byte[] before = engine.stateHash();
        if (!engine.onCommand(new UnsafeBuffer(Arrays.copyOf(bytes, Math.max(bytes.length, 1))), 0, bytes.length))
        {
            assertArrayEquals(before, engine.stateHash());
        }
    }

    private static byte[] damage(final byte[] record, final SplittableRandom random)
    {
        final byte[] copy = record.clone();
        switch (random.nextInt(4))
        {
            case 0 ->
            {
                // flip bytes anywhere, header included
                for (int i = 0, n = 1 + random.nextInt(4); i < n; i++)
                {
                    copy[random.nextInt(copy.length)] = (byte)random.nextInt(256);
                }
                return copy;
            }
            case 1 ->
            {
                return Arrays.copyOf(copy, random.nextInt(copy.length));
            }
            case 2 ->
            {
                // an enum or flag field: the bytes after the envelope are mostly such
                final int at = Math.min(copy.length - 1, 8 + 20 + random.nextInt(Math.max(1, copy.length - 28)));
                copy[at] = (byte)(2 + random.nextInt(250));
                return copy;
            }
            default ->
            {
                // the template id of another message over this body
                copy[2] = (byte)random.nextInt(64);
                copy[3] = 0;
                return copy;
            }
        }
    }
}
