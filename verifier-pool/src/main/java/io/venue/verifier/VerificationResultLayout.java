package io.venue.verifier;

import org.agrona.MutableDirectBuffer;

import java.nio.charset.StandardCharsets;

/**
 * Byte layout of a verification result in the result ring (little-endian).
 * <pre>
 *   0  connectionId     int64
 *   8  correlationId    int64
 *  16  outcome          int8   VerificationOutcome ordinal
 *  17  detail           int8   SignerMatch, ParseErrorCode or RecoveryStatus ordinal, by outcome
 *  18  digestVersion    int8   2, 1, or 0 when the body did not parse
 *  19  limitClass       int8   the journal's LimitClass: 0 TRADING (a submit of the trading route); 1 MM (of the MM
 *                             routes, whose windows were charged before the pool) (submit results only)
 *  20  digest           32 bytes
 *  52  rawSigner        20 bytes  raw-mode recovered address, zero if not computed
 *  72  personalSigner   20 bytes  personal-mode recovered address, zero if not computed
 *  92  account          20 bytes  the payload's account, zero if the body did not parse
 * 112  signature        65 bytes  the request's r, s, v as sent, zero if the body did not parse
 * 177  textForm         int8   0: text is canonical JSON or words; 1: text is the journal command, unstamped
 *                             ({@link CommandWriter}; VERIFIED submit results only)
 * 178  (padding)        2 bytes
 * 180  textLength       int32
 * 184  text             canonical JSON of the payload (or its journal command, by textForm), or "field\nmessage"
 *                       for MALFORMED
 * </pre>
 * An owner-intent result ({@link #INTENT_MSG_TYPE}) uses the same layout: digest = the EIP-191 hash of the text,
 * personalSigner = the recovered owner, account = the owner named, text = the command record when VERIFIED, else
 * the reason in words.
 */
final class VerificationResultLayout
{
    static final int CONNECTION_ID = 0;
    static final int CORRELATION_ID = 8;
    static final int OUTCOME = 16;
    static final int DETAIL = 17;
    static final int DIGEST_VERSION = 18;
    static final int LIMIT_CLASS = 19;
    static final int DIGEST = 20;
    static final int RAW_SIGNER = 52;
    static final int PERSONAL_SIGNER = 72;
    static final int ACCOUNT = 92;
    static final int SIGNATURE = 112;
    static final int TEXT_FORM = 177;
    static final byte TEXT_IS_COMMAND = 1;
    static final int TEXT_LENGTH = 180;
    static final int TEXT = 184;
    static final int SIGNATURE_LENGTH = 65;

    static final int DIGEST_LENGTH = 32;
    static final int ADDRESS_LENGTH = 20;

    /** Message type of results in the ring. */
    static final int RESULT_MSG_TYPE = 1;
    /** Message type of requests in the per-verifier rings. */
    static final int REQUEST_MSG_TYPE = 1;
    /**
     * Message type of owner-intent requests ({@link OwnerIntentVerifier}) and of every result that carries a command
     * the lane prepared and the pool verified (owner intents, MM cancel-replace).
     */
    static final int INTENT_MSG_TYPE = 2;
    /**
     * Message type of MM cancel-replace requests ({@link CancelReplaceVerifier}); their results are
     * {@link #INTENT_MSG_TYPE}.
     */
    static final int CANCEL_REPLACE_MSG_TYPE = 3;
    /** The detail byte of an {@link #INTENT_MSG_TYPE} result: which verifier prepared it. */
    static final int PREPARED_OWNER_INTENT = 0;
    static final int PREPARED_CANCEL_REPLACE = 1;
    /**
     * Message type of submit requests of the MM routes: verified as {@link #REQUEST_MSG_TYPE} but over the v2 digest
     * only, their results of limit class MM ({@link #LIMIT_CLASS}).
     */
    static final int MM_REQUEST_MSG_TYPE = 4;
    /**
     * Message type of typed orders of the MM lane ({@link io.venue.action.typed.TypedOrder}: a binary lane's order as
     * decoded, no JSON): verified to the same result as an {@link #MM_REQUEST_MSG_TYPE} request of the same action.
     */
    static final int TYPED_MM_REQUEST_MSG_TYPE = 5;
    /** Request header: connectionId, correlationId; the body follows. */
    static final int REQUEST_HEADER_LENGTH = 16;
    /**
     * A pre-batched request's record starts with the low-latency ring's producer position at its offer (a long), before
     * its header: the verifier takes it only once the low-latency ring is consumed that far.
     */
    static final int PREBATCHED_STAMP_LENGTH = 8;

    private VerificationResultLayout()
    {
    }

    /**
     * Writes the fixed part of a result that carries a prepared command ({@link #INTENT_MSG_TYPE}): {@code preparedBy}
     * in DETAIL; a null signer is written as zeros.
     */
    static void writePrepared(final MutableDirectBuffer out, final VerificationOutcome outcome, final int preparedBy,
        final byte[] hash, final byte[] rawSigner, final byte[] personalSigner, final byte[] account,
        final byte[] signature)
    {
        out.putByte(OUTCOME, (byte)outcome.ordinal());
        out.putByte(DETAIL, (byte)preparedBy);
        out.putByte(DIGEST_VERSION, (byte)0);
        out.putByte(DIGEST_VERSION + 1, (byte)0);
        out.putBytes(DIGEST, hash, 0, DIGEST_LENGTH);
        putOrZero(out, RAW_SIGNER, rawSigner);
        putOrZero(out, PERSONAL_SIGNER, personalSigner);
        out.putBytes(ACCOUNT, account, 0, ADDRESS_LENGTH);
        out.putBytes(SIGNATURE, signature, 0, SIGNATURE_LENGTH);
        out.setMemory(SIGNATURE + SIGNATURE_LENGTH, TEXT_LENGTH - SIGNATURE - SIGNATURE_LENGTH, (byte)0);
    }

    /** Writes a refusal's reason in words as the result's text; returns the result's length. */
    static int writeReason(final MutableDirectBuffer out, final String reason)
    {
        final byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
        out.putInt(TEXT_LENGTH, bytes.length);
        out.putBytes(TEXT, bytes);
        return TEXT + bytes.length;
    }

    private static void putOrZero(final MutableDirectBuffer out, final int at, final byte[] address)
    {
        if (address == null)
        {
            out.setMemory(at, ADDRESS_LENGTH, (byte)0);
        }
        else
        {
            out.putBytes(at, address, 0, ADDRESS_LENGTH);
        }
    }
}
