package io.venue.entry;

import io.venue.verifier.CancelReplaceCheck;
import org.agrona.DirectBuffer;

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

    /**
     * One order of a binary lane as the typed action it is, with no JSON: its bytes in the typed order's layout
     * ({@code io.venue.action.typed.TypedOrder}: the action, then its signature) at {@code order[offset]}, and the
     * market of a place. The verifier derives the canonical JSON and the digest from it, byte for byte the
     * JSON route's.
     */
    @FunctionalInterface
    public interface Typed
    {
        boolean offerTyped(boolean prebatched, long connectionId, long correlationId, DirectBuffer order, int offset,
            long market);
    }

    /** An owner's intent: the text the owner signed, the signature and the command that applies it. */
    @FunctionalInterface
    public interface Intent
    {
        boolean offer(boolean prebatched, long connectionId, long correlationId, byte[] owner, byte[] signature,
            byte[] text, byte[] command, int commandLength);
    }

    /** An MM cancel-replace: its signed fields, both signatures and the command. */
    @FunctionalInterface
    public interface CancelReplace
    {
        boolean offer(boolean prebatched, long connectionId, long correlationId, CancelReplaceCheck.Order order,
            byte[] signatures, byte[] command, int commandLength);
    }
}
