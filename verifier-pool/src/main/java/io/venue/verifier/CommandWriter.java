package io.venue.verifier;

import io.venue.action.ActionPayload;
import org.agrona.MutableDirectBuffer;

/**
 * Writes a verified action's journal command on the verifier's thread, so that the single writer only stamps it
 * (sequence, time and epoch, left zero here) instead of parsing the canonical JSON again. The pool cannot name the
 * journal's schema (it sits below it), so the node gives it one writer per verifier thread.
 */
public interface CommandWriter
{
    /**
     * Writes the command of {@code payload} at {@code out[offset..)}, its sequence, time and epoch zero.
     *
     * @param digest         the v2 digest (32 bytes).
     * @param signerMatch    the ordinal of the verifier's {@link SignerMatch}.
     * @param rawSigner      the raw-mode candidate (20 bytes, zeros when not recovered).
     * @param personalSigner the personal-mode candidate (20 bytes, zeros when not recovered).
     * @param signature      r, s, v as the request carried them (65 bytes).
     * @param mmLimitClass   whether it came in on the MM routes, whose windows were charged before the pool.
     * @return the command's length, its header included.
     */
    int write(
        ActionPayload payload,
        byte[] digest,
        int signerMatch,
        byte[] rawSigner,
        byte[] personalSigner,
        byte[] signature,
        boolean mmLimitClass,
        MutableDirectBuffer out,
        int offset);
}
