package io.venue.responder;

import io.venue.action.ActionPayload;
import io.venue.action.json.CanonicalJson;
import io.venue.engine.limit.TokenBucket;
import io.venue.entry.Answer;
import io.venue.entry.PendingRequests;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordCursor;
import io.venue.journal.queue.RecordHandler;
import io.venue.journal.sbe.ActionAcceptedDecoder;
import io.venue.journal.sbe.OrderDoneDecoder;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.ProtectionChangedDecoder;
import io.venue.journal.sbe.ProtectionTickDecoder;
import io.venue.journal.sbe.SessionsResetDecoder;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.ActionRejectedDecoder;
import io.venue.journal.sbe.CancelReplaceDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.OrderAcceptedDecoder;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.journal.sbe.FixSessionMarkDecoder;
import io.venue.journal.sbe.RequestRejectedDecoder;
import io.venue.journal.sbe.RequestsRejectedSummaryDecoder;
import io.venue.journal.sbe.TradeDecoder;
import io.venue.sequencer.ActionCommandDecoder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.Agent;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Answers the waiting requests from the journals, so an answer can only say what is journaled: reads each
 * command (the sequencer's record) and then the engine's events of that command (consecutive records of one
 * excerpt, which may hold other commands' events too), turns them into a lane-neutral {@link Answer} and hands it to
 * {@link PendingRequests}; each lane renders it in its own wire form. It also keeps the {@link ReadModels} from the
 * events. Runs on its own thread, after the engine; never touches the engine's state.
 */
public final class Responder implements Agent
{
    private final RecordCursor commands;
    private final RecordCursor events;
    private final PendingRequests pending;
    private final ReadModels models;
    private final int batchLimit;
    private final long rateLimit;
    private final long rateWindowMs;
    private final RecentAnswers recent;
    /** Events at or before this sequence were read by the start-up scan into the directory and the nonce windows. */
    private final long scannedThrough;
    private final Consumer<Throwable> onFailure;
    private volatile Throwable failure;
    private static final byte[] ZERO_DIGEST = new byte[32];
    private static final byte[] ZERO_ACCOUNT = new byte[20];
    private final Answer.Builder answer = new Answer.Builder();

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final RequestRejectedDecoder requestRejected = new RequestRejectedDecoder();
    private final RequestsRejectedSummaryDecoder summary = new RequestsRejectedSummaryDecoder();
    private final OrderDoneDecoder orderDone = new OrderDoneDecoder();
    private final ProtectionChangedDecoder protectionChanged = new ProtectionChangedDecoder();
    private final ActionAcceptedDecoder accepted = new ActionAcceptedDecoder();
    private final ActionRejectedDecoder rejected = new ActionRejectedDecoder();
    private final OrderAcceptedDecoder orderAccepted = new OrderAcceptedDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final ActionCommandDecoder commandDecoder = new ActionCommandDecoder();

    private final OutcomeCounters counters = new OutcomeCounters();
    private final AccountLimiters limiters;
    private final long[] limiterNow = new long[2];
    /** The command read and waiting for its events; 0 when none. */
    private long commandSequence;
    /** The stamped time of the command being answered. */
    private long commandTimeMs;
    private Answer commandRefusal;
    /** The command read is a summary of refusals: nobody waits for it, it has no events. */
    private boolean commandSummary;
    /** The outcome built from the command's events. */
    private final Outcome outcome = new Outcome();
    private boolean outcomeReady;
    /** The command's record, decoded again only when an answer needs its canonical JSON. */
    private final ExpandableArrayBuffer command = new ExpandableArrayBuffer(1024);
    private int commandLength;

    /** How often the requests past their answer timeout are answered TIMED_OUT (the precision of that timeout). */
    private static final long EXPIRY_INTERVAL_NS = 100_000_000L;
    private long lastExpiryNs = System.nanoTime();

    private final RecordHandler onCommand = this::onCommand;
    private final RecordHandler onEvent = this::onEvent;

    public Responder(
        final JournalTailer commands, final JournalTailer events, final PendingRequests pending,
        final ReadModels models, final int batchLimit, final long rateLimit, final long rateWindowMs,
        final RecentAnswers recent, final long scannedThrough,
        final Consumer<Throwable> onFailure)
    {
        this.rateWindowMs = rateWindowMs;
        this.limiters = new AccountLimiters(rateLimit, rateWindowMs);
        this.scannedThrough = scannedThrough;
        this.onFailure = onFailure;
        this.rateLimit = rateLimit;
        this.recent = recent;
        this.commands = new RecordCursor(commands);
        this.events = new RecordCursor(events);
        this.pending = pending;
        this.models = models;
        this.batchLimit = batchLimit;
    }

    @Override
    public int doWork()
    {
        // before the failure check: a request waits at most its timeout, also once this responder stopped
        final long now = System.nanoTime();
        if (now - lastExpiryNs >= EXPIRY_INTERVAL_NS)
        {
            lastExpiryNs = now;
            pending.expire();
        }
        if (failure != null)
        {
            return 0;
        }
        try
        {
            return answer();
        }
        catch (final RuntimeException ex)
        {
            // a journal this thread cannot read (damaged): stop answering, loudly, and let the sequencer and the engine
            // that share the thread go on; clients get 504 and the journal tools say where it breaks
            failure = ex;
            onFailure.accept(ex);
            return 0;
        }
    }

    private int answer()
    {
        int work = 0;
        while (work < batchLimit)
        {
            if (commandSequence == 0)
            {
                if (!commands.next(onCommand))
                {
                    break;
                }
                work++;
            }
            // Nothing of a command is shown (answer, status routes, read models) before it is released: journaled, and
            // with a synchronous standby held by the standby too, so no read can show what a failover would lose.
            if (pending.lastSequenced() < commandSequence)
            {
                break;
            }
            if (commandSummary)
            {
                // its refusals were each answered when the sequencer counted them
                commandSummary = false;
                commandSequence = 0;
                continue;
            }
            if (commandRefusal != null)
            {
                publish(commandSequence, commandRefusal);
                commandSequence = 0;
                commandRefusal = null;
                continue;
            }
            if (!outcomeReady)
            {
                outcome.clear();
                if (!events.next(onEvent))
                {
                    break;
                }
                while (events.nextInExcerptHasSequence(outcome.sequence))
                {
                    events.next(onEvent);
                }
                outcomeReady = true;
                work++;
            }
            if (outcome.sequence > commandSequence)
            {
                // the engine journals the events of every command it applied; a command it could not read has none,
                // and a protection tick that fired nothing or a reset that closed nothing have none either
                if (commandSequence > scannedThrough && !quietProtection())
                {
                    counters.unapplied();
                }
                publish(commandSequence, answer.unapplied(commandSequence, commandTimeMs).build());
                commandSequence = 0;
                continue;
            }
            outcomeReady = false;
            if (outcome.sequence == commandSequence)
            {
                publish(commandSequence, response());
                commandSequence = 0;
            }
        }
        return work;
    }

    /** Hands the answer to its request and the status routes, and counts it. */
    private void publish(final long sequence, final Answer response)
    {
        if (response.digest != null && !Arrays.equals(ZERO_DIGEST, response.digest))
        {
            recent.record(response);
        }
        pending.complete(sequence, response);
        counters.answered(sequence);
    }

    private void onCommand(final DirectBuffer buffer, final int offset, final int length, final long index)
    {
        header.wrap(buffer, offset);
        final long sequence = buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH, ByteOrder.LITTLE_ENDIAN);
        commandSequence = sequence;
        // every command record starts with its sequence, then the time the sequencer stamped
        commandTimeMs = buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH + 8, ByteOrder.LITTLE_ENDIAN);
        if (header.templateId() == RequestRejectedDecoder.TEMPLATE_ID)
        {
            requestRejected.wrapAndApplyHeader(buffer, offset, header);
            commandRefusal = refusal(requestRejected);
            return;
        }
        if (header.templateId() == RequestsRejectedSummaryDecoder.TEMPLATE_ID)
        {
            summary.wrapAndApplyHeader(buffer, offset, header);
            if (sequence > scannedThrough)
            {
                counters.summarized(summary.reason(), summary.count());
            }
            commandSummary = true;
            return;
        }
        if (header.templateId() == FixSessionMarkDecoder.TEMPLATE_ID)
        {
            // a lane's own record (a FIX session's numbers): no event, nobody waits for it
            commandSummary = true;
            return;
        }
        command.putBytes(0, buffer, offset, length);
        commandLength = length;
    }

    /** Whether the command is a protection tick or a session reset, which write no event when nothing is due. */
    private boolean quietProtection()
    {
        final int templateId = command.getShort(2, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
        return templateId == ProtectionTickDecoder.TEMPLATE_ID || templateId == SessionsResetDecoder.TEMPLATE_ID;
    }

    /**
     * Whether the command was a signed action (canonical JSON and its signers can be shown): not an owner's intent
     * (agent lifecycle) nor an MM cancel-replace (EIP-712 and EIP-191 legs).
     */
    private boolean isSignedAction()
    {
        final int templateId = command.getShort(2, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
        return !JournalRecords.isOwnerIntent(templateId) && !JournalRecords.isProtection(templateId) &&
            templateId != CancelReplaceDecoder.TEMPLATE_ID;
    }

    /** The command's canonical JSON and its recovered signers, for an answer about its signer. */
    private void addSigners()
    {
        final ActionPayload payload = commandDecoder.decode(command, 0, commandLength);
        final ActionEnvelopeDecoder envelope = commandDecoder.envelope();
        final byte[] raw = new byte[20];
        envelope.getRawSigner(raw, 0, 20);
        final byte[] personal = new byte[20];
        envelope.getPersonalSigner(personal, 0, 20);
        answer.signers(raw, personal, payload == null ? null : CanonicalJson.toBytes(payload));
    }

    private Answer refusal(final RequestRejectedDecoder record)
    {
        final RequestRejectReason reason = record.reason();
        final long sequence = record.sequence();
        if (sequence > scannedThrough)
        {
            counters.refused(reason);
        }
        final byte[] account = new byte[20];
        record.getAccount(account, 0, 20);
        final byte[] digest = new byte[32];
        record.getDigest(digest, 0, 32);
        final String detail = record.detail();
        answer.refused(sequence, commandTimeMs, reason, detail).account(account).digest(digest);
        // a signed action refused before the engine, whose account is known: its limiter as it stands, untouched
        final boolean badActionSignature = reason == RequestRejectReason.BAD_SIGNATURE && detail.startsWith("{");
        final boolean signedAction = reason == RequestRejectReason.MALFORMED || badActionSignature;
        if (signedAction && !Arrays.equals(ZERO_ACCOUNT, account))
        {
            limiters.at(account, commandTimeMs, limiterNow);
            answer.rate(rateLimit, limiterNow[0], limiterNow[1]);
        }
        return answer.build();
    }

    private void onEvent(final DirectBuffer buffer, final int offset, final int length, final long index)
    {
        header.wrap(buffer, offset);
        outcome.sequence = buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH, ByteOrder.LITTLE_ENDIAN);
        final boolean unread = outcome.sequence > scannedThrough;
        if (unread)
        {
            models.onEvent(buffer, offset, header);
        }
        switch (header.templateId())
        {
            case ActionAcceptedDecoder.TEMPLATE_ID ->
            {
                accepted.wrapAndApplyHeader(buffer, offset, header);
                accepted.getDigest(outcome.digest, 0, 32);
                accepted.getAccount(outcome.account, 0, 20);
                outcome.hasAccount = true;
                outcome.rateRemaining = accepted.rateRemaining();
                outcome.rateResetMs = accepted.rateResetMs();
            }
            case ActionRejectedDecoder.TEMPLATE_ID ->
            {
                rejected.wrapAndApplyHeader(buffer, offset, header);
                if (rejected.legIndex() != ActionRejectedDecoder.legIndexNullValue())
                {
                    outcome.legs.add(rejected.legIndex());
                    outcome.legCodes.add(rejected.code());
                }
                else
                {
                    rejected.getDigest(outcome.digest, 0, 32);
                    rejected.getAccount(outcome.account, 0, 20);
                    outcome.hasAccount = true;
                    outcome.code = rejected.code();
                    outcome.nonceFloor = rejected.nonceFloor();
                    outcome.nonceWindow = rejected.nonceWindow();
                    outcome.nextUsableNonce = rejected.nextUsableNonce();
                    outcome.rateRemaining = rejected.rateRemaining();
                    outcome.rateResetMs = rejected.rateResetMs();
                }
            }
            case OrderAcceptedDecoder.TEMPLATE_ID ->
            {
                orderAccepted.wrapAndApplyHeader(buffer, offset, header);
                final byte[] orderId = new byte[32];
                orderAccepted.getOrderId(orderId, 0, 32);
                outcome.orderIds.add(orderId);
            }
            case TradeDecoder.TEMPLATE_ID -> outcome.trades++;
            case OrderDoneDecoder.TEMPLATE_ID ->
            {
                orderDone.wrapAndApplyHeader(buffer, offset, header);
                // what the command cancelled on its own request; a protective sweep at the same command is not counted
                final short reason = orderDone.reasonRaw();
                if (reason == OrderDoneReason.CANCELLED_ALL.value() || reason == OrderDoneReason.CANCELLED.value())
                {
                    outcome.cancelled++;
                }
            }
            case ProtectionChangedDecoder.TEMPLATE_ID ->
            {
                // the last one is the command's own (sweeps due at it fire first)
                protectionChanged.wrapAndApplyHeader(buffer, offset, header);
                outcome.protectionAction = protectionChanged.action().name();
                outcome.protectionDeadlineMs = protectionChanged.deadlineMs();
            }
            default ->
            {
                // the read models took it above
            }
        }
    }

    private Answer response()
    {
        // the engine charges and reports the per-account limiter for signed actions only (owner intents and MM
        // commands report a bucket they did not touch)
        final boolean signedAction = isSignedAction();
        if (outcome.hasAccount && signedAction)
        {
            limiters.reported(outcome.account, outcome.rateResetMs, commandTimeMs);
        }
        final RejectCode code = outcome.code;
        if (code == null)
        {
            if (outcome.sequence > scannedThrough)
            {
                counters.accepted();
            }
            answer.accepted(outcome.sequence, commandTimeMs);
        }
        else
        {
            if (outcome.sequence > scannedThrough)
            {
                counters.rejected(code);
            }
            answer.rejected(outcome.sequence, commandTimeMs, code)
                .nonce(outcome.nonceFloor, outcome.nonceWindow, outcome.nextUsableNonce)
                .retryAfterMs(code == RejectCode.RATE_LIMITED ? rateRetryAfterMs(outcome.rateResetMs) :
                    code == RejectCode.SHARD_BUSY || code == RejectCode.QUEUE_LIMIT ? 1000 : 0);
            if ((code == RejectCode.UNAUTHORIZED_SIGNER || code == RejectCode.NOT_OPERATOR) && signedAction)
            {
                addSigners();
            }
        }
        answer.digest(outcome.digest.clone()).account(outcome.hasAccount ? outcome.account.clone() : null)
            .trades(outcome.trades).rate(rateLimit, outcome.rateRemaining, outcome.rateResetMs)
            .cancelled(outcome.cancelled);
        if (JournalRecords.isProtection(command.getShort(2, ByteOrder.LITTLE_ENDIAN) & 0xFFFF))
        {
            answer.protection(outcome.protectionAction, outcome.protectionDeadlineMs);
        }
        if (!outcome.orderIds.isEmpty())
        {
            answer.orderIds(outcome.orderIds.toArray(new byte[0][]));
        }
        if (!outcome.legs.isEmpty())
        {
            final int[] legs = new int[outcome.legs.size()];
            for (int i = 0; i < legs.length; i++)
            {
                legs[i] = outcome.legs.get(i);
            }
            answer.legRejects(legs, outcome.legCodes.toArray(new RejectCode[0]));
        }
        return answer.build();
    }

    /** How long until the account's bucket holds one action again, at least a second. */
    private long rateRetryAfterMs(final long resetMs)
    {
        return Math.max(1000, TokenBucket.retryAfterMsFromReset(resetMs, rateLimit, rateWindowMs));
    }

    /** True once this responder stopped on a journal it could not read (its thread's error says where). */
    public boolean failed()
    {
        return failure != null;
    }

    /** What this responder saw since it started, for the operator's metrics. */
    public OutcomeCounters counters()
    {
        return counters;
    }

    @Override
    public String roleName()
    {
        return "responder";
    }

    /** What one command's events say. */
    private static final class Outcome
    {
        long sequence;
        RejectCode code;
        final byte[] digest = new byte[32];
        final byte[] account = new byte[20];
        boolean hasAccount;
        long nonceFloor;
        long nonceWindow;
        long nextUsableNonce;
        long rateRemaining;
        long rateResetMs;
        int trades;
        int cancelled;
        String protectionAction;
        long protectionDeadlineMs;
        final List<byte[]> orderIds = new ArrayList<>();
        final List<Integer> legs = new ArrayList<>();
        final List<RejectCode> legCodes = new ArrayList<>();

        void clear()
        {
            sequence = 0;
            code = null;
            Arrays.fill(digest, (byte)0);
            hasAccount = false;
            trades = 0;
            cancelled = 0;
            protectionAction = null;
            protectionDeadlineMs = 0;
            orderIds.clear();
            legs.clear();
            legCodes.clear();
        }
    }
}
