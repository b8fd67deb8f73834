package io.venue.svc;

import org.agrona.collections.Object2LongHashMap;

/**
 * The machine transport nonce rule (spec 3.2, 5.4): per API key, a nonce is accepted only if it is
 * strictly greater, as an unsigned 64-bit number, than the highest accepted so far. That makes each
 * (apiKeyId, SVC-Nonce) single use with one number of state per key; a rejected nonce is a replay (409).
 * <p>
 * The reserved nonce 2^64 - 1 ({@link SvcHeaders#RESERVED_NONCE}) doubles as "none accepted yet", so
 * every valid nonce, 0 included, is above it in this tracker's eyes and it is itself never accepted.
 * <p>
 * Single-writer: call from the one thread that owns the keys' nonce state. Offer only nonces of
 * requests that verified, or a forger could burn a key's nonces.
 */
public final class SvcNonceTracker
{
    /** What {@link #highest(String)} returns for a key with no accepted nonce. */
    public static final long NONE = SvcHeaders.RESERVED_NONCE;

    private final Object2LongHashMap<String> highest = new Object2LongHashMap<>(NONE);

    /**
     * Records the nonce and returns true if it is above the highest accepted for the key; otherwise
     * changes nothing and returns false.
     */
    public boolean tryAccept(final String apiKeyId, final long nonce)
    {
        if (nonce == NONE)
        {
            return false;
        }
        final long last = highest.getValue(apiKeyId);
        if (last != NONE && Long.compareUnsigned(nonce, last) <= 0)
        {
            return false;
        }
        highest.put(apiKeyId, nonce);
        return true;
    }

    /** As {@link #tryAccept(String, long)}, as a result the transport can answer with. */
    public SvcAuthResult accept(final String apiKeyId, final long nonce)
    {
        return tryAccept(apiKeyId, nonce) ? SvcAuthResult.OK : SvcAuthResult.NONCE_REPLAYED;
    }

    /** The highest accepted nonce of the key, or {@link #NONE}. */
    public long highest(final String apiKeyId)
    {
        return highest.getValue(apiKeyId);
    }

    /** Drops the state of a revoked key. */
    public void forget(final String apiKeyId)
    {
        highest.removeKey(apiKeyId);
    }

    /** Number of keys tracked. */
    public int size()
    {
        return highest.size();
    }
}
