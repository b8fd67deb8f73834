package io.venue.replication;

import com.sun.management.ThreadMXBean;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The seal's HMAC-SHA256 against the JDK's, on heap and direct buffers, and the bytes it allocates once made: none. */
class ReplicationMacTest
{
    @Test
    void isTheJdksHmacSha256OfTheDirectionAndTheMessage() throws Exception
    {
        final Random random = new Random(7);
        for (final int keyLength : new int[] {32, 64, 65, 100})
        {
            final byte[] key = new byte[keyLength];
            random.nextBytes(key);
            final ReplicationMac mac = new ReplicationMac(key);
            final Mac jdk = Mac.getInstance("HmacSHA256");
            jdk.init(new SecretKeySpec(key, "HmacSHA256"));
            for (final int length : new int[] {0, 1, 55, 64, 4095, 4096, 4097, 10_000})
            {
                final byte[] message = new byte[length + 16];
                random.nextBytes(message);
                jdk.update(ReplicationSeal.TO_PRIMARY);
                jdk.update(message, 0, length);
                final byte[] expected = jdk.doFinal();
                final UnsafeBuffer heap = new UnsafeBuffer(message);
                final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(message.length));
                direct.putBytes(0, message);
                for (final UnsafeBuffer buffer : new UnsafeBuffer[] {heap, direct})
                {
                    mac.sign(ReplicationSeal.TO_PRIMARY, buffer, 0, length, buffer, length);
                    assertArrayEquals(expected, mac.lastDigest(), keyLength + "-byte key, " + length + " bytes");
                    assertTrue(mac.verify(ReplicationSeal.TO_PRIMARY, buffer, 0, length, length));
                    assertFalse(mac.verify(ReplicationSeal.TO_STANDBY, buffer, 0, length, length),
                        "the other direction");
                    final byte[] tag = new byte[ReplicationMac.LENGTH];
                    buffer.getBytes(length, tag);
                    assertArrayEquals(Arrays.copyOf(expected, ReplicationMac.LENGTH), tag, "the first 16 bytes");
                }
            }
        }
    }

    @Test
    void allocatesNothingOnceMade()
    {
        final ReplicationMac mac = new ReplicationMac(ReplicationRig.KEY);
        final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(8_192));
        final UnsafeBuffer heap = new UnsafeBuffer(new byte[8_192]);
        final ThreadMXBean threads = (ThreadMXBean)ManagementFactory.getThreadMXBean();
        boolean ok = true;
        for (int round = 0; round < 3; round++)
        {
            final long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            for (int i = 0; i < 10_000; i++)
            {
                mac.sign(ReplicationSeal.TO_STANDBY, heap, 0, 300, heap, 300);
                ok &= mac.verify(ReplicationSeal.TO_STANDBY, heap, 0, 300, 300);
                mac.sign(ReplicationSeal.TO_STANDBY, direct, 0, 5_000, direct, 5_000);
                ok &= mac.verify(ReplicationSeal.TO_STANDBY, direct, 0, 5_000, 5_000);
            }
            final long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
            if (round == 2)
            {
                assertTrue(allocated < 1_024, allocated + " bytes for 40,000 MACs");
            }
        }
        assertTrue(ok);
    }
}
