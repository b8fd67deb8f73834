package io.venue.responder;

import io.venue.action.ActionPayload;
import io.venue.action.json.CanonicalJson;
import io.venue.codec.Hex;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordCursor;
import io.venue.journal.queue.RecordHandler;
import io.venue.journal.sbe.ActionAcceptedDecoder;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.ActionRejectedDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.OrderAcceptedDecoder;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.journal.sbe.RequestRejectedDecoder;
import io.venue.journal.sbe.TradeDecoder;
import io.venue.sequencer.ActionCommandDecoder;
import io.venue.transport.http.JsonWriter;
import io.venue.transport.http.PendingSubmits;
import io.venue.transport.http.SubmitResponse;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Answers the waiting requests from the journals, so an answer can only say what is journaled: reads each
 * command (the sequencer's record) and then the engine's events of that command (consecutive records of one
 * excerpt, which may hold other commands' events too), turns them into a
 * {@link SubmitResponse} and hands it to {@link PendingSubmits}. It also keeps the {@link ReadModels} from the
 * events. Runs on its own thread, after the engine; never touches the engine's state.
 */
public final class Responder implements Agent
{
    private final RecordCursor commands;
    private final RecordCursor events;
    private final PendingSubmits pending;
    private final ReadModels models;
    private final int batchLimit;
    private final long rateLimit;
    private final long rateWindowMs;
    private final RecentAnswers recent;
    /** Events at or before this sequence were read by the start-up scan into the directory and the nonce windows. */
    private final long scannedThrough;
    private final java.util.function.Consumer<Throwable> onFailure;
    private volatile Throwable failure;
    /** The digest of the action the answer being built is about; null when the body had none. */
    private String answerDigest;
    private boolean answerUsedNonce;
    private boolean answerReplayed;
    private static final String ZERO_DIGEST = "0x" + "0".repeat(64);
    private static final String ZERO_ACCOUNT = "0x" + "0".repeat(40);

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final RequestRejectedDecoder requestRejected = new RequestRejectedDecoder();
    private final ActionAcceptedDecoder accepted = new ActionAcceptedDecoder();
    private final ActionRejectedDecoder rejected = new ActionRejectedDecoder();
    private final OrderAcceptedDecoder orderAccepted = new OrderAcceptedDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final ActionCommandDecoder commandDecoder = new ActionCommandDecoder();
    private final byte[] bytes32 = new byte[32];
    private final byte[] bytes20 = new byte[20];

    private final OutcomeCounters counters = new OutcomeCounters();
    private final AccountLimiters limiters;
    private final long[] limiterNow = new long[2];
    /** The command read and waiting for its events; 0 when none. */
    private long commandSequence;
    /** The stamped time of the command being answered. */
    private long commandTimeMs;
    private SubmitResponse commandRefusal;
    /** The outcome built from the command's events. */
    private final Outcome outcome = new Outcome();
    private boolean outcomeReady;
    /** The command's record, decoded again only when an answer needs its canonical JSON. */
    private final org.agrona.ExpandableArrayBuffer command = new org.agrona.ExpandableArrayBuffer(1024);
    private int commandLength;

    private final RecordHandler onCommand = this::onCommand;
    private final RecordHandler onEvent = this::onEvent;

    public Responder(
        final JournalTailer commands, final JournalTailer events, final PendingSubmits pending, final ReadModels models,
        final int batchLimit, final long rateLimit, final long rateWindowMs, final RecentAnswers recent, final long scannedThrough,
        final java.util.function.Consumer<Throwable> onFailure)
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
                // the engine journals the events of every command it applied; a command it could not read has none
                if (commandSequence > scannedThrough)
                {
                    counters.unapplied();
                }
                publish(commandSequence, new SubmitResponse(500, new JsonWriter().field("ok", false).field("code", "INTERNAL")
                    .field("message", "the engine did not apply this command record").field("sequence", commandSequence).toJson()));
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
    private void publish(final long sequence, final SubmitResponse response)
    {
        if (answerDigest != null && !ZERO_DIGEST.equals(answerDigest))
        {
            recent.record(answerDigest, response, answerUsedNonce, answerReplayed);
        }
        answerDigest = null;
        answerUsedNonce = false;
        answerReplayed = false;
        pending.complete(sequence, response);
        counters.answered(sequence);
    }

    private void onCommand(final DirectBuffer buffer, final int offset, final int length, final long index)
    {
        header.wrap(buffer, offset);
        final long sequence = buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH, java.nio.ByteOrder.LITTLE_ENDIAN);
        commandSequence = sequence;
        // every command record starts with its sequence, then the time the sequencer stamped
        commandTimeMs = buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH + 8, java.nio.ByteOrder.LITTLE_ENDIAN);
        if (header.templateId() == RequestRejectedDecoder.TEMPLATE_ID)
        {
            requestRejected.wrapAndApplyHeader(buffer, offset, header);
            commandRefusal = refusal(requestRejected);
            return;
        }
        command.putBytes(0, buffer, offset, length);
        commandLength = length;
    }

    /**
     * Whether the command was a signed action (canonical JSON and its signers can be shown): not an owner's intent
     * (agent lifecycle) nor an MM cancel-replace (EIP-712 and EIP-191 legs).
     */
    private boolean isSignedAction()
    {
        final int templateId = command.getShort(2, java.nio.ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
        return !io.venue.journal.JournalRecords.isOwnerIntent(templateId) &&
            templateId != io.venue.journal.sbe.CancelReplaceDecoder.TEMPLATE_ID;
    }

    /** The command's canonical JSON and its recovered signers, for an answer about its signer. */
    private void writeSigners(final JsonWriter w)
    {
        final ActionPayload payload = commandDecoder.decode(command, 0, commandLength);
        final ActionEnvelopeDecoder envelope = commandDecoder.envelope();
        envelope.getRawSigner(bytes20, 0, 20);
        final String raw = Hex.to0x(bytes20);
        envelope.getPersonalSigner(bytes20, 0, 20);
        w.raw("recoveredSigner", new JsonWriter().field("rawMode", raw).field("personalMode", Hex.to0x(bytes20)).toJson())
            .field("canonicalJson", payload == null ? null : new String(CanonicalJson.toBytes(payload), StandardCharsets.UTF_8));
    }

    private SubmitResponse refusal(final RequestRejectedDecoder record)
    {
        final RequestRejectReason reason = record.reason();
        final long sequence = record.sequence();
        if (sequence > scannedThrough)
        {
            counters.refused(reason);
        }
        record.getAccount(bytes20, 0, 20);
        final String account = Hex.to0x(bytes20);
        record.getDigest(bytes32, 0, 32);
        final String digest = Hex.to0x(bytes32);
        answerDigest = digest;
        final String detail = record.detail();
        final JsonWriter w = new JsonWriter().field("ok", false).field("code", reason.name()).field("sequence", sequence);
        // a bad signature's detail is the canonical JSON of a signed action, or the words of an MM cancel-replace's leg
        final boolean badActionSignature = reason == RequestRejectReason.BAD_SIGNATURE && detail.startsWith("{");
        if (reason == RequestRejectReason.MALFORMED)
        {
            final int split = detail.indexOf('\n');
            w.field("field", split < 0 ? "" : detail.substring(0, split))
                .field("message", split < 0 ? detail : detail.substring(split + 1));
        }
        else if (reason == RequestRejectReason.OWNER_SIGNATURE_INVALID)
        {
            w.field("message", detail).field("expectedSigner", account).field("intentDigest", digest);
        }
        else if (reason == RequestRejectReason.BAD_SIGNATURE && !badActionSignature)
        {
            // an MM cancel-replace: the detail says which leg's signature failed and how
            w.field("message", detail).field("expectedSigner", account).field("digest", digest);
        }
        else if (badActionSignature)
        {
            w.field("message", "the signature bytes are not a valid secp256k1 signature")
                .field("expectedSigner", account).field("digest", digest).field("canonicalJson", detail);
        }
        else
        {
            w.field("message", detail);
        }
        // a signed action refused before the engine, whose account is known: its limiter as it stands, untouched
        final boolean signedAction = reason == RequestRejectReason.MALFORMED || badActionSignature;
        if (signedAction && !ZERO_ACCOUNT.equals(account))
        {
            limiters.at(account, commandTimeMs, limiterNow);
            return new SubmitResponse(RejectCodes.httpStatus(reason), w.toJson(), 0, rateLimit, limiterNow[0], limiterNow[1]);
        }
        return new SubmitResponse(RejectCodes.httpStatus(reason), w.toJson());
    }

    private void onEvent(final DirectBuffer buffer, final int offset, final int length, final long index)
    {
        header.wrap(buffer, offset);
        outcome.sequence = buffer.getLong(offset + MessageHeaderDecoder.ENCODED_LENGTH, java.nio.ByteOrder.LITTLE_ENDIAN);
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
                accepted.getDigest(bytes32, 0, 32);
                outcome.digest = Hex.to0x(bytes32);
                outcome.accepted = true;
                accepted.getAccount(bytes20, 0, 20);
                outcome.account = Hex.to0x(bytes20);
                outcome.rateRemaining = accepted.rateRemaining();
                outcome.rateResetMs = accepted.rateResetMs();
            }
            case ActionRejectedDecoder.TEMPLATE_ID ->
            {
                rejected.wrapAndApplyHeader(buffer, offset, header);
                if (rejected.legIndex() != ActionRejectedDecoder.legIndexNullValue())
                {
                    outcome.legRejects.add(new JsonWriter().field("leg", rejected.legIndex())
                        .field("code", RejectCodes.wire(rejected.code())).toJson());
                }
                else
                {
                    rejected.getDigest(bytes32, 0, 32);
                    outcome.digest = Hex.to0x(bytes32);
                    rejected.getAccount(bytes20, 0, 20);
                    outcome.account = Hex.to0x(bytes20);
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
                orderAccepted.getOrderId(bytes32, 0, 32);
                outcome.orderIds.add(JsonWriter.quote(Hex.to0x(bytes32)));
            }
            case TradeDecoder.TEMPLATE_ID -> outcome.trades++;
            default ->
            {
                // the read models took it above
            }
        }
    }

    private SubmitResponse response()
    {
        answerDigest = outcome.digest;
        // the engine charges and reports the per-account limiter for signed actions only (owner intents and MM
        // commands report a bucket they did not touch)
        if (outcome.account != null && isSignedAction())
        {
            limiters.reported(outcome.account, outcome.rateResetMs, commandTimeMs);
        }
        answerUsedNonce = outcome.code == null || RejectCodes.usedNonce(outcome.code);
        answerReplayed = outcome.code == RejectCode.NONCE_REPLAYED;
        final JsonWriter w = new JsonWriter();
        if (outcome.code == null)
        {
            if (outcome.sequence > scannedThrough)
            {
                counters.accepted();
            }
            w.field("ok", true).field("sequence", outcome.sequence).field("digest", outcome.digest);
            if (outcome.orderIds.size() == 1 && outcome.legRejects.isEmpty())
            {
                w.raw("orderId", outcome.orderIds.get(0));
            }
            else if (!outcome.orderIds.isEmpty())
            {
                w.raw("orderIds", JsonWriter.array(outcome.orderIds));
            }
            if (!outcome.legRejects.isEmpty())
            {
                w.raw("legRejects", JsonWriter.array(outcome.legRejects));
            }
            return new SubmitResponse(200, w.field("trades", outcome.trades).toJson(), 0, rateLimit, outcome.rateRemaining,
                outcome.rateResetMs);
        }
        final RejectCode code = outcome.code;
        if (outcome.sequence > scannedThrough)
        {
            counters.rejected(code);
        }
        // the stamped time the engine judged by (agent expiry, the limiter), so a client can compare its own clock
        w.field("ok", false).field("code", RejectCodes.wire(code)).field("message", RejectCodes.message(code))
            .field("sequence", outcome.sequence).field("digest", outcome.digest).field("serverTimeMs", commandTimeMs);
        if (RejectCodes.isNonce(code))
        {
            w.unsigned("nonceFloor", outcome.nonceFloor).unsigned("nonceWindow", outcome.nonceWindow)
                .unsigned("nextUsableNonce", outcome.nextUsableNonce);
        }
        if ((code == RejectCode.UNAUTHORIZED_SIGNER || code == RejectCode.NOT_OPERATOR) && isSignedAction())
        {
            w.field("expectedSigner", outcome.account);
            writeSigners(w);
        }
        return new SubmitResponse(RejectCodes.httpStatus(code), w.toJson(), code == RejectCode.RATE_LIMITED ?
            rateRetryAfterSeconds(outcome.rateResetMs) : code == RejectCode.SHARD_BUSY || code == RejectCode.QUEUE_LIMIT ? 1 : 0,
            rateLimit, outcome.rateRemaining, outcome.rateResetMs);
    }

    /** Whole seconds until the account's bucket holds one action again, at least 1. */
    private long rateRetryAfterSeconds(final long resetMs)
    {
        final long oneActionMs = io.venue.engine.limit.TokenBucket.retryAfterMsFromReset(resetMs, rateLimit, rateWindowMs);
        return Math.max(1, (oneActionMs + 999) / 1000);
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
        boolean accepted;
        RejectCode code;
        String digest;
        String account;
        long nonceFloor;
        long nonceWindow;
        long nextUsableNonce;
        long rateRemaining;
        long rateResetMs;
        int trades;
        final List<String> orderIds = new ArrayList<>();
        final List<String> legRejects = new ArrayList<>();

        void clear()
        {
            sequence = 0;
            accepted = false;
            code = null;
            digest = null;
            account = null;
            trades = 0;
            orderIds.clear();
            legRejects.clear();
        }
    }
}
