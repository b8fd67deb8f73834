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

/**
 * Verifies a journaled command again instead of trusting what the verifier pool recorded: rebuilds the signed
 * request from the record's fields and its kept signature ({@link ActionCommandDecoder}), runs it through the
 * same {@link ActionVerifier} the pool runs, and requires the same outcome, digest, signer match and signers
 * as the record holds. A record whose fields were changed after signing gives another digest; a record whose
 * signer was changed names one the signature does not recover to.
 */
public final class SignatureAudit
{
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

    /** The deployment's chain id and verifying contract, and whether v1 digests were accepted when it ran. */
    public SignatureAudit(final long chainId, final Address verifyingContract, final boolean acceptV1)
    {
        verifier = new ActionVerifier(chainId, verifyingContract, Secp256k1Recoveries.select().newRecovery(), acceptV1, 1 << 20);
    }

    public Verdict check(final DirectBuffer buffer, final int offset, final int length)
    {
        failure = null;
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
        final byte[] body = CanonicalJson.signedActionBody(new SignedAction(payload, new Signature65(signature.clone())));
        verifier.verify(body, 0, body.length, 0, 0, out);
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
            return fail("the signature matches the account as " + result.signerMatch() + ", the record says " + envelope.signerMatch());
        }
        result.getRawSigner(found, 0);
        envelope.getRawSigner(recorded, 0, 20);
        if (!Arrays.equals(found, 0, 20, recorded, 0, 20))
        {
            return fail("the signature recovers to another raw-mode signer than the record holds");
        }
        result.getPersonalSigner(found, 0);
        envelope.getPersonalSigner(recorded, 0, 20);
        if (!Arrays.equals(found, 0, 20, recorded, 0, 20))
        {
            return fail("the signature recovers to another personal-mode signer than the record holds");
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
        for (final byte b : bytes)
        {
            if (b != 0)
            {
                return false;
            }
        }
        return true;
    }
}
