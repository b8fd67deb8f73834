package io.venue.sequencer;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.json.CanonicalJson;
import io.venue.crypto.Secp256k1Recoveries;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.verifier.ActionVerifier;
import io.venue.verifier.VerificationOutcome;
import io.venue.verifier.VerificationResult;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import java.util.Arrays;
import io.venue.action.Book;
import io.venue.action.Side;
import io.venue.crypto.Eip712Order;
import io.venue.crypto.Secp256k1Recovery;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.CancelReplaceDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.SignerMatch;
import io.venue.verifier.CancelReplaceCheck;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Verifies a journaled command again instead of trusting what the verifier pool recorded: rebuilds the signed
 * request from the record's fields and its kept signature ({@link ActionCommandDecoder}), runs it through the
 * same {@link ActionVerifier} the pool runs, and requires the same outcome, digest, signer match and signers
 * as the record holds (a zero signer, a mode the pool did not recover because the other gave the account or a known
 * delegate, passes). A record whose fields were changed after signing gives another digest; a record whose
 * signer was changed names one the signature does not recover to.
 */
public final class SignatureAudit
{
    /** The zero address: a signer that was not recovered. */
    private static final byte[] NOBODY = new byte[20];

    /** What {@link #check} found. */
    public enum Verdict
    {
        /** Not a signed action (an owner intent, a pre-journal rejection): nothing to verify. */
        NOT_A_SIGNED_ACTION,
        /** A signed action without a kept signature (made by a test or a load generator, not from a request). */
        NO_SIGNATURE,
        VERIFIED,
        /** See {@link #failure()}. */
        FAILED
    }

    private final ActionCommandDecoder decoder = new ActionCommandDecoder();
    private final ActionVerifier verifier;
    private final VerificationResult result = new VerificationResult();
    private final ExpandableArrayBuffer out = new ExpandableArrayBuffer(4096);
    private final byte[] signature = new byte[65];
    private final byte[] recorded = new byte[32];
    private final byte[] found = new byte[32];
    private String failure;
    private final CancelReplaceCheck cancelReplaces;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final CancelReplaceDecoder cancelReplace = new CancelReplaceDecoder();
    private final byte[] cancelSignature = new byte[65];
    private final byte[] trader = new byte[20];
    private final byte[] cancelOrderId = new byte[32];

    /** The deployment's chain id and verifying contract, and whether v1 digests were accepted when it ran. */
    public SignatureAudit(final long chainId, final Address verifyingContract, final boolean acceptV1)
    {
        final Secp256k1Recovery recovery = Secp256k1Recoveries.select().newRecovery();
        verifier = new ActionVerifier(chainId, verifyingContract, recovery, acceptV1, 1 << 20);
        cancelReplaces = new CancelReplaceCheck(chainId, verifyingContract, recovery);
    }

    public Verdict check(final DirectBuffer buffer, final int offset, final int length)
    {
        failure = null;
        if (length >= MessageHeaderDecoder.ENCODED_LENGTH &&
            header.wrap(buffer, offset).templateId() == CancelReplaceDecoder.TEMPLATE_ID)
        {
            return checkCancelReplace(buffer, offset, length);
        }
        final ActionPayload payload;
        try
        {
            payload = decoder.decode(buffer, offset, length);
        }
        catch (final IllegalArgumentException ex)
        {
            return fail("the record holds no valid action: " + ex.getMessage());
        }
        if (null == payload)
        {
            return Verdict.NOT_A_SIGNED_ACTION;
        }
        final ActionEnvelopeDecoder envelope = decoder.envelope();
        envelope.getSignature(signature, 0, 65);
        if (isZero(signature))
        {
            return Verdict.NO_SIGNATURE;
        }
        final byte[] body = CanonicalJson.signedActionBody(
            new SignedAction(payload, new Signature65(signature.clone())));
        // an order of limit class MM came in on the MM/BSL compact routes, which the pool verified over the v2
        // digest only
        verifier.verify(new UnsafeBuffer(body), 0, body.length, 0, 0, out, decoder.mmLimitClass());
        result.wrap(out, 0);
        if (result.outcome() != VerificationOutcome.VERIFIED)
        {
            return fail("the request rebuilt from the record does not verify: " + result.outcome());
        }
        result.getDigest(found, 0);
        envelope.getDigest(recorded, 0, 32);
        if (!Arrays.equals(found, recorded))
        {
            return fail("the record's fields hash to another digest than the one it holds");
        }
        if (result.signerMatch().ordinal() != envelope.signerMatch().value())
        {
            return fail("the signature matches the account as " + result.signerMatch() + ", the record says " +
                envelope.signerMatch());
        }
        // a zero candidate is one the verifier did not recover (the other mode gave the account or a known delegate):
        // it authorizes nobody, so the record claims no more than the signature gives
        result.getRawSigner(found, 0);
        envelope.getRawSigner(recorded, 0, 20);
        if (!Arrays.equals(recorded, 0, 20, NOBODY, 0, 20) && !Arrays.equals(found, 0, 20, recorded, 0, 20))
        {
            return fail("the signature recovers to another raw-mode signer than the record holds");
        }
        result.getPersonalSigner(found, 0);
        envelope.getPersonalSigner(recorded, 0, 20);
        if (!Arrays.equals(recorded, 0, 20, NOBODY, 0, 20) && !Arrays.equals(found, 0, 20, recorded, 0, 20))
        {
            return fail("the signature recovers to another personal-mode signer than the record holds");
        }
        return Verdict.VERIFIED;
    }

