package io.venue.sequencer;

import io.venue.action.json.ParseResult;
import io.venue.action.json.SignedActionParser;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.queue.JournalForce;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.journal.sbe.RequestRejectedEncoder;
import io.venue.journal.sbe.RequestsRejectedSummaryEncoder;
import io.venue.journal.sbe.FixMarkKind;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.FixSessionMarkEncoder;
import io.venue.journal.sbe.FixSubSession;
import io.venue.crypto.Blake3;
import io.venue.journal.sbe.SignerMatch;
import io.venue.tuning.Doorbell;
import io.venue.verifier.VerificationOutcome;
import io.venue.verifier.VerificationResult;
import io.venue.verifier.VerificationResultHandler;
import io.venue.verifier.VerifierPool;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import io.venue.entry.ConnectionAddresses;
import io.venue.entry.PreJournalRefusals;
import io.venue.entry.RefusalDetails;
import io.venue.journal.JournalRecords;
import io.venue.journal.RecordError;
import io.venue.journal.RecordType;
import io.venue.journal.sbe.ActionEnvelopeEncoder;
import io.venue.journal.sbe.CancelReplaceEncoder;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import io.venue.entry.protect.ProtectionCommands;
import io.venue.entry.protect.ProtectionRequests;
import org.agrona.DirectBuffer;

/**
 * The single writer of the command journal: takes each verification result in the order the pool
 * delivers it, stamps the next sequence number and the time, and stages the command (or, for a body the
 * verifier refused, a {@code RequestRejected} record). At the end of each duty cycle it appends what it staged
 * as one excerpt and only then tells the {@link SequencerListener}, so a client is answered only after its
 * request is in the journal; with {@link JournalForce#GROUP}, only after the excerpt was forced to the disk too.
 * <p>
 * The stamped time is the clock's, never earlier than the previous stamp: the engine's only clock moves
 * forward. Everything non-deterministic (the clock, verification, arrival order) ends here.
 * <p>
 * With a {@link RefusalAggregator} ({@link #aggregatesRefusals}), a source's refusals beyond its threshold in a
 * window of stamped time are not journaled one by one: each is answered at once ({@link
 * SequencerListener#onRefusalCounted}) and counted into one {@code RequestsRejectedSummary} per source (the client's
 * address, or the connection when its address is not known), reason and window, journaled when the window is over.
 */
public final class Sequencer implements Agent
{
    private final VerifierPool pool;
    private final JournalAppender journal;
    private final EpochClock clock;
    private final SequencerListener listener;
    private final long epoch;
    private final int batchLimit;
    private final ActionCommandEncoder encoder = new ActionCommandEncoder();
    private final SignedActionParser parser = new SignedActionParser();
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final RequestRejectedEncoder rejected = new RequestRejectedEncoder();
    private final RequestsRejectedSummaryEncoder summary = new RequestsRejectedSummaryEncoder();
    private final FixSessionMarkEncoder fixMark = new FixSessionMarkEncoder();
    private final RefusalAggregator.SummarySink onSummary = this::journalSummary;
    private final Blake3 blake3 = new Blake3();
    private final byte[] detailDigest = new byte[Blake3.DIGEST_LENGTH];
    private RefusalAggregator aggregator;
    private ConnectionAddresses addresses;
    private final long[] address = new long[2];
    private final byte[] addressBytes = new byte[ConnectionAddresses.LENGTH];
    /** Set when the lanes have drained: every count still waiting for its window is journaled at once. */
    private volatile boolean flushCounts;
    private final ExpandableArrayBuffer record = new ExpandableArrayBuffer(4096);
    private final VerificationResultHandler onResult = this::onResult;
    private final byte[] digest = new byte[32];
    private final byte[] rawSigner = new byte[20];
    private final byte[] personalSigner = new byte[20];
    private final byte[] account = new byte[20];
    private final byte[] signature = new byte[65];
    private byte[] text = new byte[4096];
    /**
     * The last sequence journaled. Written by the sequencer's thread only; volatile so that the lanes can read the
     * backlog (SHARD_BUSY).
     */
    private volatile long sequence;
    /** The records staged in this duty cycle's excerpt (numbered from {@code sequence + 1}), and who waits for each. */
    private int staged;
    private final long[] stagedConnection;
    private final long[] stagedCorrelation;
    private final boolean[] stagedAccepted;
    private long lastStamp;
    private BooleanSupplier paused = () -> false;
    private PreJournalRefusals refusals;
    private final PreJournalRefusals.Handler onRefusal = new PreJournalRefusals.Handler()
    {
        @Override
        public void onRefusal(final long connectionId, final long correlationId, final int reason,
            final String detail)
        {
            Sequencer.this.onRefusal(connectionId, correlationId, reason, detail);
        }

        @Override
        public void onFixSessionMark(final long connectionId, final long credentialId, final int subSession,
            final int kind, final long nextInSeq, final long nextOutSeq, final long reservedOutThrough,
            final long reportKey)
        {
            journalFixMark(connectionId, credentialId, subSession, kind, nextInSeq, nextOutSeq, reservedOutThrough,
                reportKey);
        }
    };
    private final byte[] zeros32 = new byte[32];
    private final JournalRecords records = new JournalRecords();
    private Doorbell engine;
    private boolean force;
    private ProtectionRequests protections;
    private final ProtectionRequests.Handler onProtection = this::onProtection;
    private final ProtectionCommands protectionCommands = new ProtectionCommands();
    /** The engine's earliest protection deadline (a lower bound, Long.MAX_VALUE for none); null: no ticks. */
    private LongSupplier protectionDeadline;
    private long tickPeriodMs;
    private long lastTickMs = Long.MIN_VALUE / 2;
    /** A SessionsReset waits to be journaled before anything else (a node that starts serving). */
    private boolean resetSessions;

