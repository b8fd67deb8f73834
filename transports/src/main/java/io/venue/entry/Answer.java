package io.venue.entry;

import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.RequestRejectReason;

import java.util.Arrays;

/**
 * What the journals say happened to one request, in no lane's wire form: the responder builds it from the command and
 * its events, and each lane renders it (HTTP status and JSON, a WebSocket frame, a FIX ExecutionReport). It holds
 * bytes and numbers only; hex and text are made by the lane, on the lane's thread.
 * <p>
 * Immutable once built; arrays handed in are owned by the answer and must not be changed afterwards.
 */
public final class Answer
{
    /** Whose decision it is. */
    public enum Kind
    {
        /** The engine applied the action. */
        ACCEPTED,
        /** The engine refused the action ({@link #code}). */
        REJECTED,
        /** Refused before the engine: the verifier or a lane, journaled as a request refusal ({@link #reason}). */
        REFUSED,
        /** The command was journaled but the engine did not apply it (a record it could not read). */
        UNAPPLIED,
        /**
         * No decision came within the answer timeout ({@link PendingRequests}): the request may still be journaled and
         * decided; never kept for the status route.
         */
        TIMED_OUT
    }

    /** No limiter state: the answer is not about one account's actions. */
    public static final long NO_RATE_LIMIT = -1;

    private static final byte[][] NO_ORDER_IDS = new byte[0][];
    private static final int[] NO_LEGS = new int[0];
    private static final RejectCode[] NO_CODES = new RejectCode[0];

    public final Kind kind;
    public final long sequence;
    /** The time the sequencer stamped on the command: the time the engine judged by. */
    public final long serverTimeMs;
    /** The engine's refusal; null unless {@link Kind#REJECTED}. */
    public final RejectCode code;
    /** The refusal before the engine; null unless {@link Kind#REFUSED}. */
    public final RequestRejectReason reason;
    /** The refusal's journaled detail (capped by the journal); null unless {@link Kind#REFUSED}. */
    public final String detail;
    /** The action's 32-byte digest (the v2 digest, or an intent's EIP-191 hash); null when the request had none. */
    public final byte[] digest;
    /** The account's 20 bytes; null when unknown. */
    public final byte[] account;
    /** The 32-byte ids of the orders the action placed, in leg order. */
    public final byte[][] orderIds;
    /** The legs of a batch the engine refused, and each one's code (same length). */
    public final int[] rejectedLegs;
    public final RejectCode[] legCodes;
    public final int trades;
    public final long nonceFloor;
    public final long nonceWindow;
    public final long nextUsableNonce;
    /** The account limiter's limit, or {@link #NO_RATE_LIMIT}; then remaining and reset mean nothing. */
    public final long rateLimit;
    public final long rateRemaining;
    public final long rateResetMs;
    /** How long the client should wait before it sends again (0: no advice): a limit's refill, a busy shard. */
    public final long retryAfterMs;
    /** For a refusal of the signer: the signers recovered in raw and personal mode (20 bytes each), or null. */
    public final byte[] rawSigner;
    public final byte[] personalSigner;
    /**
     * For a refusal of the signer: the canonical JSON the signature was checked over (UTF-8), or null. Whole in the
     * answer to the request; in an answer kept for the status route ({@link #kept}) at most its first
     * {@link RefusalDetails#MAX_BYTES} bytes ({@link #canonicalJsonCut}).
     */
    public final byte[] canonicalJson;
    /** The whole canonical JSON's length in bytes (0 without one): more than {@code canonicalJson.length} once cut. */
    public final int canonicalJsonBytes;
    /** Orders the command cancelled on its own request (a CancelAll's count); protective sweeps are not counted. */
    public final int cancelled;
    /** A protection command's outcome (a ProtectionAction name: ARMED, RENEWED, DISARMED, ...), or null. */
    public final String protectionAction;
    /** A protection command's deadline (stamped ms) when armed or renewed, else 0. */
    public final long protectionDeadlineMs;

    /** What an answer's own fields cost the heap beyond its arrays and strings (header, references, numbers). */
    private static final int OBJECT_BYTES = 160;
    /** An array's header. */
    private static final int ARRAY_BYTES = 16;

    private Answer(final Builder b)
    {
        kind = b.kind;
        sequence = b.sequence;
        serverTimeMs = b.serverTimeMs;
        code = b.code;
        reason = b.reason;
        detail = b.detail;
        digest = b.digest;
        account = b.account;
        orderIds = b.orderIds == null ? NO_ORDER_IDS : b.orderIds;
        rejectedLegs = b.rejectedLegs == null ? NO_LEGS : b.rejectedLegs;
        legCodes = b.legCodes == null ? NO_CODES : b.legCodes;
        trades = b.trades;
        nonceFloor = b.nonceFloor;
        nonceWindow = b.nonceWindow;
        nextUsableNonce = b.nextUsableNonce;
        rateLimit = b.rateLimit;
        rateRemaining = b.rateRemaining;
        rateResetMs = b.rateResetMs;
        retryAfterMs = b.retryAfterMs;
        rawSigner = b.rawSigner;
        personalSigner = b.personalSigner;
        canonicalJson = b.canonicalJson;
        canonicalJsonBytes = b.canonicalJson == null ? 0 : b.canonicalJson.length;
        cancelled = b.cancelled;
        protectionAction = b.protectionAction;
        protectionDeadlineMs = b.protectionDeadlineMs;
    }

