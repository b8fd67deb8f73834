package io.venue.crypto;

import fr.acinq.secp256k1.Secp256k1;
import io.venue.codec.Hex;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Sign;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Secp256k1RecoveryTest
{
    private static final byte[] N = RecoverableSignature.toBytes32(RecoverableSignature.N);

    private final NativeSecp256k1Recovery nativeRecovery = new NativeSecp256k1Recovery();
    private final BouncyCastleSecp256k1Recovery javaRecovery = new BouncyCastleSecp256k1Recovery();

    @Test
    void selfTestVectorIsWhatWeb3jRecoversAndBothImplementationsPassIt() throws Exception
    {
        assertArrayEquals(
            Secp256k1Recoveries.SELF_TEST_ADDRESS,
            Web3jInterop.recoverFromHash(Secp256k1Recoveries.SELF_TEST_HASH, Secp256k1Recoveries.SELF_TEST_SIGNATURE));
        assertTrue(Secp256k1Recoveries.passesSelfTest(nativeRecovery));
        assertTrue(Secp256k1Recoveries.passesSelfTest(javaRecovery));
    }

    @Property(tries = 200)
    void web3jSignaturesRecoverToTheSignerWithBothImplementations(
        @ForAll @Size(32) final byte[] seed, @ForAll @Size(32) final byte[] hash)
    {
        final ECKeyPair keyPair = ECKeyPair.create(Web3jInterop.privateKey(seed));
        final byte[] signature = Web3jInterop.toBytes(Sign.signMessage(hash, keyPair, false));
        final byte[] expected = Web3jInterop.address(keyPair);

        assertArrayEquals(expected, recover(nativeRecovery, hash, signature));
        assertArrayEquals(expected, recover(javaRecovery, hash, signature));
    }

    @Property(tries = 200)
    void randomSignaturesNeverThrowAndBothImplementationsAgree(
        @ForAll @Size(32) final byte[] hash, @ForAll @Size(65) final byte[] signature,
        @ForAll @IntRange(max = 3) final int v)
    {
        // Mostly-valid v values, so the curve arithmetic is reached, not just the v check.
        signature[64] = (byte)List.of(0, 1, 27, 28).get(v).intValue();
        signature[32] &= 0x7F;
        assertSameOutcome(hash, signature);
    }

    @Property(tries = 200)
    void mutatedValidSignaturesNeverThrowAndBothImplementationsAgree(
        @ForAll @Size(32) final byte[] seed,
        @ForAll @Size(32) final byte[] hash,
        @ForAll @Size(min = 1, max = 4) final List<@IntRange(max = 64) Integer> positions,
        @ForAll final byte xor)
    {
        final ECKeyPair keyPair = ECKeyPair.create(Web3jInterop.privateKey(seed));
        final byte[] signature = Web3jInterop.toBytes(Sign.signMessage(hash, keyPair, false));
        for (final int position : positions)
        {
            signature[position] ^= xor == 0 ? 1 : xor;
        }
        assertSameOutcome(hash, signature);
    }

    @ParameterizedTest
    @ValueSource(ints = { 0, 27 })
    void bothVFormsOfARecoveryIdAreAccepted(final int base)
    {
        final byte[] hash = Secp256k1Recoveries.SELF_TEST_HASH;
        final byte[] signature = Secp256k1Recoveries.SELF_TEST_SIGNATURE.clone();
        final int recoveryId = signature[64] - 27;

        signature[64] = (byte)(base + recoveryId);
        assertArrayEquals(Secp256k1Recoveries.SELF_TEST_ADDRESS, recover(nativeRecovery, hash, signature));
        assertArrayEquals(Secp256k1Recoveries.SELF_TEST_ADDRESS, recover(javaRecovery, hash, signature));

        // The other parity is a different, equally valid key: the signature binds the signer only with v.
        signature[64] = (byte)(base + (recoveryId ^ 1));
        final byte[] other = recover(nativeRecovery, hash, signature);
        assertNotEquals(Hex.toHex(Secp256k1Recoveries.SELF_TEST_ADDRESS), Hex.toHex(other));
        assertArrayEquals(other, recover(javaRecovery, hash, signature));
    }

    @ParameterizedTest
    @ValueSource(ints = { 2, 3, 26, 29, 30, 255 })
    void otherVValuesAreRejected(final int v)
    {
        final byte[] signature = Secp256k1Recoveries.SELF_TEST_SIGNATURE.clone();
        signature[64] = (byte)v;
        assertBothReject(RecoveryStatus.V_INVALID, signature);
    }

    @Test
    void rOutsideOneToNMinusOneIsRejected()
    {
        final byte[] signature = Secp256k1Recoveries.SELF_TEST_SIGNATURE.clone();
        Arrays.fill(signature, 0, 32, (byte)0);
        assertBothReject(RecoveryStatus.R_OUT_OF_RANGE, signature);

        System.arraycopy(N, 0, signature, 0, 32);
        assertBothReject(RecoveryStatus.R_OUT_OF_RANGE, signature);

        Arrays.fill(signature, 0, 32, (byte)0xFF);
        assertBothReject(RecoveryStatus.R_OUT_OF_RANGE, signature);
    }

    @Test
    void sOutsideOneToNMinusOneIsRejected()
    {
        final byte[] signature = Secp256k1Recoveries.SELF_TEST_SIGNATURE.clone();
        Arrays.fill(signature, 32, 64, (byte)0);
        assertBothReject(RecoveryStatus.S_OUT_OF_RANGE, signature);

        System.arraycopy(N, 0, signature, 32, 32);
        assertBothReject(RecoveryStatus.S_OUT_OF_RANGE, signature);
    }

    @Test
    void highSTwinIsRejectedThoughLibsecp256k1AloneWouldRecoverTheSigner()
    {
        final byte[] hash = Secp256k1Recoveries.SELF_TEST_HASH;
        final byte[] twin = highSTwin(Secp256k1Recoveries.SELF_TEST_SIGNATURE);

        assertBothReject(RecoveryStatus.S_NOT_CANONICAL, twin);

        // Why the rule lives in Java: the native recover itself accepts the malleated signature.
        final byte[] publicKey = Secp256k1.get().ecdsaRecover(Arrays.copyOf(twin, 64), hash, twin[64] - 27);
        final byte[] keyHash = new byte[32];
        new Keccak256().hash(publicKey, 1, 64, keyHash, 0);
        assertArrayEquals(Secp256k1Recoveries.SELF_TEST_ADDRESS, Arrays.copyOfRange(keyHash, 12, 32));
    }

    @Test
    void sExactlyHalfNIsAcceptedAndOneAboveIsNot()
    {
        final byte[] signature = Secp256k1Recoveries.SELF_TEST_SIGNATURE.clone();
        System.arraycopy(RecoverableSignature.toBytes32(RecoverableSignature.HALF_N), 0, signature, 32, 32);
        assertEquals(RecoveryStatus.OK, RecoverableSignature.check(signature, 0));

        System.arraycopy(
            RecoverableSignature.toBytes32(RecoverableSignature.HALF_N.add(BigInteger.ONE)), 0, signature, 32, 32);
        assertEquals(RecoveryStatus.S_NOT_CANONICAL, RecoverableSignature.check(signature, 0));
    }

    @Test
    void rThatIsNotOnTheCurveGivesNoPoint()
    {
        // x = 5: 5^3 + 7 = 132 is not a square mod p, so no point has this x.
        final byte[] signature = Secp256k1Recoveries.SELF_TEST_SIGNATURE.clone();
        Arrays.fill(signature, 0, 32, (byte)0);
        signature[31] = 5;
        assertBothReject(RecoveryStatus.NO_POINT, signature);
    }

    @Test
    void offsetsAreHonoured()
    {
        final byte[] hashFrame = new byte[40];
        final byte[] signatureFrame = new byte[70];
        System.arraycopy(Secp256k1Recoveries.SELF_TEST_HASH, 0, hashFrame, 3, 32);
        System.arraycopy(Secp256k1Recoveries.SELF_TEST_SIGNATURE, 0, signatureFrame, 5, 65);

        for (final Secp256k1Recovery recovery : List.of(nativeRecovery, javaRecovery))
        {
            final byte[] addressFrame = new byte[30];
            assertEquals(RecoveryStatus.OK, recovery.recover(hashFrame, 3, signatureFrame, 5, addressFrame, 7));
            assertArrayEquals(Secp256k1Recoveries.SELF_TEST_ADDRESS, Arrays.copyOfRange(addressFrame, 7, 27));
        }
    }

    static byte[] highSTwin(final byte[] signature)
    {
        final byte[] twin = signature.clone();
        final BigInteger s = new BigInteger(1, Arrays.copyOfRange(signature, 32, 64));
        System.arraycopy(RecoverableSignature.toBytes32(RecoverableSignature.N.subtract(s)), 0, twin, 32, 32);
        twin[64] = (byte)(27 + ((twin[64] - 27) ^ 1));
        return twin;
    }

    private void assertBothReject(final RecoveryStatus expected, final byte[] signature)
    {
        final byte[] address = new byte[20];
        assertEquals(expected, nativeRecovery.recover(Secp256k1Recoveries.SELF_TEST_HASH, 0, signature, 0, address, 0));
        assertEquals(expected, javaRecovery.recover(Secp256k1Recoveries.SELF_TEST_HASH, 0, signature, 0, address, 0));
        assertArrayEquals(new byte[20], address, "address untouched on rejection");
    }

    private void assertSameOutcome(final byte[] hash, final byte[] signature)
    {
        final byte[] nativeAddress = new byte[20];
        final byte[] javaAddress = new byte[20];
        final RecoveryStatus nativeStatus = nativeRecovery.recover(hash, 0, signature, 0, nativeAddress, 0);
        final RecoveryStatus javaStatus = javaRecovery.recover(hash, 0, signature, 0, javaAddress, 0);

        assertEquals(nativeStatus, javaStatus);
        assertArrayEquals(nativeAddress, javaAddress);
    }

    private static byte[] recover(final Secp256k1Recovery recovery, final byte[] hash, final byte[] signature)
    {
        final byte[] address = new byte[20];
        assertEquals(RecoveryStatus.OK, recovery.recover(hash, 0, signature, 0, address, 0));
        return address;
    }
}