    /**
     * @param lastSequence the sequence of the last record already in the journal (0 for a new journal).
     */
    public Sequencer(
        final VerifierPool pool,
        final JournalAppender journal,
        final EpochClock clock,
        final SequencerListener listener,
        final long epoch,
        final long lastSequence,
        final int batchLimit)
    {
        this.pool = pool;
        this.journal = journal;
        this.clock = clock;
        this.listener = listener;
        this.epoch = epoch;
        this.sequence = lastSequence;
        this.batchLimit = batchLimit;
        // a duty cycle takes up to batchLimit refusals and batchLimit results
        this.stagedConnection = new long[2 * batchLimit];
        this.stagedCorrelation = new long[2 * batchLimit];
        this.stagedAccepted = new boolean[2 * batchLimit];
    }

    /**
     * Stamps no command earlier than {@code lastStampMs}, the time on the journal's last command: the engine's clock
     * then moves forward across a restart or a promotion too, whatever the host clock did (an NTP step, a standby's
     * clock behind its primary's).
     */
    public Sequencer stampsFrom(final long lastStampMs)
    {
        lastStamp = Math.max(lastStamp, lastStampMs);
        return this;
    }

    /**
     * Journals what is ready as one excerpt (up to {@code batchLimit} refusals and {@code batchLimit} results), and
     * only then tells the listener about each record: one Chronicle write for all the requests that arrived together.
     */
    @Override
    public int doWork()
    {
        if (paused.getAsBoolean())
        {
            // results wait in the pool's ring; when it is full the pool refuses new requests (QUEUE_LIMIT)
            return 0;
        }
        try
        {
            if (resetSessions)
            {
                resetSessions = false;
                journalProtection(protectionCommands.sessionsReset(record, 0), 0, 0);
            }
            final int protective = protections == null ? 0 : protections.poll(onProtection, batchLimit);
            final int refused = refusals == null ? 0 : refusals.poll(onRefusal, batchLimit);
            final int results = pool.poll(onResult, batchLimit);
            // the clock is read only while some count waits for its window to end
            final int summaries = aggregator == null || !aggregator.hasPending() ? 0 :
                aggregator.flushDue(flushCounts ? Long.MAX_VALUE : Math.max(clock.time(), lastStamp), onSummary);
            return protective + refused + results + summaries + tick();
        }
        finally
        {
            commit();
        }
    }

