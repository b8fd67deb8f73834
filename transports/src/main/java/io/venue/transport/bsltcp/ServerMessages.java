package io.venue.transport.bsltcp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.venue.bsltcp.sbe.ErrorCode;
import io.venue.bsltcp.sbe.ErrorEncoder;
import io.venue.bsltcp.sbe.ProtectionAckEncoder;
import io.venue.bsltcp.sbe.ProtectionResult;
import io.venue.bsltcp.sbe.HeartbeatEncoder;
import io.venue.bsltcp.sbe.LoginAcceptedEncoder;
import io.venue.bsltcp.sbe.LoginRejectReason;
import io.venue.bsltcp.sbe.LoginRejectedEncoder;
import io.venue.bsltcp.sbe.LogoutEncoder;
import io.venue.bsltcp.sbe.MessageHeaderEncoder;
import io.venue.bsltcp.sbe.OrderAnswersEncoder;
import io.venue.bsltcp.sbe.OrderOutcome;
import io.venue.bsltcp.sbe.RequestRefusedEncoder;
import io.venue.bsltcp.sbe.ResultMode;
import io.venue.entry.Answer;
import io.venue.entry.RejectCodes;
import io.venue.entry.mm.MmWindows;
import org.agrona.ExpandableArrayBuffer;

/**
 * Encodes the server's messages of one session, each framed ({@link BslFraming}) into a buffer of the channel's
 * allocator: SBE encoders over one scratch buffer, copied once into the frame. Used on the session's event loop only.
 */
final class ServerMessages
{
    private static final byte[] NO_ORDER_ID = new byte[32];

    private final ExpandableArrayBuffer scratch = new ExpandableArrayBuffer(1024);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final LoginAcceptedEncoder loginAccepted = new LoginAcceptedEncoder();
    private final LoginRejectedEncoder loginRejected = new LoginRejectedEncoder();
    private final HeartbeatEncoder heartbeat = new HeartbeatEncoder();
    private final OrderAnswersEncoder orderAnswers = new OrderAnswersEncoder();
    private final RequestRefusedEncoder requestRefused = new RequestRefusedEncoder();
    private final LogoutEncoder logout = new LogoutEncoder();
    private final ErrorEncoder error = new ErrorEncoder();
    private final ProtectionAckEncoder protectionAck = new ProtectionAckEncoder();

    ByteBuf loginAccepted(final ByteBufAllocator alloc, final long lastProcessedSeq, final long sessionId,
        final byte[] account, final int heartbeatIntervalMs, final int maxFrameBytes, final long serverTimeMs)
    {
        loginAccepted.wrapAndApplyHeader(scratch, 0, header).lastProcessedSeq(lastProcessedSeq)
            .sessionId(sessionId).putAccount(account, 0, account.length).heartbeatIntervalMs(heartbeatIntervalMs)
            .maxFrameBytes(maxFrameBytes).serverTimeMs(serverTimeMs);
        return frame(alloc, loginAccepted.encodedLength());
    }

    ByteBuf loginRejected(final ByteBufAllocator alloc, final long lastProcessedSeq, final LoginRejectReason reason,
        final long serverTimeMs, final String message)
    {
        loginRejected.wrapAndApplyHeader(scratch, 0, header).lastProcessedSeq(lastProcessedSeq).reason(reason)
            .serverTimeMs(serverTimeMs).message(message);
        return frame(alloc, loginRejected.encodedLength());
    }

    ByteBuf heartbeat(final ByteBufAllocator alloc, final long lastProcessedSeq)
    {
        heartbeat.wrapAndApplyHeader(scratch, 0, header).lastProcessedSeq(lastProcessedSeq);
        return frame(alloc, heartbeat.encodedLength());
    }

    /**
     * The answer of request {@code seq}: every order in detailed mode, those not accepted in ack mode
     * ({@code answers[i]} null: the pool did not take order i), and the account's budget.
     */
    ByteBuf orderAnswers(final ByteBufAllocator alloc, final long lastProcessedSeq, final long seq,
        final boolean detailed, final Answer[] answers, final MmWindows.Budget budget)
    {
        int accepted = 0;
        for (final Answer answer : answers)
        {
            accepted += answer != null && answer.accepted() ? 1 : 0;
        }
        final int listed = detailed ? answers.length : answers.length - accepted;
        orderAnswers.wrapAndApplyHeader(scratch, 0, header).lastProcessedSeq(lastProcessedSeq).seq(seq)
            .resultMode(detailed ? ResultMode.DETAILED : ResultMode.ACK).orders(answers.length).accepted(accepted)
            .refused(answers.length - accepted).windowMs(budget.windowMs()).usedActions(budget.usedActions())
            .remainingActions(budget.remainingActions()).resetInMs(budget.resetInMs());
        final OrderAnswersEncoder.ResultsEncoder results = orderAnswers.resultsCount(listed);
        for (int i = 0; i < answers.length; i++)
        {
            final Answer answer = answers[i];
            final boolean ok = answer != null && answer.accepted();
            if (!detailed && ok)
            {
                continue;
            }
            results.next().index(i).outcome(outcome(answer)).sequence(answer == null || answer.sequence <= 0 ? -1 :
                answer.sequence)
                .putOrderId(ok && answer.orderIds != null && answer.orderIds.length > 0 ? answer.orderIds[0] :
                NO_ORDER_ID, 0, NO_ORDER_ID.length);
            results.code(code(answer)).message(message(answer));
        }
        return frame(alloc, orderAnswers.encodedLength());
    }

