package io.venue.verifier;

import io.venue.crypto.BouncyCastleSecp256k1Recovery;
import io.venue.crypto.Eip191;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicReference;

import static io.venue.verifier.SignedActions.CHAIN_ID;
import static io.venue.verifier.SignedActions.CONTRACT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Owner intents through the pool: the EIP-191 signature over the text must recover to the owner; a verified
 * intent's result carries the command untouched, a refused one the reason; any request bytes give a result.
 */
class OwnerIntentVerifierTest
{
    private static final byte[] TEXT = "Service Owner Revoke\nowner:0x...".getBytes(StandardCharsets.UTF_8);
    private static final byte[] COMMAND = {1, 2, 3, 4, 5, 6, 7, 8, 9};

    private static VerificationResult poll(final VerifierPool pool, final AtomicReference<byte[]> text)
    {
        final VerificationResult[] out = new VerificationResult[1];
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (out[0] == null && System.nanoTime() < deadline)
        {
            pool.poll(result ->
            {
                assertTrue(result.isOwnerIntent());
                final byte[] bytes = new byte[result.textLength()];
                result.getText(bytes, 0);
                text.set(bytes);
                out[0] = copy(result);
            }, 1);
        }
        return out[0];
    }

    /** The flyweight is valid only inside the handler: keep the fields the test reads. */
    private static VerificationResult copy(final VerificationResult result)
    {
        final ExpandableArrayBuffer copy = new ExpandableArrayBuffer(256 + result.textLength());
        copy.putLong(VerificationResultLayout.CONNECTION_ID, result.connectionId());
        copy.putByte(VerificationResultLayout.OUTCOME, (byte)result.outcome().ordinal());
        final byte[] address = new byte[20];
        result.getPersonalSigner(address, 0);
        copy.putBytes(VerificationResultLayout.PERSONAL_SIGNER, address);
        result.getAccount(address, 0);
        copy.putBytes(VerificationResultLayout.ACCOUNT, address);
        return new VerificationResult().wrap(copy, 0, true);
    }

    @Test
    void theOwnersSignatureCarriesTheCommandAnotherWalletsDoesNot()
    {
        final Secp256k1KeyPair owner = Secp256k1KeyPair.generate(new SecureRandom());
        final Secp256k1KeyPair other = Secp256k1KeyPair.generate(new SecureRandom());
        final byte[] signed = new Secp256k1Signer(owner).sign(Eip191.personalHash(TEXT), PreimageMode.RAW);
        try (VerifierPool pool = VerifierPool.start(new VerifierPool.Context().threads(1).chainId(CHAIN_ID)
            .verifyingContract(CONTRACT).idleStrategy(doorbell -> new YieldingIdleStrategy())))
        {
            final AtomicReference<byte[]> text = new AtomicReference<>();
            assertTrue(pool.offerIntent(false, 7, 1, owner.address().toBytes(), signed, TEXT, COMMAND, COMMAND.length));
            final VerificationResult verified = poll(pool, text);
            assertEquals(VerificationOutcome.VERIFIED, verified.outcome());
            assertArrayEquals(COMMAND, text.get(), "the command rides through untouched");

            assertTrue(pool.offerIntent(false, 7, 2, other.address().toBytes(), signed, TEXT, COMMAND, COMMAND.length));
            final VerificationResult refused = poll(pool, text);
            assertEquals(VerificationOutcome.BAD_SIGNATURE, refused.outcome());
            final String reason = new String(text.get(), StandardCharsets.UTF_8);
            assertTrue(
                reason.contains(owner.address().toString()) && reason.contains(other.address().toString()), reason);

            final byte[] zeros = new byte[65];
            assertTrue(pool.offerIntent(false, 7, 3, owner.address().toBytes(), zeros, TEXT, COMMAND, COMMAND.length));
            assertEquals(VerificationOutcome.BAD_SIGNATURE, poll(pool, text).outcome());
        }
    }

    @Property(tries = 2000)
    void anyRequestBytesGiveAResult(@ForAll @Size(max = 300) final byte[] request)
    {
        final OwnerIntentVerifier verifier = new OwnerIntentVerifier(new BouncyCastleSecp256k1Recovery());
        final ExpandableArrayBuffer out = new ExpandableArrayBuffer(512);
        final int length = verifier.verify(new UnsafeBuffer(request), 0, request.length, 1, 2, out);
        final VerificationResult result = new VerificationResult().wrap(out, 0, true);
        assertTrue(length >= VerificationResultLayout.TEXT);
        // random owner and signature bytes never verify (that would be a forged signature)
        assertTrue(result.outcome() != VerificationOutcome.VERIFIED);
        assertEquals(length, VerificationResultLayout.TEXT + result.textLength());
    }
}