    /**
     * Writes the records staged in this duty cycle as one excerpt, then wakes the engine and tells the listener about
     * each. A write that fails journals none of them: the sequence stays where it was, their requests are not answered
     * (their clients time out and can ask the status route), and the failure goes to the agent's error handler.
     */
    private void commit()
    {
        final int count = staged;
        if (count == 0)
        {
            return;
        }
        staged = 0;
        // staged is cleared first: a write that fails journals none of them, and the numbering stays where the
        // journal is
        final long index = journal.commit();
        final long first = sequence + 1;
        sequence += count;
        if (force)
        {
            // one force for the group; a force that fails throws and none of them is told (their clients time out)
            journal.force();
        }
        if (engine != null)
        {
            engine.ring();
        }
        RuntimeException failure = null;
        for (int i = 0; i < count; i++)
        {
            try
            {
                if (stagedAccepted[i])
                {
                    listener.onSequenced(stagedConnection[i], stagedCorrelation[i], first + i, index);
                }
                else
                {
                    listener.onRejected(stagedConnection[i], stagedCorrelation[i], first + i, index);
                }
            }
            catch (final RuntimeException ex)
            {
                // the others are journaled too and still told
                failure = null == failure ? ex : failure;
            }
        }
        if (null != failure)
        {
            throw failure;
        }
    }

    /**
     * Also journals the protection commands the lanes queue (sessions opened and closed, dead-man timers, the explicit
     * cancel-on-disconnect), stamped like any command; no verifier sees them.
     */
    public Sequencer protections(final ProtectionRequests protections)
    {
        this.protections = protections;
        return this;
    }

    /**
     * Journals a {@code ProtectionTick} when the clock has reached {@code deadline} (the engine's earliest protection
     * deadline, published after each batch it applies), at most once every {@code periodMs}: a deadline then fires on
     * time though no other command comes. Nothing is journaled while no deadline is pending.
     */
    public Sequencer ticks(final LongSupplier deadline, final long periodMs)
    {
        if (periodMs < 1)
        {
            throw new IllegalArgumentException("protection.tick.ms must be at least 1: " + periodMs);
        }
        this.protectionDeadline = deadline;
        this.tickPeriodMs = periodMs;
        return this;
    }

    /**
     * Journals one {@code SessionsReset} before anything else: every session the engine knows open is closed, their
     * sockets being gone (a node that starts serving after a restart or a promotion), so their grace windows start.
     */
    public Sequencer resetsSessions()
    {
        resetSessions = true;
        return this;
    }

    private int tick()
    {
        if (protectionDeadline == null || staged > 0)
        {
            return 0;
        }
        final long deadline = protectionDeadline.getAsLong();
        if (deadline == Long.MAX_VALUE)
        {
            return 0;
        }
        final long now = Math.max(clock.time(), lastStamp);
        if (now < deadline || now - lastTickMs < tickPeriodMs)
        {
            return 0;
        }
        lastTickMs = now;
        journalProtection(protectionCommands.tick(record, 0), 0, 0);
        return 1;
    }

    private void onProtection(final long connectionId, final long correlationId, final DirectBuffer buffer,
        final int offset, final int length)
    {
        if (length < MessageHeaderEncoder.ENCODED_LENGTH || length > record.capacity() ||
            !laneCommand(buffer, offset, length))
        {
            // a lane of this node wrote it: a defect, journaled as refused rather than lost
            refuse(stamp(), connectionId, correlationId, RequestRejectReason.MALFORMED, zeros32, zeros32,
                "the lane handed over a record that is not a protection command", correlationId != 0);
            return;
        }
        record.putBytes(0, buffer, offset, length);
        journalProtection(length, connectionId, correlationId);
    }

