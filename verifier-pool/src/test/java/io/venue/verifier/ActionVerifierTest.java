package io.venue.verifier;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Deposit;
import io.venue.action.json.BodyMutator;
import io.venue.action.json.CanonicalJson;
import io.venue.action.json.ParseErrorCode;
import io.venue.action.json.ParseResult;
import io.venue.action.json.SignedActionParser;
import io.venue.codec.Hex;
import io.venue.crypto.Keccak256;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.RecoveryStatus;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Recoveries;
import io.venue.crypto.Secp256k1Recovery;
import io.venue.crypto.Secp256k1Signer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.agrona.ExpandableArrayBuffer;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.math.ec.ECPoint;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.SplittableRandom;

import static io.venue.verifier.SignedActions.CHAIN_ID;
import static io.venue.verifier.SignedActions.CONTRACT;
import static io.venue.verifier.SignedActions.bid;
import static io.venue.verifier.SignedActions.body;
import static io.venue.verifier.SignedActions.signedBody;
import static io.venue.verifier.SignedActions.v1Digest;
import static io.venue.verifier.SignedActions.v2Digest;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ActionVerifierTest
{
    private static final Secp256k1KeyPair KEY = Secp256k1KeyPair.fromPrivateKey(filled(0x42));
    private static final Secp256k1KeyPair OTHER_KEY = Secp256k1KeyPair.fromPrivateKey(filled(0x17));

    private final ExpandableArrayBuffer out = new ExpandableArrayBuffer();
    private final VerificationResult result = new VerificationResult();

    private static byte[] filled(final int value)
    {
        final byte[] key = new byte[32];
        Arrays.fill(key, (byte)value);
        return key;
    }

    private static ActionVerifier verifier(final boolean acceptV1)
    {
        return new ActionVerifier(CHAIN_ID, CONTRACT, Secp256k1Recoveries.select().newRecovery(), acceptV1, 1 << 20);
    }

    private VerificationResult verify(final ActionVerifier verifier, final byte[] body)
    {
        final int length = verifier.verify(body, 0, body.length, 7, 9, out);
        assertEquals(184 + result.wrap(out, 0).textLength(), length);
        assertEquals(7, result.connectionId());
        assertEquals(9, result.correlationId());
        return result;
    }

    private static byte[] address(final Address address)
    {
        final byte[] bytes = new byte[20];
        address.copyTo(bytes, 0);
        return bytes;
    }

    /** The real recovery, counting its calls. */
    private static final class CountingRecovery implements Secp256k1Recovery
    {
        private final Secp256k1Recovery recovery = Secp256k1Recoveries.select().newRecovery();
        int calls;

        @Override
        public String name()
        {
            return recovery.name();
        }

        @Override
        public RecoveryStatus recover(
            final byte[] hash, final int hashOffset, final byte[] signature, final int signatureOffset,
            final byte[] addressOut, final int addressOffset)
        {
            calls++;
            return recovery.recover(hash, hashOffset, signature, signatureOffset, addressOut, addressOffset);
        }
    }

    /**
     * An admin action signed over its admin text (docs/MESSAGE-TEXTS.md section 6, built here from the doc) is the
     * account's, both digest candidates zero; the same signature over a trading action speaks for no one.
     */
    @Test
    void anAdminActionSignedOverItsAdminTextIsTheAccounts()
    {
        final ActionPayload deposit = new ActionPayload(KEY.address(), 3, null, 1_700_000_000_000L,
            new Deposit(OTHER_KEY.address(), 1, 5));
        final VerificationResult r = verify(verifier(false), overAdminText(KEY, deposit));
        assertEquals(VerificationOutcome.VERIFIED, r.outcome());
        assertEquals(SignerMatch.ACCOUNT_ADMIN_TEXT, r.signerMatch());
        final byte[] signer = new byte[20];
        r.getRawSigner(signer, 0);
        assertArrayEquals(new byte[20], signer);
        r.getPersonalSigner(signer, 0);
        assertArrayEquals(new byte[20], signer);

        assertEquals(SignerMatch.OTHER, verify(verifier(false), overAdminText(OTHER_KEY, deposit)).signerMatch());
        final ActionPayload trade = bid(KEY.address(), 4);
        assertEquals(SignerMatch.OTHER, verify(verifier(false), overAdminText(KEY, trade)).signerMatch(),
            "the text is tried for admin actions only");
        // the digest's own modes stay the account's, as recorded in journals written before the text was accepted
        assertEquals(SignerMatch.ACCOUNT_PERSONAL,
            verify(verifier(false), signedBody(KEY, deposit, PreimageMode.PERSONAL)).signerMatch());
        assertEquals(SignerMatch.ACCOUNT_RAW,
            verify(verifier(false), signedBody(KEY, deposit, PreimageMode.RAW)).signerMatch());
    }

    private static byte[] overAdminText(final Secp256k1KeyPair key, final ActionPayload payload)
    {
        final String text = "Service Admin Action\ndigest:0x" + Hex.toHex(v2Digest(payload));
        final byte[] message = ("\u0019Ethereum Signed Message:\n" + text.length() + text)
            .getBytes(StandardCharsets.US_ASCII);
        final byte[] hash = new byte[32];
        new Keccak256().hash(message, 0, message.length, hash, 0);
        return body(payload, new Secp256k1Signer(key).sign(hash));
    }

    @Test
    void aKnownDelegatesRawSignatureCostsOneRecoveryAndLeavesThePersonalCandidateEmpty()
    {
        final byte[] delegate = address(OTHER_KEY.address());
        final byte[] principal = address(KEY.address());
        final DelegateSigners known = (account, signer) -> Arrays.equals(account, principal) &&
            Arrays.equals(signer, delegate);
        final byte[] raw = signedBody(OTHER_KEY, bid(KEY.address(), 1), PreimageMode.RAW);
        final byte[] personal = signedBody(OTHER_KEY, bid(KEY.address(), 2), PreimageMode.PERSONAL);
        final byte[] signer = new byte[20];

        final CountingRecovery counted = new CountingRecovery();
        final ActionVerifier verifier = new ActionVerifier(CHAIN_ID, CONTRACT, counted, false, 1 << 20, known);
        VerificationResult r = verify(verifier, raw);
        assertEquals(1, counted.calls);
        assertEquals(SignerMatch.OTHER, r.signerMatch());
        r.getRawSigner(signer, 0);
        assertArrayEquals(delegate, signer);
        r.getPersonalSigner(signer, 0);
        assertArrayEquals(new byte[20], signer, "no personal candidate: it authorizes nobody");

        // signed in personal mode, the raw candidate is no one's: both modes are recovered, as without the directory
        counted.calls = 0;
        r = verify(verifier, personal);
        assertEquals(2, counted.calls);
        r.getPersonalSigner(signer, 0);
        assertArrayEquals(delegate, signer);

        // and an unknown signer costs both, the personal candidate reported
        final CountingRecovery alone = new CountingRecovery();
        r = verify(new ActionVerifier(CHAIN_ID, CONTRACT, alone, false, 1 << 20), raw);
        assertEquals(2, alone.calls);
        r.getRawSigner(signer, 0);
        assertArrayEquals(delegate, signer);
        r.getPersonalSigner(signer, 0);
        assertTrue(!Arrays.equals(new byte[20], signer) && !Arrays.equals(delegate, signer));
    }

    @Test
    void anAccountSigningInPersonalModeIsTriedInThatModeFirstFromItsSecondAction()
    {
        final byte[] delegate = address(OTHER_KEY.address());
        final CountingRecovery counted = new CountingRecovery();
        final Secp256k1KeyPair account = Secp256k1KeyPair.fromPrivateKey(filled(0x23));
        final byte[] principal = address(account.address());
        final ActionVerifier verifier = new ActionVerifier(CHAIN_ID, CONTRACT, counted, false, 1 << 20,
            (of, signer) -> Arrays.equals(of, principal) && Arrays.equals(signer, delegate));
        final byte[] signer = new byte[20];

        // the account itself, in personal mode: two recoveries, then one, with no raw candidate
        VerificationResult r = verify(verifier, signedBody(KEY, bid(KEY.address(), 1), PreimageMode.PERSONAL));
        assertEquals(2, counted.calls);
        assertEquals(SignerMatch.ACCOUNT_PERSONAL, r.signerMatch());
        counted.calls = 0;
        r = verify(verifier, signedBody(KEY, bid(KEY.address(), 2), PreimageMode.PERSONAL));
        assertEquals(1, counted.calls);
        assertEquals(SignerMatch.ACCOUNT_PERSONAL, r.signerMatch());
        r.getRawSigner(signer, 0);
        assertArrayEquals(new byte[20], signer, "no raw candidate: it authorizes nobody");

        // back to raw mode: personal first misses, the usual order finds the account, and raw comes first again
        counted.calls = 0;
        r = verify(verifier, signedBody(KEY, bid(KEY.address(), 3), PreimageMode.RAW));
        assertEquals(2, counted.calls);
        assertEquals(SignerMatch.ACCOUNT_RAW, r.signerMatch());
        r.getPersonalSigner(signer, 0);
        assertArrayEquals(new byte[20], signer, "the missed personal candidate is not reported");
        counted.calls = 0;
        assertEquals(SignerMatch.ACCOUNT_RAW,
            verify(verifier, signedBody(KEY, bid(KEY.address(), 4), PreimageMode.RAW)).signerMatch());
        assertEquals(1, counted.calls);

        // a known delegate of the account in personal mode: two recoveries, then one
        counted.calls = 0;
        verify(verifier, signedBody(OTHER_KEY, bid(account.address(), 1), PreimageMode.PERSONAL));
        assertEquals(2, counted.calls);
        counted.calls = 0;
        r = verify(verifier, signedBody(OTHER_KEY, bid(account.address(), 2), PreimageMode.PERSONAL));
        assertEquals(1, counted.calls);
        assertEquals(SignerMatch.OTHER, r.signerMatch());
        r.getPersonalSigner(signer, 0);
        assertArrayEquals(delegate, signer);
    }

    @Test
    void anotherAccountsDelegateNeverSavesARecoveryOfThisAccountsActions()
    {
        // the account signs in personal mode; an attacker who saw the signature names its raw-mode recovery (no one's
        // key) as an agent of an account of its own, and signs in personal mode with an agent of its own for the victim
        final byte[] victim = address(KEY.address());
        final byte[] body = signedBody(KEY, bid(KEY.address(), 1), PreimageMode.PERSONAL);
        final byte[] noOnesKey = new byte[20];
        verify(verifier(false), body).getRawSigner(noOnesKey, 0);
        final byte[] attackersAgent = address(OTHER_KEY.address());
        final byte[] attacker = filled(0x61);
        final ActionVerifier verifier = new ActionVerifier(CHAIN_ID, CONTRACT,
            Secp256k1Recoveries.select().newRecovery(), false,
            1 << 20, (account, signer) -> Arrays.equals(account, 0, 20, attacker, 0, 20) &&
                (Arrays.equals(signer, noOnesKey) || Arrays.equals(signer, attackersAgent)));
        assertEquals(SignerMatch.ACCOUNT_PERSONAL, verify(verifier, body).signerMatch());
        verify(verifier, signedBody(OTHER_KEY, bid(KEY.address(), 2), PreimageMode.PERSONAL));
        // the victim's raw-mode action still matches the account: its delegate's signature did not teach personal-first
        final VerificationResult raw = verify(verifier, signedBody(KEY, bid(KEY.address(), 3), PreimageMode.RAW));
        assertEquals(SignerMatch.ACCOUNT_RAW, raw.signerMatch());
        final byte[] signer = new byte[20];
        raw.getRawSigner(signer, 0);
        assertArrayEquals(victim, signer);
    }

    /**
     * A signature whose raw-mode recovery is the point at infinity (s = e·k⁻¹ for the raw digest e) is still a
     * signature over the personal-mode digest: the verifier tries that mode, in whichever order, and reports the same.
     */
    @Test
    void aRawModePointAtInfinityIsNotABadSignatureWhenPersonalModeRecovers()
    {
        final ActionPayload payload = bid(KEY.address(), 9);
        final X9ECParameters curve = CustomNamedCurves.getByName("secp256k1");
        final BigInteger n = curve.getN();
        final BigInteger e = new BigInteger(1, v2Digest(payload));
        byte[] signature = null;
        for (int k = 2; signature == null; k++)
        {
            final ECPoint r = curve.getG().multiply(BigInteger.valueOf(k)).normalize();
            final BigInteger x = r.getAffineXCoord().toBigInteger();
            final BigInteger s = e.multiply(BigInteger.valueOf(k).modInverse(n)).mod(n);
            if (x.compareTo(n) < 0 && s.signum() > 0 && s.compareTo(n.shiftRight(1)) <= 0)
            {
                signature = new byte[65];
                System.arraycopy(fixed32(x), 0, signature, 0, 32);
                System.arraycopy(fixed32(s), 0, signature, 32, 32);
                signature[64] = (byte)(27 + (r.getAffineYCoord().toBigInteger().testBit(0) ? 1 : 0));
            }
        }
        final byte[] body = body(payload, signature);
        final VerificationResult usual = verify(verifier(false), body);
        assertEquals(VerificationOutcome.VERIFIED, usual.outcome());
        assertEquals(SignerMatch.OTHER, usual.signerMatch());
        final byte[] raw = new byte[20];
        usual.getRawSigner(raw, 0);
        assertArrayEquals(new byte[20], raw, "no raw-mode signer");
        final byte[] personal = new byte[20];
        usual.getPersonalSigner(personal, 0);

        // a verifier that knows the personal-mode signer as the account's delegate, and has the account
        // in personal-first
        final byte[] account = address(KEY.address());
        final ActionVerifier knowing = new ActionVerifier(CHAIN_ID, CONTRACT,
            Secp256k1Recoveries.select().newRecovery(), false,
            1 << 20, (of, signer) -> Arrays.equals(of, account) && Arrays.equals(signer, personal));
        verify(knowing, signedBody(KEY, bid(KEY.address(), 10), PreimageMode.PERSONAL));
        final VerificationResult first = verify(knowing, body);
        assertEquals(VerificationOutcome.VERIFIED, first.outcome());
        assertEquals(SignerMatch.OTHER, first.signerMatch());
        final byte[] found = new byte[20];
        first.getPersonalSigner(found, 0);
        assertArrayEquals(personal, found);
    }

    private static byte[] fixed32(final BigInteger value)
    {
        final byte[] bytes = value.toByteArray();
        final byte[] out = new byte[32];
        final int length = Math.min(bytes.length, 32);
        System.arraycopy(bytes, bytes.length - length, out, 32 - length, length);
        return out;
    }

    @Test
    void rawSignatureOfTheAccountIsVerifiedWithCanonicalJsonAndDigest()
    {
        final ActionPayload payload = bid(KEY.address(), 1);
        final byte[] body = signedBody(KEY, payload, PreimageMode.RAW);
        final VerificationResult r = verify(verifier(false), body);
        assertEquals(VerificationOutcome.VERIFIED, r.outcome());
        // the signature as sent is handed on, for the journal to keep
        final byte[] signature = new byte[65];
        r.getSignature(signature, 0);
        final byte[] sent = new byte[65];
        new SignedActionParser().parse(body, 0, body.length).signedAction().signature().copyTo(sent, 0);
        assertArrayEquals(sent, signature);
        assertEquals(SignerMatch.ACCOUNT_RAW, r.signerMatch());
        assertEquals(2, r.digestVersion());
        final byte[] digest = new byte[32];
        r.getDigest(digest, 0);
        assertArrayEquals(v2Digest(payload), digest);
        assertEquals(new String(CanonicalJson.toBytes(payload), StandardCharsets.US_ASCII), r.text());
        final byte[] signer = new byte[20];
        r.getRawSigner(signer, 0);
        assertArrayEquals(address(KEY.address()), signer);
    }

    @Test
    void personalSignatureOfTheAccountIsVerified()
    {
        final VerificationResult r = verify(verifier(false),
            signedBody(KEY, bid(KEY.address(), 2), PreimageMode.PERSONAL));
        assertEquals(SignerMatch.ACCOUNT_PERSONAL, r.signerMatch());
    }

    @Test
    void anotherSignerIsReportedInBothModesForTheGate()
    {
        final VerificationResult r = verify(verifier(false),
            signedBody(OTHER_KEY, bid(KEY.address(), 3), PreimageMode.PERSONAL));
        assertEquals(VerificationOutcome.VERIFIED, r.outcome());
        assertEquals(SignerMatch.OTHER, r.signerMatch());
        final byte[] personal = new byte[20];
        r.getPersonalSigner(personal, 0);
        assertArrayEquals(address(OTHER_KEY.address()), personal);
        final byte[] account = new byte[20];
        r.getAccount(account, 0);
        assertArrayEquals(address(KEY.address()), account);
    }

    @Test
    void v1IsAcceptedOnlyBehindTheMigrationFlag()
    {
        final ActionPayload payload = bid(KEY.address(), 4);
        final byte[] body = body(payload, new Secp256k1Signer(KEY).sign(v1Digest(payload), PreimageMode.RAW));
        assertEquals(SignerMatch.OTHER, verify(verifier(false), body).signerMatch());
        final VerificationResult r = verify(verifier(true), body);
        assertEquals(SignerMatch.ACCOUNT_RAW_V1, r.signerMatch());
        assertEquals(1, r.digestVersion());
        final byte[] digest = new byte[32];
        r.getDigest(digest, 0);
        assertArrayEquals(v2Digest(payload), digest, "the v2 digest stays the order id");
    }

    @Test
    void badSignatureBytesAreNamed()
    {
        final ActionPayload payload = bid(KEY.address(), 5);
        final byte[] signature = new Secp256k1Signer(KEY).sign(v2Digest(payload), PreimageMode.RAW);
        Arrays.fill(signature, 32, 64, (byte)0);
        final VerificationResult r = verify(verifier(false), body(payload, signature));
        assertEquals(VerificationOutcome.BAD_SIGNATURE, r.outcome());
        assertEquals(RecoveryStatus.S_OUT_OF_RANGE, r.recoveryStatus());
        assertEquals(new String(CanonicalJson.toBytes(payload), StandardCharsets.US_ASCII), r.text());

        signature[64] = 29;
        assertEquals(RecoveryStatus.V_INVALID, verify(verifier(false), body(payload, signature)).recoveryStatus());
    }

    @Test
    void malformedBodiesCarryCodeFieldAndMessage()
    {
        final byte[] body = "{\"payload\":{\"nonce\":-1}}".getBytes(StandardCharsets.US_ASCII);
        final VerificationResult r = verify(verifier(false), body);
        assertEquals(VerificationOutcome.MALFORMED, r.outcome());
        assertEquals(ParseErrorCode.NUMBER_OUT_OF_RANGE, r.parseError());
        assertTrue(r.text().startsWith("payload.nonce\n"), r.text());
    }

    /**
     * A mutated body gets the outcome its bytes call for: MALFORMED with the strict parser's own error when the parser
     * refuses it; otherwise the digest of what it now says, BAD_SIGNATURE when its signature is out of range (the
     * statuses checked here with BigInteger against the group order), and VERIFIED (or BAD_SIGNATURE for no curve
     * point) with the account as signer only when neither the payload nor the signature changed.
     */
    @Property(tries = 300)
    void mutatedSignedBodiesGetTheOutcomeTheirBytesCallFor(@ForAll final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final ActionPayload original = bid(KEY.address(), random.nextInt(1_000_000));
        final byte[] body = signedBody(KEY, original, PreimageMode.RAW);
        final byte[] mutated = BodyMutator.mutate(body, 1 + random.nextInt(3), random);
        final VerificationResult r = verify(verifier(false), mutated);
        final ParseResult parsed = new SignedActionParser(1 << 20).parse(mutated);
        if (!parsed.isOk())
        {
            assertEquals(VerificationOutcome.MALFORMED, r.outcome(), parsed.toString());
            assertEquals(parsed.code(), r.parseError());
            assertEquals(parsed.field() + "\n" + parsed.message(), r.text());
            return;
        }
        final ActionPayload payload = parsed.signedAction().payload();
        final byte[] digest = new byte[32];
        r.getDigest(digest, 0);
        assertArrayEquals(v2Digest(payload), digest, "the digest of what the mutated body says");
        assertEquals(new String(CanonicalJson.toBytes(payload), StandardCharsets.US_ASCII), r.text());
        final byte[] signature = parsed.signedAction().signature().toBytes();
        final Set<RecoveryStatus> outOfRange = outOfRange(signature);
        if (!outOfRange.isEmpty())
        {
            assertEquals(VerificationOutcome.BAD_SIGNATURE, r.outcome());
            assertTrue(outOfRange.contains(r.recoveryStatus()), r.recoveryStatus() + " for a signature " + outOfRange);
            return;
        }
        final byte[] signed = new SignedActionParser().parse(body).signedAction().signature().toBytes();
        final boolean unchanged = Arrays.equals(CanonicalJson.toBytes(payload), CanonicalJson.toBytes(original)) &&
            Arrays.equals(signature, 0, 64, signed, 0, 64) && signature[64] % 27 == signed[64] % 27;
        if (r.outcome() == VerificationOutcome.BAD_SIGNATURE)
        {
            assertEquals(RecoveryStatus.NO_POINT, r.recoveryStatus(),
                "a signature in range fails only for want of a point");
            assertTrue(!unchanged, "the account's own signature over its own payload has a point");
        }
        else
        {
            assertEquals(VerificationOutcome.VERIFIED, r.outcome());
            assertEquals(unchanged, r.signerMatch().isAccount(),
                r.signerMatch() + " for a body " + (unchanged ? "" : "not ") +
                "as the account signed it");
        }
    }

    /** What a recovery must refuse in {@code signature} (r, s, v) whatever the digest; empty when it is in range. */
    private static Set<RecoveryStatus> outOfRange(final byte[] signature)
    {
        final BigInteger n = new BigInteger(
            "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16);
        final BigInteger r = new BigInteger(1, Arrays.copyOfRange(signature, 0, 32));
        final BigInteger s = new BigInteger(1, Arrays.copyOfRange(signature, 32, 64));
        final int v = signature[64] & 0xFF;
        final Set<RecoveryStatus> refused = EnumSet.noneOf(RecoveryStatus.class);
        if (v != 0 && v != 1 && v != 27 && v != 28)
        {
            refused.add(RecoveryStatus.V_INVALID);
        }
        if (r.signum() == 0 || r.compareTo(n) >= 0)
        {
            refused.add(RecoveryStatus.R_OUT_OF_RANGE);
        }
        if (s.signum() == 0 || s.compareTo(n) >= 0)
        {
            refused.add(RecoveryStatus.S_OUT_OF_RANGE);
        }
        else if (s.compareTo(n.shiftRight(1)) > 0)
        {
            refused.add(RecoveryStatus.S_NOT_CANONICAL);
        }
        return refused;
    }
}
