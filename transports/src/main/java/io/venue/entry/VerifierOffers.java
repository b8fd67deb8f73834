package io.venue.entry;

import io.venue.verifier.CancelReplaceCheck;

/**
 * How a lane hands a request to the verifier pool: on its pre-batched ring when {@code prebatched} (a large batch, or a
 * request behind one of its connection's on that ring) and on its low-latency ring otherwise. Each offer returns false
 * when that ring is full; it never blocks.
 */
public final class VerifierOffers
{
    private VerifierOffers()
    {
    }

    /** A signed action's JSON body. */
    @FunctionalInterface
    public interface Body
    {
        boolean offer(boolean prebatched, long connectionId, long correlationId, byte[] body, int offset, int length);
    }

    /** An owner's intent: the text the owner signed, the signature and the command that applies it. */
    @FunctionalInterface
    public interface Intent
    {
        boolean offer(boolean prebatched, long connectionId, long correlationId, byte[] owner, byte[] signature, byte[] text,
            byte[] command, int commandLength);
    }

    /** An MM cancel-replace: its signed fields, both signatures and the command. */
    @FunctionalInterface
    public interface CancelReplace
    {
        boolean offer(boolean prebatched, long connectionId, long correlationId, CancelReplaceCheck.Order order,
            byte[] signatures, byte[] command, int commandLength);
    }
}
