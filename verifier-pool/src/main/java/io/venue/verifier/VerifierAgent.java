package io.venue.verifier;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.ringbuffer.RingBuffer;

import static io.venue.verifier.VerificationResultLayout.REQUEST_HEADER_LENGTH;
import static io.venue.verifier.VerificationResultLayout.RESULT_MSG_TYPE;

/**
 * One verifier thread's duty cycle: take requests from its own ring in order, verify each, publish the
 * result to the shared result ring. When the result ring is full the finished result is held and
 * retried before any further request is taken, so nothing is lost and nothing is verified twice.
 */
final class VerifierAgent implements Agent
{
    private final String roleName;
    private final RingBuffer requests;
    private final RingBuffer results;
    private final ActionVerifier verifier;
    private final int batchLimit;
    private final MutableDirectBuffer scratch = new ExpandableArrayBuffer(8192);
    private final ControlledMessageHandler onRequest = this::onRequest;
    private int pendingLength;

    VerifierAgent(
        final String roleName,
        final RingBuffer requests,
        final RingBuffer results,
        final ActionVerifier verifier,
        final int batchLimit)
    {
        this.roleName = roleName;
        this.requests = requests;
        this.results = results;
        this.verifier = verifier;
        this.batchLimit = batchLimit;
    }

    @Override
    public int doWork()
    {
        if (pendingLength > 0 && !flushPending())
        {
            return 0;
        }
        return requests.controlledRead(onRequest, batchLimit);
    }

    private ControlledMessageHandler.Action onRequest(
        final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final long connectionId = buffer.getLong(index);
        final long correlationId = buffer.getLong(index + 8);
        pendingLength = verifier.verify(
            buffer, index + REQUEST_HEADER_LENGTH, length - REQUEST_HEADER_LENGTH, connectionId, correlationId, scratch);
        // consume the request either way; a result that does not fit now is held and stops the batch
        return flushPending() ? ControlledMessageHandler.Action.COMMIT : ControlledMessageHandler.Action.BREAK;
    }

    private boolean flushPending()
    {
        if (results.write(RESULT_MSG_TYPE, scratch, 0, pendingLength))
        {
            pendingLength = 0;
            return true;
        }
        return false;
    }

    @Override
    public String roleName()
    {
        return roleName;
    }
}