    /** A copy of {@code whole} with a capped canonical JSON and detail, for {@link #kept}. */
    private Answer(final Answer whole, final byte[] canonicalJsonHead, final String cappedDetail)
    {
        kind = whole.kind;
        sequence = whole.sequence;
        serverTimeMs = whole.serverTimeMs;
        code = whole.code;
        reason = whole.reason;
        detail = cappedDetail;
        digest = whole.digest;
        account = whole.account;
        orderIds = whole.orderIds;
        rejectedLegs = whole.rejectedLegs;
        legCodes = whole.legCodes;
        trades = whole.trades;
        nonceFloor = whole.nonceFloor;
        nonceWindow = whole.nonceWindow;
        nextUsableNonce = whole.nextUsableNonce;
        rateLimit = whole.rateLimit;
        rateRemaining = whole.rateRemaining;
        rateResetMs = whole.rateResetMs;
        retryAfterMs = whole.retryAfterMs;
        rawSigner = whole.rawSigner;
        personalSigner = whole.personalSigner;
        canonicalJson = canonicalJsonHead;
        canonicalJsonBytes = whole.canonicalJsonBytes;
        cancelled = whole.cancelled;
        protectionAction = whole.protectionAction;
        protectionDeadlineMs = whole.protectionDeadlineMs;
    }

    /**
     * What is kept of this answer for later status reads: the same answer with its canonical JSON cut to its first
     * {@link RefusalDetails#MAX_BYTES} bytes (the action's {@link #digest} is the digest of the whole) and its detail
     * capped ({@link RefusalDetails#cap}; a journal written before the cap may hold up to 65,534 bytes), so that what a
     * stranger sends costs the kept answers a bounded amount. Itself when nothing needs cutting.
     */
    public Answer kept()
    {
        final boolean longJson = canonicalJson != null && canonicalJson.length > RefusalDetails.MAX_BYTES;
        final String cappedDetail = RefusalDetails.cap(detail);
        if (!longJson && cappedDetail == detail)
        {
            return this;
        }
        final byte[] json = longJson ? utf8Head(canonicalJson, RefusalDetails.MAX_BYTES) : canonicalJson;
        return new Answer(this, json, cappedDetail);
    }

    /** Whether {@link #canonicalJson} holds only the head of the canonical JSON (an answer {@link #kept}). */
    public boolean canonicalJsonCut()
    {
        return canonicalJson != null && canonicalJson.length < canonicalJsonBytes;
    }

    /**
     * About how many bytes of heap this answer holds (arrays and strings it alone refers to included): what the kept
     * answers count against their byte budget. An estimate on the large side, not a measurement.
     */
    public long retainedBytes()
    {
        long bytes = OBJECT_BYTES + arrayBytes(digest) + arrayBytes(account) + arrayBytes(rawSigner) +
            arrayBytes(personalSigner) + arrayBytes(canonicalJson);
        // a String's object and array headers, and two bytes a char at most
        bytes += detail == null ? 0 : 2L * ARRAY_BYTES + 2L * detail.length();
        bytes += ARRAY_BYTES + 4L * orderIds.length;
        for (final byte[] id : orderIds)
        {
            bytes += arrayBytes(id);
        }
        bytes += 2L * ARRAY_BYTES + 8L * rejectedLegs.length;
        return bytes;
    }

    private static long arrayBytes(final byte[] array)
    {
        return array == null ? 0 : ARRAY_BYTES + ((array.length + 7L) & ~7L);
    }

    /** The longest head of UTF-8 {@code bytes} of at most {@code max} bytes that does not split a character. */
    private static byte[] utf8Head(final byte[] bytes, final int max)
    {
        int end = max;
        // a continuation byte (10xxxxxx) cannot start a character: step back to the start of the one it belongs to
        while (end > 0 && (bytes[end] & 0xC0) == 0x80)
        {
            end--;
        }
        return Arrays.copyOf(bytes, end);
    }

    public boolean accepted()
    {
        return kind == Kind.ACCEPTED;
    }

    /** Whether the action used its nonce: accepted, or refused by the engine after the nonce step. */
    public boolean usedNonce()
    {
        return kind == Kind.ACCEPTED || kind == Kind.REJECTED && RejectCodes.usedNonce(code);
    }

    /**
     * A refusal's detail with {@code field\nmessage} split (a malformed body's), or the whole detail as the message.
     */
    public String detailField()
    {
        final int split = detail == null ? -1 : detail.indexOf('\n');
        return split < 0 ? "" : detail.substring(0, split);
    }

    public String detailMessage()
    {
        final int split = detail == null ? -1 : detail.indexOf('\n');
        return split < 0 ? detail : detail.substring(split + 1);
    }