    /** A request refused whole: {@code full} the window that refused it, or null (then the account's budget). */
    ByteBuf requestRefused(final ByteBufAllocator alloc, final long lastProcessedSeq, final long seq,
        final String code, final String field, final String message, final long retryAfterMs,
        final MmWindows.Refusal full, final MmWindows.Budget budget)
    {
        requestRefused.wrapAndApplyHeader(scratch, 0, header).lastProcessedSeq(lastProcessedSeq).seq(seq)
            .retryAfterMs(retryAfterMs);
        if (full != null)
        {
            requestRefused.windowMs(full.windowMs()).usedActions(full.usedActions())
                .remainingActions(Math.max(0, full.maxActionsPerWindow() - full.usedActions()))
                .resetInMs(full.resetInMs());
        }
        else if (budget != null)
        {
            requestRefused.windowMs(budget.windowMs()).usedActions(budget.usedActions())
                .remainingActions(budget.remainingActions()).resetInMs(budget.resetInMs());
        }
        else
        {
            requestRefused.windowMs(0).usedActions(0).remainingActions(0).resetInMs(0);
        }
        requestRefused.code(code).field(field).message(message);
        return frame(alloc, requestRefused.encodedLength());
    }

    ByteBuf logout(final ByteBufAllocator alloc, final long lastProcessedSeq, final String reason)
    {
        logout.wrapAndApplyHeader(scratch, 0, header).lastProcessedSeq(lastProcessedSeq).reason(reason);
        return frame(alloc, logout.encodedLength());
    }

    ByteBuf protectionAck(final ByteBufAllocator alloc, final long lastProcessedSeq, final long requestId,
        final ProtectionResult result, final long deadlineMs, final long sequence, final String message)
    {
        protectionAck.wrapAndApplyHeader(scratch, 0, header).lastProcessedSeq(lastProcessedSeq).requestId(requestId)
            .result(result).deadlineMs(deadlineMs).sequence(sequence).message(message);
        return frame(alloc, protectionAck.encodedLength());
    }

    ByteBuf error(final ByteBufAllocator alloc, final long lastProcessedSeq, final ErrorCode code,
        final String message)
    {
        error.wrapAndApplyHeader(scratch, 0, header).lastProcessedSeq(lastProcessedSeq).code(code).message(message);
        return frame(alloc, error.encodedLength());
    }

    private ByteBuf frame(final ByteBufAllocator alloc, final int bodyLength)
    {
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + bodyLength;
        final ByteBuf frame = alloc.buffer(BslFraming.LENGTH_FIELD_BYTES + length);
        frame.writeIntLE(length);
        frame.writeBytes(scratch.byteArray(), 0, length);
        return frame;
    }

    private static OrderOutcome outcome(final Answer answer)
    {
        if (answer == null)
        {
            return OrderOutcome.NOT_VERIFIED;
        }
        return switch (answer.kind)
        {
            case ACCEPTED -> OrderOutcome.ACCEPTED;
            case TIMED_OUT -> OrderOutcome.TIMED_OUT;
            default -> OrderOutcome.REJECTED;
        };
    }

    private static String code(final Answer answer)
    {
        if (answer == null)
        {
            return "QUEUE_LIMIT";
        }
        return switch (answer.kind)
        {
            case ACCEPTED -> "";
            case REJECTED -> RejectCodes.wire(answer.code);
            case REFUSED -> answer.reason.name();
            case TIMED_OUT -> "TIMED_OUT";
            case UNAPPLIED -> "UNAPPLIED";
        };
    }

    private static String message(final Answer answer)
    {
        if (answer == null)
        {
            return "the verifier queue was full: this order was not verified, send it again";
        }
        return switch (answer.kind)
        {
            case ACCEPTED -> "";
            case REJECTED -> RejectCodes.message(answer.code);
            case REFUSED -> answer.detailMessage() == null ? "" : answer.detailMessage();
            case TIMED_OUT -> "no decision within the answer timeout: ask the order's status";
            case UNAPPLIED -> "journaled, not applied by the engine";
        };
    }
}
