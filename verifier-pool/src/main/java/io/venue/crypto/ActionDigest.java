package io.venue.crypto;

import io.venue.action.Address;

import java.nio.charset.StandardCharsets;

/**
 * The action digests of spec 5.2: blake3 over a domain string, then (v2 only) the chain binding, then
 * the canonical JSON of the ActionPayload.
 * <p>
 * v2 = blake3("SERVICE/ACTION_PAYLOAD/v2" || chain_id as u64 big-endian || verifying_contract (20 bytes) || json)
 * <br>
 * v1 = blake3("SERVICE/ACTION_PAYLOAD/v1" || json), kept for verifying old signatures only.
 * <p>
 * Not thread safe: one instance per verifier thread.
 */
public final class ActionDigest
{
    public static final int DIGEST_LENGTH = Blake3.DIGEST_LENGTH;

    private static final byte[] V2_DOMAIN = "SERVICE/ACTION_PAYLOAD/v2".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] V1_DOMAIN = "SERVICE/ACTION_PAYLOAD/v1".getBytes(StandardCharsets.US_ASCII);
    private static final int CHAIN_BINDING_LENGTH = 8 + Address.LENGTH;

    private final Blake3 blake3 = new Blake3();
    private final long chainId;
    private final Address verifyingContract;
    // Domain and chain binding are the same for every action, so they are laid out once.
    private final byte[] v2Prefix = new byte[V2_DOMAIN.length + CHAIN_BINDING_LENGTH];

    public ActionDigest(final long chainId, final Address verifyingContract)
    {
        this.chainId = chainId;
        this.verifyingContract = verifyingContract;

        System.arraycopy(V2_DOMAIN, 0, v2Prefix, 0, V2_DOMAIN.length);
        final int chainOffset = V2_DOMAIN.length;
        for (int i = 0; i < 8; i++)
        {
            v2Prefix[chainOffset + i] = (byte)(chainId >>> (56 - 8 * i));
        }
        verifyingContract.copyTo(v2Prefix, chainOffset + 8);
    }

    public long chainId()
    {
        return chainId;
    }

    public Address verifyingContract()
    {
        return verifyingContract;
    }

    /** The chain-bound v2 digest of canonical JSON; writes 32 bytes to {@code out}. */
    public void v2(final byte[] json, final int offset, final int length, final byte[] out, final int outOffset)
    {
        blake3.reset();
        blake3.update(v2Prefix, 0, v2Prefix.length);
        blake3.update(json, offset, length);
        blake3.digest(out, outOffset);
    }

    /** The legacy v1 digest, without chain binding; writes 32 bytes to {@code out}. */
    public void v1(final byte[] json, final int offset, final int length, final byte[] out, final int outOffset)
    {
        blake3.reset();
        blake3.update(V1_DOMAIN, 0, V1_DOMAIN.length);
        blake3.update(json, offset, length);
        blake3.digest(out, outOffset);
    }
}
