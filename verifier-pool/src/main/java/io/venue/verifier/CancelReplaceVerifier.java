package io.venue.verifier;

import io.venue.action.Address;
import io.venue.crypto.Secp256k1Recovery;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.Arrays;

import static io.venue.verifier.VerificationResultLayout.ADDRESS_LENGTH;
import static io.venue.verifier.VerificationResultLayout.CONNECTION_ID;
import static io.venue.verifier.VerificationResultLayout.CORRELATION_ID;
import static io.venue.verifier.VerificationResultLayout.DIGEST_LENGTH;
import static io.venue.verifier.VerificationResultLayout.PREPARED_CANCEL_REPLACE;
import static io.venue.verifier.VerificationResultLayout.SIGNATURE_LENGTH;
import static io.venue.verifier.VerificationResultLayout.TEXT;
import static io.venue.verifier.VerificationResultLayout.TEXT_LENGTH;

/**
 * Verifies an MM cancel-replace in the pool ({@link CancelReplaceCheck}) and hands on the command the lane prepared,
 * with the new order's id (the EIP-712 hash) in the result's digest and the recovered signer as its raw signer: the
 * sequencer writes both into the command's envelope.
 * <p>
 * Request body layout (after the pool's connection and correlation ids), little-endian:
 * <pre>
 *   0  trader        20 bytes
 *  20  market        int64
 *  28  sideCode      int8
 *  29  price         int64
 *  37  qty           int64
 *  45  expiry        int64
 *  53  nonce         int64
 *  61  placeSig      65 bytes
 * 126  cancelOrderId 32 bytes
 * 158  cancelSig     65 bytes
 * 223  command       the rest: the command record (SBE header and body)
 * </pre>
 */
final class CancelReplaceVerifier
{
    static final int TRADER = 0;
    static final int MARKET = 20;
    static final int SIDE_CODE = 28;
    static final int PRICE = 29;
    static final int QTY = 37;
    static final int EXPIRY = 45;
    static final int NONCE = 53;
    static final int PLACE_SIGNATURE = 61;
    static final int CANCEL_ORDER_ID = 126;
    static final int CANCEL_SIGNATURE = 158;
    static final int COMMAND = 223;
    /** The hash of a request too short to hold an order. */
    private static final byte[] NO_HASH = new byte[DIGEST_LENGTH];

    private final CancelReplaceCheck check;
    private final byte[] trader = new byte[ADDRESS_LENGTH];
    private final byte[] placeSignature = new byte[SIGNATURE_LENGTH];
    private final byte[] cancelSignature = new byte[SIGNATURE_LENGTH];
    private final byte[] cancelOrderId = new byte[32];

    CancelReplaceVerifier(final long chainId, final Address verifyingContract, final Secp256k1Recovery recovery)
    {
        check = new CancelReplaceCheck(chainId, verifyingContract, recovery);
    }

    int verify(
        final DirectBuffer request, final int offset, final int length, final long connectionId,
        final long correlationId, final MutableDirectBuffer out)
    {
        out.putLong(CONNECTION_ID, connectionId);
        out.putLong(CORRELATION_ID, correlationId);
        if (length < COMMAND)
        {
            Arrays.fill(trader, (byte)0);
            return refuse(out, VerificationOutcome.MALFORMED, "cancel-replace request layout: too short", NO_HASH);
        }
        request.getBytes(offset + TRADER, trader);
        request.getBytes(offset + PLACE_SIGNATURE, placeSignature);
        request.getBytes(offset + CANCEL_ORDER_ID, cancelOrderId);
        request.getBytes(offset + CANCEL_SIGNATURE, cancelSignature);
        final String problem = check.check(new CancelReplaceCheck.Order(trader, request.getLong(offset + MARKET),
            request.getByte(offset + SIDE_CODE) & 0xFF, request.getLong(offset + PRICE), request.getLong(offset + QTY),
            request.getLong(offset + EXPIRY), request.getLong(offset + NONCE), cancelOrderId), placeSignature,
            cancelSignature);
        if (problem != null)
        {
            return refuse(out, VerificationOutcome.BAD_SIGNATURE, problem, check.placeHash());
        }
        writeFixed(out, VerificationOutcome.VERIFIED, check.placeHash(), check.signer());
        final int commandLength = length - COMMAND;
        out.putInt(TEXT_LENGTH, commandLength);
        out.putBytes(TEXT, request, offset + COMMAND, commandLength);
        return TEXT + commandLength;
    }

    private int refuse(final MutableDirectBuffer out, final VerificationOutcome outcome, final String reason,
        final byte[] hash)
    {
        writeFixed(out, outcome, hash, null);
        return VerificationResultLayout.writeReason(out, reason);
    }

    private void writeFixed(final MutableDirectBuffer out, final VerificationOutcome outcome, final byte[] hash,
        final byte[] signer)
    {
        VerificationResultLayout.writePrepared(out, outcome, PREPARED_CANCEL_REPLACE, hash, signer, null, trader,
            placeSignature);
    }
}
