package io.venue.transport.http;

/**
 * Where each API key's highest accepted SVC-Nonce outlives the process, so a request accepted before a restart stays
 * a replay after it (spec 5.4: each nonce single use), whatever its timestamp. Called under the lane's nonce lock.
 */
public interface SvcNonceStore
{
    /** Gives every key's highest accepted nonce to {@code into}, at start. */
    void load(java.util.function.ObjLongConsumer<String> into);

    /** Keeps {@code nonce} as the highest accepted for the key. */
    void put(String apiKeyId, long nonce);

    /**
     * Whether the store holds every nonce this node accepted before it started. When it may not (a file found damaged
     * or missing after requests were taken, a key that did not fit), the lane refuses requests dated before its start
     * plus the 30 s skew, so no request this node took before can pass again (MACHINE-AUTH.md).
     */
    default boolean complete()
    {
        return true;
    }
}
