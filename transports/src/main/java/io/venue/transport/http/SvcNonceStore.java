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
}
