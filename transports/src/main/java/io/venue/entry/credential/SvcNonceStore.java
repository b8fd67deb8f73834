package io.venue.entry.credential;
import java.util.function.ObjLongConsumer;

/**
 * Where each API key's highest accepted SVC-Nonce outlives the process, so a request accepted before a restart stays
 * a replay after it (spec 5.4: each nonce single use), whatever its timestamp. Called under the lane's nonce lock.
 */
public interface SvcNonceStore
{
    /** Gives every key's highest accepted nonce to {@code into}, at start. */
    void load(ObjLongConsumer<String> into);

    /** Keeps {@code nonce} as the highest accepted for the key. */
    void put(String apiKeyId, long nonce);

    /**
     * The earliest request time a lane that started at {@code laneStartedMs} takes. A lane knows only the nonces its
     * store kept, so it refuses requests dated before its start; a store that may lack nonces that were accepted (a
     * file found damaged, found missing while the journal holds credentials, a key that did not fit, a promotion in
     * place of a primary whose requests it never held) moves that to its start or promotion plus the 30 s skew, so
     * none of them can pass again (MACHINE-AUTH.md).
     */
    default long acceptsTimestampsFromMs(final long laneStartedMs)
    {
        return laneStartedMs;
    }
}
