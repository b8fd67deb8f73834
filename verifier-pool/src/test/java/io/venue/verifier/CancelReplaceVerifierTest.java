package io.venue.verifier;

import io.venue.action.OrderId;
import io.venue.crypto.BouncyCastleSecp256k1Recovery;
import io.venue.crypto.CancelByIdText;
import io.venue.crypto.Eip191;
import io.venue.crypto.Eip712Order;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;

import static io.venue.verifier.SignedActions.CHAIN_ID;
import static io.venue.verifier.SignedActions.CONTRACT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The MM cancel-replace's two signatures: one signer for both legs, the EIP-712 hash as the new order's id. */
class CancelReplaceVerifierTest
{
    private static final Secp256k1KeyPair TRADER = Secp256k1KeyPair.generate(new SecureRandom());
    private static final byte[] CANCEL_ID = new byte[32];
    private static final byte[] COMMAND = {9, 8, 7};

    private static CancelReplaceCheck.Order order()
    {
        return new CancelReplaceCheck.Order(TRADER.address().toBytes(), 1, Eip712Order.YES_ASK, 5_000_000, 2_000, 0,
            42, CANCEL_ID);
    }

    private static byte[] signatures(final Secp256k1KeyPair placeSigner, final Secp256k1KeyPair cancelSigner)
    {
        final byte[] hash = new byte[32];
        new Eip712Order(CHAIN_ID, CONTRACT)
            .hash(1, TRADER.address(), Eip712Order.YES_ASK, 5_000_000, 2_000, 0, 42, hash, 0);
        final byte[] out = new byte[130];
        System.arraycopy(new Secp256k1Signer(placeSigner).sign(hash, PreimageMode.RAW), 0, out, 0, 65);
        System.arraycopy(
            new Secp256k1Signer(cancelSigner).sign(Eip191.personalHash(CancelByIdText.text(new OrderId(CANCEL_ID),
            TRADER.address())), PreimageMode.RAW), 0, out, 65, 65);
        return out;
    }

    private static VerificationResult verify(final byte[] signatures, final ExpandableArrayBuffer out)
    {
        final CancelReplaceVerifier verifier = new CancelReplaceVerifier(CHAIN_ID, CONTRACT,
            new BouncyCastleSecp256k1Recovery());
        final CancelReplaceCheck.Order order = order();
        final UnsafeBuffer request = new UnsafeBuffer(new byte[CancelReplaceVerifier.COMMAND + COMMAND.length]);
        request.putBytes(CancelReplaceVerifier.TRADER, order.trader());
        request.putLong(CancelReplaceVerifier.MARKET, order.market());
        request.putByte(CancelReplaceVerifier.SIDE_CODE, (byte)order.sideCode());
        request.putLong(CancelReplaceVerifier.PRICE, order.price());
        request.putLong(CancelReplaceVerifier.QTY, order.qty());
        request.putLong(CancelReplaceVerifier.EXPIRY, order.expiry());
        request.putLong(CancelReplaceVerifier.NONCE, order.nonce());
        request.putBytes(CancelReplaceVerifier.PLACE_SIGNATURE, signatures, 0, 65);
        request.putBytes(CancelReplaceVerifier.CANCEL_ORDER_ID, CANCEL_ID);
        request.putBytes(CancelReplaceVerifier.CANCEL_SIGNATURE, signatures, 65, 65);
        request.putBytes(CancelReplaceVerifier.COMMAND, COMMAND);
        verifier.verify(request, 0, request.capacity(), 3, 4, out);
        return new VerificationResult().wrap(out, 0, true);
    }

    @Test
    void bothLegsByTheTraderCarryTheCommandWithTheOrderHashAndSigner()
    {
        final VerificationResult result = verify(signatures(TRADER, TRADER), new ExpandableArrayBuffer(512));
        assertEquals(VerificationOutcome.VERIFIED, result.outcome());
        final byte[] signer = new byte[20];
        result.getRawSigner(signer, 0);
        assertArrayEquals(TRADER.address().toBytes(), signer);
        final byte[] digest = new byte[32];
        result.getDigest(digest, 0);
        final byte[] expected = new byte[32];
        new Eip712Order(CHAIN_ID, CONTRACT)
            .hash(1, TRADER.address(), Eip712Order.YES_ASK, 5_000_000, 2_000, 0, 42, expected, 0);
        assertArrayEquals(expected, digest, "the new order's id is the EIP-712 Order hash");
        final byte[] command = new byte[result.textLength()];
        result.getText(command, 0);
        assertArrayEquals(COMMAND, command);
    }

    @Test
    void legsSignedByTwoKeysAreRefused()
    {
        final VerificationResult result = verify(signatures(TRADER, Secp256k1KeyPair.generate(new SecureRandom())),
            new ExpandableArrayBuffer(512));
        assertEquals(VerificationOutcome.BAD_SIGNATURE, result.outcome());
        assertTrue(result.text().contains("both legs need the same signer"), result.text());
        assertNotEquals(0, result.textLength());
    }

    @Property(tries = 1000)
    void anyRequestBytesGiveAResultNeverVerified(@ForAll @Size(max = 400) final byte[] request)
    {
        final CancelReplaceVerifier verifier = new CancelReplaceVerifier(CHAIN_ID, CONTRACT,
            new BouncyCastleSecp256k1Recovery());
        final ExpandableArrayBuffer out = new ExpandableArrayBuffer(1024);
        final int length = verifier.verify(new UnsafeBuffer(request), 0, request.length, 1, 2, out);
        final VerificationResult result = new VerificationResult().wrap(out, 0, true);
        assertTrue(result.outcome() != VerificationOutcome.VERIFIED, "random signatures never verify");
        assertEquals(length, VerificationResultLayout.TEXT + result.textLength());
        assertTrue(new String(result.text().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).length() > 0);
    }
}