    /**
     * What a lane may hand over on the protection ring: a protection command, or (journal version 13) an order command
     * a session lane entered for its authenticated session, its envelope's signer match SESSION_CREDENTIAL (the FIX
     * lane's; the verifier pool never writes that value, so a signed request cannot claim it).
     */
    private static boolean laneCommand(final DirectBuffer buffer, final int offset, final int length)
    {
        final int templateId = buffer.getShort(offset + 2, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
        if (JournalRecords.isProtection(templateId))
        {
            return true;
        }
        // the envelope follows sequence, timestampMs and epoch in every signed-action command
        final int signerMatch =
            MessageHeaderEncoder.ENCODED_LENGTH + 20 + ActionEnvelopeDecoder.signerMatchEncodingOffset();
        return JournalRecords.isSessionOrder(templateId) && length > signerMatch &&
            buffer.getByte(offset + signerMatch) == (byte)SignerMatch.SESSION_CREDENTIAL.value();
    }

    /** Stamps the protection command staged at 0 and stages it; its requester (if any) is told once journaled. */
    private void journalProtection(final int length, final long connectionId, final long correlationId)
    {
        stampInPlace(sequence + staged + 1, stamp());
        append(length, true, connectionId, correlationId);
    }

    /** Rings {@code engine} (the bell of the thread that tails the command journal) after each excerpt appended. */
    public Sequencer wakes(final Doorbell engine)
    {
        this.engine = engine;
        return this;
    }

    /**
     * With {@link JournalForce#GROUP}, forces each excerpt to stable storage before telling the listener about its
     * records (and before waking the engine); {@link JournalForce#NONE} by default.
     */
    public Sequencer forces(final JournalForce mode)
    {
        this.force = mode == JournalForce.GROUP;
        return this;
    }

    /** Also journals the requests a lane refused before verification (the edge throttle), in arrival order. */
    public Sequencer refusals(final PreJournalRefusals refusals)
    {
        this.refusals = refusals;
        return this;
    }

    /**
     * Journals every refusal count still waiting for its window to end, on the sequencer's thread at its next duty
     * cycle, and from then on each count as soon as it is made: a node that stops calls it once its lanes are drained,
     * while the journal is still shipped, so no count is left out of the journal.
     */
    public void flushRefusalCounts()
    {
        flushCounts = true;
    }

    /**
     * Journals each source's first {@code threshold} refusals of a reason in a window of stamped time one by one, and
     * counts the rest into one summary per source, reason and window (see {@link RefusalAggregator}): the source is the
     * client's address when {@code addresses} knows the connection's (null: always the connection).
     */
    public Sequencer aggregatesRefusals(final RefusalAggregator aggregator, final ConnectionAddresses addresses)
    {
        this.aggregator = aggregator;
        this.addresses = addresses;
        return this;
    }

    private void onRefusal(final long connectionId, final long correlationId, final int reason, final String detail)
    {
        // the lane answered this request itself: a counted one has nobody to tell
        refuse(stamp(), connectionId, correlationId, RequestRejectReason.get((short)reason), zeros32, zeros32, detail,
            false);
    }

    /**
     * A refusal: journaled on its own, or counted into its connection's summary and, when {@code waited}, answered at
     * once. The aggregator may first journal a summary (a window it closes, an entry it evicts), so the next sequence
     * is taken after it.
     */
    private void refuse(
        final long stamp, final long connectionId, final long correlationId, final RequestRejectReason reason,
        final byte[] accountBytes, final byte[] digestBytes, final String detail, final boolean waited)
    {
        if (aggregator != null && !aggregator.journalsOnItsOwn(connectionId,
            addresses != null && addresses.find(connectionId, address), address[0], address[1], reason.value(),
            correlationId, stamp, accountBytes, digestBytes, detail, onSummary))
        {
            if (waited)
            {
                listener.onRefusalCounted(
                    connectionId, correlationId, stamp, reason, accountBytes, digestBytes, detail);
            }
            return;
        }
        final long next = sequence + staged + 1;
        append(rejection(next, stamp, connectionId, correlationId, reason, accountBytes, digestBytes, detail), false,
            connectionId, correlationId);
    }

    /**
     * One FixSessionMark (a FIX session's sequence numbers), stamped now and told to the listener with correlation id
     * 0: nobody waits for it.
     */
    private void journalFixMark(
        final long connectionId, final long credentialId, final int subSession, final int kind, final long nextInSeq,
        final long nextOutSeq, final long reservedOutThrough, final long reportKey)
    {
        final long stamp = stamp();
        final long next = sequence + staged + 1;
        fixMark.wrapAndApplyHeader(record, 0, header)
            .sequence(next)
            .timestampMs(stamp)
            .epoch(epoch)
            .connectionId(connectionId);
        for (int i = 0; i < 8; i++)
        {
            fixMark.credentialId(i, (short)((credentialId >>> (56 - 8 * i)) & 0xFF));
        }
        fixMark.subSession(FixSubSession.get((short)subSession))
            .kind(FixMarkKind.get((short)kind))
            .nextInSeq(nextInSeq)
            .nextOutSeq(nextOutSeq)
            .reservedOutThrough(reservedOutThrough)
            .reportKey(reportKey);
        append(MessageHeaderEncoder.ENCODED_LENGTH + fixMark.encodedLength(), false, connectionId, 0);
    }

    /**
     * One RequestsRejectedSummary, stamped now and told to the listener with correlation id 0 (nobody waits for it):
     * {@code detailDigest} is the BLAKE3 of the detail the last one's RequestRejected would have held.
     */
    private void journalSummary(
        final long connectionId, final boolean byAddress, final long addressHigh, final long addressLow,
        final int reason, final long count, final long firstCorrelationId,
        final long lastCorrelationId, final long firstTimestampMs, final long lastTimestampMs, final byte[] accounts,
        final int accountOffset, final byte[] digests, final int digestOffset, final String lastDetail)
    {
        final byte[] capped = RefusalDetails.cap(lastDetail).getBytes(StandardCharsets.UTF_8);
        blake3.reset();
        blake3.update(capped, 0, capped.length);
        blake3.digest(detailDigest, 0);
        final long stamp = stamp();
        final long next = sequence + staged + 1;
        summary.wrapAndApplyHeader(record, 0, header)
            .sequence(next)
            .timestampMs(stamp)
            .epoch(epoch)
            .connectionId(connectionId)
            .reason(RequestRejectReason.get((short)reason))
            .count(count)
            .firstCorrelationId(firstCorrelationId)
            .lastCorrelationId(lastCorrelationId)
            .firstTimestampMs(firstTimestampMs)
            .lastTimestampMs(lastTimestampMs)
            .putAccount(accounts, accountOffset, 20)
            .putDigest(digests, digestOffset, 32)
            .putDetailDigest(detailDigest, 0, 32);
        // zeros: the source is the connection
        ConnectionAddresses.toBytes(addressHigh, addressLow, addressBytes, 0);
        summary.putSourceAddress(addressBytes, 0, ConnectionAddresses.LENGTH);
        append(MessageHeaderEncoder.ENCODED_LENGTH + summary.encodedLength(), false, connectionId, 0);
    }

    /**
     * Stops taking verification results while {@code condition} holds, e.g. while a synchronous replication
     * gate holds as many answers as it should ({@code AcknowledgementGate::isFull}).
     */
    public Sequencer pauseWhen(final BooleanSupplier condition)
    {
        paused = condition;
        return this;
    }

    /** The forces of the command journal returned so far ({@code journal.force=group}); readable from any thread. */
    public long forces()
    {
        return journal.forces();
    }

    /** The sequence of the last record the last force covered, 0 before one; readable from any thread. */
    public long forcedSequence()
    {
        return journal.forcedSequence();
    }

    /** The sequence of the last record appended; readable from any thread. */
    public long sequence()
    {
        return sequence;
    }

    private void onResult(final VerificationResult result)
    {
        if (result.isOwnerIntent())
        {
            onOwnerIntent(result);
            return;
        }
        final long stamp = stamp();
        final long next = sequence + staged + 1;
        final int length = result.textLength();
        if (text.length < length)
        {
            text = new byte[Math.max(length, text.length * 2)];
        }
        result.getText(text, 0);
        result.getDigest(digest, 0);
        result.getAccount(account, 0);

        final int recordLength;
        final boolean accepted;
        if (result.outcome() == VerificationOutcome.VERIFIED && result.isCommand())
        {
            // the verifier wrote the command: it is only stamped here
            record.putBytes(0, text, 0, length);
            if (isActionCommand(length))
            {
                stampInPlace(next, stamp);
                recordLength = length;
                accepted = true;
            }
            else
            {
                recordLength = rejection(next, stamp, result, RequestRejectReason.MALFORMED,
                    "the verifier handed over a record that is not a command");
                accepted = false;
            }
        }
        else if (result.outcome() == VerificationOutcome.VERIFIED)
        {
            final ParseResult parsed = parser.parsePayload(text, 0, length);
            if (!parsed.isOk())
            {
                // the verifier wrote this canonical JSON itself; failing to read it back is a defect, kept visible
                recordLength = rejection(next, stamp, result, RequestRejectReason.MALFORMED,
                    "canonical JSON did not parse: " + parsed.code() + " at " + parsed.field());
                accepted = false;
            }
            else
            {
                result.getRawSigner(rawSigner, 0);
                result.getPersonalSigner(personalSigner, 0);
                result.getSignature(signature, 0);
                recordLength = encoder.encode(next, stamp, epoch, parsed.payload(), digest,
                    SignerMatch.get((short)result.signerMatch().ordinal()), rawSigner, personalSigner, signature,
                    result.mmLimitClass(), record, 0);
                accepted = true;
            }
        }
        else
        {
            final RequestRejectReason reason = result.outcome() == VerificationOutcome.MALFORMED ?
                RequestRejectReason.MALFORMED : RequestRejectReason.BAD_SIGNATURE;
            refuse(stamp, result.connectionId(), result.correlationId(), reason, account, digest,
                new String(text, 0, length, StandardCharsets.UTF_8), true);
            return;
        }
        append(recordLength, accepted, result.connectionId(), result.correlationId());
    }

    /**
     * A command the lane prepared and the pool verified: an owner's intent (agent lifecycle) or an MM cancel-replace.
     * Verified, the record is stamped in place (every command starts with sequence, time and epoch; a cancel-replace
     * also gets its new order's id and its signer from the result) and journaled; refused, a RequestRejected names the
     * account and the hash that was signed.
     */
    private void onOwnerIntent(final VerificationResult result)
    {
        final long stamp = stamp();
        final long next = sequence + staged + 1;
        final int length = result.textLength();
        record.checkLimit(length);
        if (text.length < length)
        {
            text = new byte[Math.max(length, text.length * 2)];
        }
        result.getText(text, 0);
        result.getDigest(digest, 0);
        result.getAccount(account, 0);
        final boolean verified = result.outcome() == VerificationOutcome.VERIFIED;
        // which verifier prepared it, not the bytes (a refusal's text is its reason, not the command)
        final boolean cancelReplace = result.isCancelReplace();
        if (verified && isPreparedCommand(text, length, cancelReplace))
        {
            record.putBytes(0, text, 0, length);
            stampInPlace(next, stamp);
            if (cancelReplace)
            {
                final int envelope = MessageHeaderEncoder.ENCODED_LENGTH +
                    CancelReplaceEncoder.envelopeEncodingOffset();
                result.getRawSigner(rawSigner, 0);
                record.putBytes(envelope + ActionEnvelopeEncoder.digestEncodingOffset(), digest);
                record.putBytes(envelope + ActionEnvelopeEncoder.rawSignerEncodingOffset(), rawSigner);
                record.putByte(envelope + ActionEnvelopeEncoder.signerMatchEncodingOffset(),
                    (byte)(Arrays.equals(rawSigner, account) ? SignerMatch.ACCOUNT_RAW : SignerMatch.OTHER).value());
            }
            append(length, true, result.connectionId(), result.correlationId());
            return;
        }
        final String detail = verified ? "the lane handed over a record that is not a command it may prepare" :
            new String(text, 0, length, StandardCharsets.UTF_8);
        final RequestRejectReason reason = result.outcome() != VerificationOutcome.BAD_SIGNATURE ?
            RequestRejectReason.MALFORMED :
            cancelReplace ? RequestRejectReason.BAD_SIGNATURE : RequestRejectReason.OWNER_SIGNATURE_INVALID;
        refuse(stamp, result.connectionId(), result.correlationId(), reason, account, digest, detail, true);
    }

    /** Every command starts with its sequence, time and epoch: written into the record staged at 0. */
    private void stampInPlace(final long next, final long stamp)
    {
        final int body = MessageHeaderEncoder.ENCODED_LENGTH;
        record.putLong(body, next, ByteOrder.LITTLE_ENDIAN);
        record.putLong(body + 8, stamp, ByteOrder.LITTLE_ENDIAN);
        record.putInt(body + 16, (int)epoch, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Whether a verifier's command (staged at 0) is a whole record of this schema and a signed action's: a command that
     * is neither an owner's intent nor a cancel-replace, which other verifiers prepare.
     */
    private boolean isActionCommand(final int length)
    {
        if (records.wrap(record, 0, length) != RecordError.NONE || records.encodedLength() != length)
        {
            return false;
        }
        final RecordType type = records.type();
        return type.isCommand() && type != RecordType.CANCEL_REPLACE &&
            !JournalRecords.isOwnerIntent(type.templateId());
    }

    /**
     * Whether a verified text is a command of the kind its verifier may prepare: of this schema, a cancel-replace as
     * long as its block says, or an owner intent with at least its owner.
     */
    private static boolean isPreparedCommand(final byte[] bytes, final int length, final boolean cancelReplace)
    {
        if (length < MessageHeaderEncoder.ENCODED_LENGTH)
        {
            return false;
        }
        final int blockLength = (bytes[0] & 0xFF) | (bytes[1] & 0xFF) << 8;
        final int templateId = (bytes[2] & 0xFF) | (bytes[3] & 0xFF) << 8;
        final int schemaId = (bytes[4] & 0xFF) | (bytes[5] & 0xFF) << 8;
        if (schemaId != MessageHeaderEncoder.SCHEMA_ID)
        {
            return false;
        }
        return cancelReplace ? templateId == CancelReplaceEncoder.TEMPLATE_ID &&
            MessageHeaderEncoder.ENCODED_LENGTH + blockLength <= length :
            JournalRecords.isOwnerIntent(templateId) && length >= MessageHeaderEncoder.ENCODED_LENGTH + 20;
    }

    /** The time for the next record: the clock's, never earlier than the previous stamp. */
    private long stamp()
    {
        final long stamp = Math.max(clock.time(), lastStamp);
        lastStamp = stamp;
        return stamp;
    }

    /**
     * Stages the record built for the next sequence in this duty cycle's excerpt; {@link #commit} tells the listener
     * once it is written: the moment its client may be answered.
     */
    private void append(final int recordLength, final boolean accepted, final long connectionId,
        final long correlationId)
    {
        if (staged == stagedConnection.length)
        {
            // summaries journaled in this duty cycle too: the excerpt so far goes first
            commit();
        }
        journal.add(record, 0, recordLength);
        stagedConnection[staged] = connectionId;
        stagedCorrelation[staged] = correlationId;
        stagedAccepted[staged] = accepted;
        staged++;
        if (journal.stagedLength() >= JournalAppender.BATCH_COMMIT_BYTES)
        {
            commit();
        }
    }

    private int rejection(
        final long next, final long stamp, final VerificationResult result, final RequestRejectReason reason,
        final String detail)
    {
        return rejection(next, stamp, result.connectionId(), result.correlationId(), reason, account, digest, detail);
    }

    private int rejection(
        final long next, final long stamp, final long connectionId, final long correlationId,
        final RequestRejectReason reason, final byte[] accountBytes, final byte[] digestBytes, final String detail)
    {
        rejected.wrapAndApplyHeader(record, 0, header)
            .sequence(next)
            .timestampMs(stamp)
            .epoch(epoch)
            .connectionId(connectionId)
            .correlationId(correlationId)
            .reason(reason)
            .putAccount(accountBytes, 0, 20)
            .putDigest(digestBytes, 0, 32)
            // what a stranger sent can be longer than the field holds (65,534 bytes): kept capped, never thrown on
            .detail(RefusalDetails.cap(detail));
        return MessageHeaderEncoder.ENCODED_LENGTH + rejected.encodedLength();
    }

    @Override
    public String roleName()
    {
        return "sequencer";
    }
}
