package io.venue.crypto;

import org.bouncycastle.crypto.digests.Blake3Digest;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class OrderIdsTest
{
    @Test
    void batchLegIdIsBlake3OfDomainDigestAndBigEndianIndex()
    {
        final byte[] digest = new byte[32];
        Arrays.fill(digest, (byte)0xab);
        final byte[] domain = "SERVICE/ORDER_ID/BATCH_LEG/v1".getBytes(StandardCharsets.US_ASCII);
        final byte[] input = ByteBuffer.allocate(domain.length + 36).put(domain).put(digest).putInt(999).array();
        final Blake3Digest reference = new Blake3Digest(256);
        reference.update(input, 0, input.length);
        final byte[] expected = new byte[32];
        reference.doFinal(expected, 0);

        assertArrayEquals(expected, OrderIds.batchLeg(digest, 999).toBytes());
        assertFalse(Arrays.equals(OrderIds.batchLeg(digest, 0).toBytes(), OrderIds.batchLeg(digest, 1).toBytes()));
    }
}