    /**
     * An MM cancel-replace: both legs again from the record's fields, to its order id and its signer, and the signer
     * fields the gate trusts as the pool wrote them. Its time in force is covered by the request's SVC signature,
     * which the journal does not keep: the audit cannot check it.
     */
    private Verdict checkCancelReplace(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH + CancelReplaceDecoder.BLOCK_LENGTH)
        {
            return fail("a cancel-replace record shorter than its block");
        }
        final CancelReplaceDecoder d = cancelReplace.wrapAndApplyHeader(buffer, offset, header);
        final ActionEnvelopeDecoder envelope = d.envelope();
        envelope.getAccount(trader, 0, 20);
        envelope.getSignature(signature, 0, 65);
        if (isZero(signature))
        {
            return Verdict.NO_SIGNATURE;
        }
        d.getCancelOrderId(cancelOrderId, 0, 32);
        d.getCancelSignature(cancelSignature, 0, 65);
        final Book book;
        final Side side;
        try
        {
            book = ActionCommandDecoder.book(d.book());
            side = ActionCommandDecoder.side(d.side());
        }
        catch (final IllegalArgumentException unknownValue)
        {
            return fail("the record's book or side is not a value of the schema");
        }
        final String problem = cancelReplaces.check(new CancelReplaceCheck.Order(trader, d.market(),
            Eip712Order.sideCode(side, book), d.price(), d.qty(), d.expiry(), envelope.nonce(), cancelOrderId),
            signature, cancelSignature);
        if (problem != null)
        {
            return fail("the cancel-replace rebuilt from the record does not verify: " + problem);
        }
        envelope.getDigest(recorded, 0, 32);
        if (!Arrays.equals(cancelReplaces.placeHash(), recorded))
        {
            return fail("the record's fields hash to another EIP-712 Order than the one it holds");
        }
        envelope.getRawSigner(recorded, 0, 20);
        if (!Arrays.equals(cancelReplaces.signer(), 0, 20, recorded, 0, 20))
        {
            return fail("the signatures recover to another signer than the record holds");
        }
        final boolean byTrader = Arrays.equals(cancelReplaces.signer(), trader);
        if (envelope.signerMatchRaw() != (byTrader ? SignerMatch.ACCOUNT_RAW :
            SignerMatch.OTHER).value())
        {
            return fail("the record's signer match is not the one the signer gives");
        }
        envelope.getPersonalSigner(recorded, 0, 20);
        if (!isZero(recorded, 20) || envelope.hasClientOrderIdRaw() != BooleanType.FALSE.value())
        {
            return fail(
                "a cancel-replace record holds a personal signer or a client order id, which the lane never writes");
        }
        return Verdict.VERIFIED;
    }

    /** Why the last {@link #check} failed, or null. */
    public String failure()
    {
        return failure;
    }

    private Verdict fail(final String why)
    {
        failure = why;
        return Verdict.FAILED;
    }

    private static boolean isZero(final byte[] bytes)
    {
        return isZero(bytes, bytes.length);
    }

    /** Whether the first {@code length} bytes are all zero. */
    private static boolean isZero(final byte[] bytes, final int length)
    {
        for (int i = 0; i < length; i++)
        {
            if (bytes[i] != 0)
            {
                return false;
            }
        }
        return true;
    }
}
