package io.venue.crypto;

import io.venue.action.OrderId;

import java.nio.charset.StandardCharsets;

/**
 * Order ids a client can compute before sending (docs/SIGNING.md section 5). A SpotPlaceOrder's id is the
 * v2 digest of its action; leg {@code i} of a Batch gets
 * {@code blake3("SERVICE/ORDER_ID/BATCH_LEG/v1" || batch v2 digest || i as 4 bytes big-endian)}.
 */
public final class OrderIds
{
    private static final byte[] BATCH_LEG_DOMAIN = "SERVICE/ORDER_ID/BATCH_LEG/v1".getBytes(StandardCharsets.US_ASCII);

    private final Blake3 blake3 = new Blake3();

    /** Writes the id of batch leg {@code legIndex} into {@code out}; reusable, allocation free. */
    public void batchLeg(final byte[] batchDigest, final int batchDigestOffset, final int legIndex, final byte[] out,
        final int outOffset)
    {
        blake3.reset();
        blake3.update(BATCH_LEG_DOMAIN, 0, BATCH_LEG_DOMAIN.length);
        blake3.update(batchDigest, batchDigestOffset, 32);
        blake3.update((byte)(legIndex >>> 24));
        blake3.update((byte)(legIndex >>> 16));
        blake3.update((byte)(legIndex >>> 8));
        blake3.update((byte)legIndex);
        blake3.digest(out, outOffset);
    }

    /** The id of batch leg {@code legIndex}, for tools. */
    public static OrderId batchLeg(final byte[] batchDigest, final int legIndex)
    {
        final byte[] id = new byte[32];
        new OrderIds().batchLeg(batchDigest, 0, legIndex, id, 0);
        return new OrderId(id);
    }
}
