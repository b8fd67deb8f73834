package io.venue.verifier;

import io.venue.codec.Hex;
import io.venue.crypto.Eip191;
import io.venue.crypto.Keccak256;
import io.venue.crypto.RecoveryStatus;
import io.venue.crypto.Secp256k1Recovery;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.Arrays;

import static io.venue.verifier.VerificationResultLayout.ADDRESS_LENGTH;
import static io.venue.verifier.VerificationResultLayout.CONNECTION_ID;
import static io.venue.verifier.VerificationResultLayout.CORRELATION_ID;
import static io.venue.verifier.VerificationResultLayout.DIGEST_LENGTH;
import static io.venue.verifier.VerificationResultLayout.SIGNATURE_LENGTH;
import static io.venue.verifier.VerificationResultLayout.TEXT;
import static io.venue.verifier.VerificationResultLayout.TEXT_LENGTH;

/**
 * Verifies an owner wallet's EIP-191 intent (agent create, rotate, revoke, owner-revoke; spec 5.8): the signature
 * over the exact text must recover to the owner the lane named. The lane built the text and the command record
 * from the same request fields; the command rides along, and a verified intent's result carries it for the
 * sequencer to stamp and journal. Recovery is the costly step, which is why it runs here and not on an I/O thread.
 * <p>
 * Request body layout (after the pool's connection and correlation ids):
 * <pre>
 *   0  owner          20 bytes
 *  20  signature      65 bytes  r, s, v as sent
 *  85  textLength     int32
 *  89  text           UTF-8, the text the owner signed
 *  ..  command        the command record (SBE header and body), sequence, time and epoch left for the sequencer
 * </pre>
 * One instance per verifier thread.
 */
final class OwnerIntentVerifier
{
    static final int OWNER = 0;
    static final int SIGNATURE_AT = 20;
    static final int TEXT_LENGTH_AT = 85;
    static final int TEXT_AT = 89;

    private final Secp256k1Recovery recovery;
    private final Keccak256 keccak = new Keccak256();
    private final byte[] owner = new byte[ADDRESS_LENGTH];
    private final byte[] recovered = new byte[ADDRESS_LENGTH];
    private final byte[] signature = new byte[SIGNATURE_LENGTH];
    private final byte[] hash = new byte[DIGEST_LENGTH];
    private byte[] text = new byte[1024];

    OwnerIntentVerifier(final Secp256k1Recovery recovery)
    {
        this.recovery = recovery;
    }

    /**
     * Writes the result record (connection and correlation ids, outcome, digest, recovered signer, owner, command or
     * reason) to {@code out} and returns its length.
     */
    int verify(
        final DirectBuffer request, final int offset, final int length, final long connectionId,
        final long correlationId, final MutableDirectBuffer out)
    {
        out.putLong(CONNECTION_ID, connectionId);
        out.putLong(CORRELATION_ID, correlationId);
        Arrays.fill(hash, (byte)0);
        Arrays.fill(recovered, (byte)0);
        final int textLength = length < TEXT_AT ? -1 : request.getInt(offset + TEXT_LENGTH_AT);
        if (textLength < 0 || textLength > length - TEXT_AT)
        {
            Arrays.fill(owner, (byte)0);
            Arrays.fill(signature, (byte)0);
            return record(out, VerificationOutcome.MALFORMED, "intent request layout: the text length does not fit");
        }
        request.getBytes(offset + OWNER, owner);
        request.getBytes(offset + SIGNATURE_AT, signature);
        if (text.length < textLength)
        {
            text = new byte[Math.max(textLength, 2 * text.length)];
        }
        request.getBytes(offset + TEXT_AT, text, 0, textLength);
        Eip191.personalHash(keccak, text, 0, textLength, hash, 0);
        final RecoveryStatus status = recovery.recover(hash, 0, signature, 0, recovered, 0);
        if (status != RecoveryStatus.OK)
        {
            return record(out, VerificationOutcome.BAD_SIGNATURE,
                "the owner signature is not a valid secp256k1 signature (" +
                status + ")");
        }
        if (!Arrays.equals(recovered, owner))
        {
            return record(out, VerificationOutcome.BAD_SIGNATURE, "the EIP-191 signature over the text recovers to " +
                Hex.to0x(recovered) + ", not to the owner " + Hex.to0x(owner));
        }
        final int commandAt = TEXT_AT + textLength;
        final int commandLength = length - commandAt;
        writeFixed(out, VerificationOutcome.VERIFIED);
        out.putInt(TEXT_LENGTH, commandLength);
        out.putBytes(TEXT, request, offset + commandAt, commandLength);
        return TEXT + commandLength;
    }

    private int record(final MutableDirectBuffer out, final VerificationOutcome outcome, final String reason)
    {
        writeFixed(out, outcome);
        return VerificationResultLayout.writeReason(out, reason);
    }

    private void writeFixed(final MutableDirectBuffer out, final VerificationOutcome outcome)
    {
        VerificationResultLayout.writePrepared(out, outcome, VerificationResultLayout.PREPARED_OWNER_INTENT, hash, null,
            recovered, owner, signature);
    }
}
