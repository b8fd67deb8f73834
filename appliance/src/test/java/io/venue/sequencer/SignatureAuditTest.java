package io.venue.sequencer;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Side;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.codec.Hex;
import io.venue.crypto.ActionDigest;
import io.venue.crypto.BouncyCastleSecp256k1Recovery;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.journal.sbe.SignerMatch;
import io.venue.verifier.ActionVerifier;
import io.venue.verifier.DelegateSigners;
import io.venue.verifier.VerificationResult;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The signature audit (journal replay --verify-signatures) verifies a command as the pool did: a command of limit class
 * MM (it came in on the MM routes) is checked over the v2 digest only, even when the v1 migration flag accepts v1 on
 * the trading route.
 */
class SignatureAuditTest
{
    @Test
    void aCommandOfLimitClassMmSignedOverV1PassesTheAuditAsThePoolRecordedIt()
    {
        final long chainId = 8453;
        final Address contract = Address.of("0x" + "5e".repeat(20));
        final Secp256k1KeyPair key = Secp256k1KeyPair.fromPrivateKey(Hex.fromHex("0x" + "0123456789abcdef".repeat(4)));
        final ActionPayload payload = new ActionPayload(key.address(), 7, null, 1_763_000_000_000L,
            new SpotPlaceOrder(1, null, Side.BID, 1_000_000, 2_000_000, null, TimeInForce.GTC, false, false,
                SpotPlaceOrder.NO_EXPIRY));
        final byte[] json = CanonicalJson.toBytes(payload);
        final byte[] v1 = new byte[32];
        new ActionDigest(chainId, contract).v1(json, 0, json.length, v1, 0);
        final byte[] signature = new Secp256k1Signer(key).sign(v1, PreimageMode.RAW);
        final byte[] body = CanonicalJson.signedActionBody(new SignedAction(payload, new Signature65(signature)));

        // the pool, migration flag on, on the MM lane (v2Only = true, as VerifierAgent does for MM_REQUEST_MSG_TYPE)
        final ActionVerifier pool = new ActionVerifier(chainId, contract, new BouncyCastleSecp256k1Recovery(), true,
            1 << 20, DelegateSigners.NONE);
        final ExpandableArrayBuffer out = new ExpandableArrayBuffer(4096);
        pool.verify(new UnsafeBuffer(body), 0, body.length, 0, 0, out, true);
        final VerificationResult result = new VerificationResult().wrap(out, 0);
        // FQN-CLASH: the verifier's SignerMatch (SignerMatch here is the codec's)
        assertEquals(io.venue.verifier.SignerMatch.OTHER, result.signerMatch(),
            "the pool does not try v1 on the MM lane");

        final byte[] digest = new byte[32];
        final byte[] raw = new byte[20];
        final byte[] personal = new byte[20];
        result.getDigest(digest, 0);
        result.getRawSigner(raw, 0);
        result.getPersonalSigner(personal, 0);
        final ExpandableArrayBuffer record = new ExpandableArrayBuffer(1024);
        final int length = new ActionCommandEncoder().encode(1, 1, 1, payload, digest,
            SignerMatch.get((short)result.signerMatch().ordinal()), raw, personal, signature, true, record, 0);

        final SignatureAudit audit = new SignatureAudit(chainId, contract, true);
        final SignatureAudit.Verdict verdict = audit.check(record, 0, length);
        assertEquals(SignatureAudit.Verdict.VERIFIED, verdict, audit.failure());
    }
}
