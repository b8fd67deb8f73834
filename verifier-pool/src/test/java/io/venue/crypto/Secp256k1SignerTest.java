package io.venue.crypto;

import io.venue.codec.Hex;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;

import java.math.BigInteger;
import java.security.SecureRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Secp256k1SignerTest
{
    private final NativeSecp256k1Recovery nativeRecovery = new NativeSecp256k1Recovery();
    private final BouncyCastleSecp256k1Recovery javaRecovery = new BouncyCastleSecp256k1Recovery();

    @Property(tries = 200)
    void rawSignaturesAreWeb3jsBytesAndRecoverEverywhere(
        @ForAll @Size(32) final byte[] seed, @ForAll @Size(32) final byte[] hash) throws Exception
    {
        final byte[] privateKey = Web3jInterop.privateKey(seed);
        final Secp256k1KeyPair ours = Secp256k1KeyPair.fromPrivateKey(privateKey);
        final ECKeyPair theirs = ECKeyPair.create(privateKey);

        final byte[] signature = new Secp256k1Signer(ours).sign(hash);

        // Both are RFC 6979 with HMAC-SHA256 and low s, so the bytes are identical, not merely valid.
        assertArrayEquals(Web3jInterop.toBytes(Sign.signMessage(hash, theirs, false)), signature);
        assertArrayEquals(Web3jInterop.address(theirs), Web3jInterop.recoverFromHash(hash, signature));
        assertArrayEquals(ours.address().toBytes(), recover(nativeRecovery, hash, signature));
        assertArrayEquals(ours.address().toBytes(), recover(javaRecovery, hash, signature));
    }

    @Property(tries = 100)
    void personalModeIsWeb3jsSignPrefixedMessageOverTheHash(
        @ForAll @Size(32) final byte[] seed, @ForAll @Size(32) final byte[] hash) throws Exception
    {
        final byte[] privateKey = Web3jInterop.privateKey(seed);
        final Secp256k1KeyPair ours = Secp256k1KeyPair.fromPrivateKey(privateKey);
        final ECKeyPair theirs = ECKeyPair.create(privateKey);

        final byte[] signature = new Secp256k1Signer(ours).sign(hash, PreimageMode.PERSONAL);

        assertArrayEquals(Web3jInterop.toBytes(Sign.signPrefixedMessage(hash, theirs)), signature);
        final BigInteger publicKey = Sign.signedPrefixedMessageToKey(hash, Web3jInterop.toSignatureData(signature));
        assertEquals(Keys.getAddress(theirs), Keys.getAddress(publicKey));

        // A verifier in personal mode recovers from the wrapped digest.
        final byte[] digest = new byte[32];
        PreimageMode.PERSONAL.signedDigest(new Keccak256(), hash, 0, digest, 0);
        assertArrayEquals(ours.address().toBytes(), recover(nativeRecovery, digest, signature));
        assertArrayEquals(ours.address().toBytes(), recover(javaRecovery, digest, signature));
    }

    @Test
    void rawModeSignsTheHashItself()
    {
        final byte[] hash = Secp256k1Recoveries.SELF_TEST_HASH;
        final byte[] digest = new byte[32];
        PreimageMode.RAW.signedDigest(new Keccak256(), hash, 0, digest, 0);
        assertArrayEquals(hash, digest);
    }

    @Test
    void signsTheSelfTestVector()
    {
        final byte[] one = new byte[32];
        one[31] = 1;
        final Secp256k1Signer signer = new Secp256k1Signer(Secp256k1KeyPair.fromPrivateKey(one));

        assertArrayEquals(Secp256k1Recoveries.SELF_TEST_SIGNATURE, signer.sign(Secp256k1Recoveries.SELF_TEST_HASH));
    }

    @Property(tries = 50)
    void signaturesAreLowSWithVOf27Or28(@ForAll @Size(32) final byte[] seed, @ForAll @Size(32) final byte[] hash)
    {
        final byte[] signature = new Secp256k1Signer(Secp256k1KeyPair.fromPrivateKey(Web3jInterop.privateKey(seed)))
            .sign(hash);

        assertEquals(RecoveryStatus.OK, RecoverableSignature.check(signature, 0));
        assertTrue(signature[64] == 27 || signature[64] == 28);
    }

    @Property(tries = 100)
    void keyPairMatchesWeb3j(@ForAll @Size(32) final byte[] seed)
    {
        final byte[] privateKey = Web3jInterop.privateKey(seed);
        final Secp256k1KeyPair ours = Secp256k1KeyPair.fromPrivateKey(privateKey);
        final ECKeyPair theirs = ECKeyPair.create(privateKey);

        assertArrayEquals(privateKey, ours.privateKey());
        assertArrayEquals(RecoverableSignature.toBytes32(theirs.getPublicKey().shiftRight(256)),
            head(ours.publicKey()));
        assertEquals(theirs.getPublicKey(), new BigInteger(1, ours.publicKey()));
        assertEquals("0x" + Keys.getAddress(theirs), ours.address().toString());
        assertEquals(ours.address(), Secp256k1KeyPair.addressOf(ours.publicKey(), 0));
    }

    @Test
    void privateKeyOneHasTheWellKnownAddress()
    {
        final byte[] one = new byte[32];
        one[31] = 1;
        assertEquals("0x7e5f4552091a69125d5dfcb7b8c2659029395bdf",
            Secp256k1KeyPair.fromPrivateKey(one).address().toString());
    }

    @Test
    void generatedKeysSignAndRecover()
    {
        final SecureRandom random = new SecureRandom();
        final Secp256k1KeyPair first = Secp256k1KeyPair.generate(random);
        final Secp256k1KeyPair second = Secp256k1KeyPair.generate(random);
        assertFalse(first.address().equals(second.address()));

        final byte[] hash = Secp256k1Recoveries.SELF_TEST_HASH;
        assertArrayEquals(first.address().toBytes(),
            recover(nativeRecovery, hash, new Secp256k1Signer(first).sign(hash)));
        assertFalse(first.toString().contains(Hex.toHex(first.privateKey())));
    }

    @Test
    void privateKeysOutsideOneToNMinusOneAreRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> Secp256k1KeyPair.fromPrivateKey(new byte[32]));
        assertThrows(IllegalArgumentException.class, () -> Secp256k1KeyPair.fromPrivateKey(new byte[31]));
        assertThrows(
            IllegalArgumentException.class,
            () -> Secp256k1KeyPair.fromPrivateKey(RecoverableSignature.toBytes32(RecoverableSignature.N)));
    }

    @Test
    void hashMustBe32Bytes()
    {
        final byte[] one = new byte[32];
        one[31] = 1;
        final Secp256k1Signer signer = new Secp256k1Signer(Secp256k1KeyPair.fromPrivateKey(one));
        assertThrows(IllegalArgumentException.class, () -> signer.sign(new byte[31]));
    }

    private static byte[] head(final byte[] publicKey)
    {
        final byte[] x = new byte[32];
        System.arraycopy(publicKey, 0, x, 0, 32);
        return x;
    }

    private static byte[] recover(final Secp256k1Recovery recovery, final byte[] hash, final byte[] signature)
    {
        final byte[] address = new byte[20];
        assertEquals(RecoveryStatus.OK, recovery.recover(hash, 0, signature, 0, address, 0));
        return address;
    }
}