    /** One line for a log: the kind, the code or reason (and a refusal's detail) and the sequence. */
    @Override
    public String toString()
    {
        return switch (kind)
        {
            case ACCEPTED -> "accepted at " + sequence;
            case REJECTED -> "rejected " + RejectCodes.wire(code) + " at " + sequence;
            case REFUSED -> "refused " + reason + " at " + sequence + ": " + detail;
            case UNAPPLIED -> "not applied by the engine at " + sequence;
            case TIMED_OUT -> "no decision within the answer timeout";
        };
    }

    /** Sets the fields of one answer; reusable after {@link #build}, which clears it. */
    public static final class Builder
    {
        private Kind kind;
        private long sequence;
        private long serverTimeMs;
        private RejectCode code;
        private RequestRejectReason reason;
        private String detail;
        private byte[] digest;
        private byte[] account;
        private byte[][] orderIds;
        private int[] rejectedLegs;
        private RejectCode[] legCodes;
        private int trades;
        private long nonceFloor;
        private long nonceWindow;
        private long nextUsableNonce;
        private long rateLimit = NO_RATE_LIMIT;
        private long rateRemaining;
        private long rateResetMs;
        private long retryAfterMs;
        private byte[] rawSigner;
        private byte[] personalSigner;
        private byte[] canonicalJson;
        private int cancelled;
        private String protectionAction;
        private long protectionDeadlineMs;

        /** Orders the command cancelled on its own request. */
        public Builder cancelled(final int cancelled)
        {
            this.cancelled = cancelled;
            return this;
        }

        /** A protection command's outcome and deadline. */
        public Builder protection(final String action, final long deadlineMs)
        {
            this.protectionAction = action;
            this.protectionDeadlineMs = deadlineMs;
            return this;
        }

        public Builder accepted(final long sequence, final long serverTimeMs)
        {
            return start(Kind.ACCEPTED, sequence, serverTimeMs);
        }

        public Builder rejected(final long sequence, final long serverTimeMs, final RejectCode code)
        {
            this.code = code;
            return start(Kind.REJECTED, sequence, serverTimeMs);
        }

        public Builder refused(final long sequence, final long serverTimeMs, final RequestRejectReason reason,
            final String detail)
        {
            this.reason = reason;
            this.detail = detail;
            return start(Kind.REFUSED, sequence, serverTimeMs);
        }

        public Builder unapplied(final long sequence, final long serverTimeMs)
        {
            return start(Kind.UNAPPLIED, sequence, serverTimeMs);
        }

        /** No decision came in time; {@code sequence} 0 when the request was not journaled yet. */
        public Builder timedOut(final long sequence)
        {
            return start(Kind.TIMED_OUT, sequence, 0);
        }

        private Builder start(final Kind kind, final long sequence, final long serverTimeMs)
        {
            this.kind = kind;
            this.sequence = sequence;
            this.serverTimeMs = serverTimeMs;
            return this;
        }

        public Builder digest(final byte[] digest)
        {
            this.digest = digest;
            return this;
        }

        public Builder account(final byte[] account)
        {
            this.account = account;
            return this;
        }

        public Builder orderIds(final byte[][] orderIds)
        {
            this.orderIds = orderIds;
            return this;
        }

        public Builder legRejects(final int[] legs, final RejectCode[] codes)
        {
            if (legs.length != codes.length)
            {
                throw new IllegalArgumentException("legs and codes differ in length");
            }
            this.rejectedLegs = legs;
            this.legCodes = codes;
            return this;
        }

        public Builder trades(final int trades)
        {
            this.trades = trades;
            return this;
        }

        public Builder nonce(final long floor, final long window, final long nextUsable)
        {
            this.nonceFloor = floor;
            this.nonceWindow = window;
            this.nextUsableNonce = nextUsable;
            return this;
        }

        public Builder rate(final long limit, final long remaining, final long resetMs)
        {
            this.rateLimit = limit;
            this.rateRemaining = remaining;
            this.rateResetMs = resetMs;
            return this;
        }

        public Builder retryAfterMs(final long retryAfterMs)
        {
            this.retryAfterMs = retryAfterMs;
            return this;
        }

        public Builder signers(final byte[] raw, final byte[] personal, final byte[] canonicalJson)
        {
            this.rawSigner = raw;
            this.personalSigner = personal;
            this.canonicalJson = canonicalJson;
            return this;
        }

        public Answer build()
        {
            if (kind == null)
            {
                throw new IllegalStateException("no kind: call accepted, rejected, refused or unapplied first");
            }
            final Answer answer = new Answer(this);
            kind = null;
            code = null;
            reason = null;
            detail = null;
            digest = null;
            account = null;
            orderIds = null;
            rejectedLegs = null;
            legCodes = null;
            trades = 0;
            nonceFloor = 0;
            nonceWindow = 0;
            nextUsableNonce = 0;
            rateLimit = NO_RATE_LIMIT;
            rateRemaining = 0;
            rateResetMs = 0;
            retryAfterMs = 0;
            rawSigner = null;
            personalSigner = null;
            canonicalJson = null;
            cancelled = 0;
            protectionAction = null;
            protectionDeadlineMs = 0;
            return answer;
        }
    }
}
