package io.venue.verifier;

import io.venue.tuning.Doorbell;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import static io.venue.verifier.VerificationResultLayout.REQUEST_HEADER_LENGTH;
import static io.venue.verifier.VerificationResultLayout.RESULT_MSG_TYPE;
import static io.venue.verifier.VerificationResultLayout.INTENT_MSG_TYPE;
import static io.venue.verifier.VerificationResultLayout.CANCEL_REPLACE_MSG_TYPE;
import static io.venue.verifier.VerificationResultLayout.TYPED_MM_REQUEST_MSG_TYPE;

/**
 * One verifier thread's duty cycle: take requests from its own rings in order, verify each, publish the
 * result to the shared result ring. When the result ring is full the finished result is held and
 * retried before any further request is taken, so nothing is lost and nothing is verified twice.
 * <p>
 * A duty cycle takes up to the batch limit from the low-latency ring, then one request from the pre-batched ring once
 * every low-latency request offered before it was taken (its stamp): a small request waits behind at most one
 * pre-batched request, the batch still advances under a steady stream of small ones, and no request overtakes one that
 * its connection offered earlier on the other ring.
 */
final class VerifierAgent implements Agent
{
    private final String roleName;
    private final RingBuffer requests;
    private final RingBuffer prebatched;
    private final RingBuffer results;
    private final ActionVerifier verifier;
    private final OwnerIntentVerifier intents;
    private final CancelReplaceVerifier cancelReplaces;
    private final int batchLimit;
    private final Doorbell resultsDoorbell;
    private final MutableDirectBuffer scratch = new ExpandableArrayBuffer(8192);
    private final ControlledMessageHandler onRequest = this::onRequest;
    private final ControlledMessageHandler onPrebatched = this::onPrebatched;
    /** A finished result waits for room in the result ring: the consumer rings this verifier when it makes room. */
    private volatile boolean held;
    private int pendingLength;
    private int pendingType;

    VerifierAgent(
        final String roleName,
        final RingBuffer requests,
        final RingBuffer prebatched,
        final RingBuffer results,
        final ActionVerifier verifier,
        final OwnerIntentVerifier intents,
        final CancelReplaceVerifier cancelReplaces,
        final int batchLimit,
        final Doorbell resultsDoorbell)
    {
        this.resultsDoorbell = resultsDoorbell;
        this.roleName = roleName;
        this.requests = requests;
        this.prebatched = prebatched;
        this.results = results;
        this.verifier = verifier;
        this.intents = intents;
        this.cancelReplaces = cancelReplaces;
        this.batchLimit = batchLimit;
    }

    @Override
    public int doWork()
    {
        int flushed = 0;
        if (pendingLength > 0)
        {
            if (!flushPending())
            {
                return 0;
            }
            flushed = 1;
        }
        final int taken = requests.controlledRead(onRequest, batchLimit);
        // a held result stops the cycle: nothing more is verified until it is published
        return flushed + taken + (pendingLength > 0 ? 0 : prebatched.controlledRead(onPrebatched, 1));
    }

    private ControlledMessageHandler.Action onPrebatched(
        final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        // the low-latency requests offered before this one go first: its connection may have sent one of them earlier
        if (requests.consumerPosition() < buffer.getLong(index))
        {
            return ControlledMessageHandler.Action.ABORT;
        }
        final int stamp = VerificationResultLayout.PREBATCHED_STAMP_LENGTH;
        return onRequest(msgTypeId, buffer, index + stamp, length - stamp);
    }

    private ControlledMessageHandler.Action onRequest(
        final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final long connectionId = buffer.getLong(index);
        final long correlationId = buffer.getLong(index + 8);
        final int body = index + REQUEST_HEADER_LENGTH;
        final int bodyLength = length - REQUEST_HEADER_LENGTH;
        if (msgTypeId == INTENT_MSG_TYPE)
        {
            pendingLength = intents.verify(buffer, body, bodyLength, connectionId, correlationId, scratch);
            pendingType = INTENT_MSG_TYPE;
        }
        else if (msgTypeId == CANCEL_REPLACE_MSG_TYPE)
        {
            pendingLength = cancelReplaces.verify(buffer, body, bodyLength, connectionId, correlationId, scratch);
            pendingType = INTENT_MSG_TYPE;
        }
        else if (msgTypeId == TYPED_MM_REQUEST_MSG_TYPE)
        {
            // a binary lane's order as it decoded it: the same result as its JSON submit of limit class MM
            pendingLength = verifier.verifyTyped(buffer, body, bodyLength, connectionId, correlationId, scratch, true);
            scratch.putByte(VerificationResultLayout.LIMIT_CLASS, (byte)1);
            pendingType = RESULT_MSG_TYPE;
        }
        else
        {
            // a submit of the MM routes: verified over the v2 digest only, and of limit class MM
            final boolean mmRoutes = msgTypeId == VerificationResultLayout.MM_REQUEST_MSG_TYPE;
            pendingLength = verifier.verify(buffer, body, bodyLength, connectionId, correlationId, scratch, mmRoutes);
            scratch.putByte(VerificationResultLayout.LIMIT_CLASS, (byte)(mmRoutes ? 1 : 0));
            pendingType = RESULT_MSG_TYPE;
        }
        // consume the request either way; a result that does not fit now is held and stops the batch
        return flushPending() ? ControlledMessageHandler.Action.COMMIT : ControlledMessageHandler.Action.BREAK;
    }

    private boolean flushPending()
    {
        if (results.write(pendingType, scratch, 0, pendingLength))
        {
            pendingLength = 0;
            if (held)
            {
                held = false; // a volatile store only when the mark changes, not one per result
            }
            // each result at once: a verification takes tens of microseconds, the batch's first should not wait for
            // its last
            resultsDoorbell.ring();
            return true;
        }
        held = true;
        return false;
    }

    /** Whether a result waits for room in the result ring (readable from the consumer's thread). */
    boolean isHeld()
    {
        return held;
    }

    @Override
    public String roleName()
    {
        return roleName;
    }
}
