package io.venue.verifier;

import io.venue.action.json.ParseErrorCode;
import io.venue.crypto.RecoveryStatus;
import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;

import static io.venue.verifier.VerificationResultLayout.ACCOUNT;
import static io.venue.verifier.VerificationResultLayout.ADDRESS_LENGTH;
import static io.venue.verifier.VerificationResultLayout.CONNECTION_ID;
import static io.venue.verifier.VerificationResultLayout.CORRELATION_ID;
import static io.venue.verifier.VerificationResultLayout.DETAIL;
import static io.venue.verifier.VerificationResultLayout.DIGEST;
import static io.venue.verifier.VerificationResultLayout.DIGEST_LENGTH;
import static io.venue.verifier.VerificationResultLayout.DIGEST_VERSION;
import static io.venue.verifier.VerificationResultLayout.OUTCOME;
import static io.venue.verifier.VerificationResultLayout.PERSONAL_SIGNER;
import static io.venue.verifier.VerificationResultLayout.PREPARED_CANCEL_REPLACE;
import static io.venue.verifier.VerificationResultLayout.RAW_SIGNER;
import static io.venue.verifier.VerificationResultLayout.SIGNATURE;
import static io.venue.verifier.VerificationResultLayout.SIGNATURE_LENGTH;
import static io.venue.verifier.VerificationResultLayout.TEXT;
import static io.venue.verifier.VerificationResultLayout.TEXT_LENGTH;

/**
 * A read-only flyweight over one result in the result ring. Valid only inside the handler call that
 * received it; copy what must outlive it.
 */
public final class VerificationResult
{
    private DirectBuffer buffer;
    private int offset;
    private boolean ownerIntent;

    /** Points this flyweight at a result record, e.g. one written by {@link ActionVerifier#verify}. */
    public VerificationResult wrap(final DirectBuffer buffer, final int offset)
    {
        return wrap(buffer, offset, false);
    }

    /** Points this flyweight at an action's result, or at an owner intent's ({@link OwnerIntentVerifier}). */
    public VerificationResult wrap(final DirectBuffer buffer, final int offset, final boolean ownerIntent)
    {
        this.buffer = buffer;
        this.offset = offset;
        this.ownerIntent = ownerIntent;
        return this;
    }

    /**
     * True for an owner's EIP-191 intent (agent create, rotate, revoke, owner-revoke): when VERIFIED its text is
     * the command record to journal; otherwise the reason it was refused, in words.
     */
    public boolean isOwnerIntent()
    {
        return ownerIntent;
    }

    /** For a result that carries a prepared command ({@link #isOwnerIntent()}): true for an MM cancel-replace. */
    public boolean isCancelReplace()
    {
        return ownerIntent && buffer.getByte(offset + DETAIL) == PREPARED_CANCEL_REPLACE;
    }

    /**
     * For a VERIFIED submit: whether the text is the action's journal command as the verifier wrote it, sequence, time
     * and epoch left for the single writer to stamp ({@link CommandWriter}), rather than its canonical JSON.
     */
    public boolean isCommand()
    {
        return !ownerIntent && buffer.getByte(offset + VerificationResultLayout.TEXT_FORM) ==
            VerificationResultLayout.TEXT_IS_COMMAND;
    }

    public long connectionId()
    {
        return buffer.getLong(offset + CONNECTION_ID);
    }

    public long correlationId()
    {
        return buffer.getLong(offset + CORRELATION_ID);
    }

    public VerificationOutcome outcome()
    {
        return VerificationOutcome.of(buffer.getByte(offset + OUTCOME));
    }

    /** For VERIFIED results. */
    public SignerMatch signerMatch()
    {
        return SignerMatch.of(buffer.getByte(offset + DETAIL));
    }

    /** For MALFORMED results. */
    public ParseErrorCode parseError()
    {
        return ParseErrorCode.values()[buffer.getByte(offset + DETAIL)];
    }

    /** For BAD_SIGNATURE results. */
    public RecoveryStatus recoveryStatus()
    {
        return RecoveryStatus.values()[buffer.getByte(offset + DETAIL)];
    }

    /**
     * A submit of limit class MM: it came in on the MM routes, whose windows were charged before the pool, and the
     * per-account action limiter does not count it; false for the trading route's (limit class TRADING).
     */
    public boolean mmLimitClass()
    {
        return !ownerIntent && buffer.getByte(offset + VerificationResultLayout.LIMIT_CLASS) == 1;
    }

    /** 2 or 1 for parsed bodies, 0 otherwise. */
    public int digestVersion()
    {
        return buffer.getByte(offset + DIGEST_VERSION);
    }

    public void getDigest(final byte[] dst, final int dstOffset)
    {
        buffer.getBytes(offset + DIGEST, dst, dstOffset, DIGEST_LENGTH);
    }

    public void getRawSigner(final byte[] dst, final int dstOffset)
    {
        buffer.getBytes(offset + RAW_SIGNER, dst, dstOffset, ADDRESS_LENGTH);
    }

    public void getPersonalSigner(final byte[] dst, final int dstOffset)
    {
        buffer.getBytes(offset + PERSONAL_SIGNER, dst, dstOffset, ADDRESS_LENGTH);
    }

    public void getAccount(final byte[] dst, final int dstOffset)
    {
        buffer.getBytes(offset + ACCOUNT, dst, dstOffset, ADDRESS_LENGTH);
    }

    /** The request's signature as sent: r (32 bytes), s (32), v (1); zeros when the body did not parse. */
    public void getSignature(final byte[] dst, final int dstOffset)
    {
        buffer.getBytes(offset + SIGNATURE, dst, dstOffset, SIGNATURE_LENGTH);
    }

    public int textLength()
    {
        return buffer.getInt(offset + TEXT_LENGTH);
    }

    public void getText(final byte[] dst, final int dstOffset)
    {
        buffer.getBytes(offset + TEXT, dst, dstOffset, textLength());
    }

    /**
     * Canonical JSON of the payload (VERIFIED unless {@link #isCommand()}, BAD_SIGNATURE) or "field\nmessage"
     * (MALFORMED). Allocates.
     */
    public String text()
    {
        final byte[] text = new byte[textLength()];
        getText(text, 0);
        return new String(text, StandardCharsets.UTF_8);
    }
}
