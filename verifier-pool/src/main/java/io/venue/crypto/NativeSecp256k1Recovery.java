package io.venue.crypto;

import fr.acinq.secp256k1.Secp256k1;
import fr.acinq.secp256k1.Secp256k1Exception;

/**
 * Signer recovery through libsecp256k1 (ACINQ's secp256k1-kmp JNI binding), the fast path.
 * <p>
 * The range and high-s rules are checked in Java first: libsecp256k1's recover accepts a high s (it
 * returns the key for the flipped recovery id), so it must not be the one to decide. The binding takes
 * exact-length arrays and returns a fresh 65-byte key (0x04 || x || y), so each call copies its input
 * into scratch buffers and the JNI layer allocates one array; nothing else allocates.
 */
public final class NativeSecp256k1Recovery implements Secp256k1Recovery
{
    public static final String NAME = "native-libsecp256k1";

    private static final int UNCOMPRESSED_LENGTH = 65;
    private static final byte UNCOMPRESSED_PREFIX = 0x04;

    private final Secp256k1 secp256k1;
    private final Keccak256 keccak = new Keccak256();
    private final byte[] compact = new byte[64];
    private final byte[] message = new byte[32];
    private final byte[] keyHash = new byte[Keccak256.DIGEST_LENGTH];

    /**
     * Loads the native library if not yet loaded (it unpacks into {@code java.io.tmpdir}, or
     * {@code -Dfr.acinq.secp256k1.tmpdir}).
     *
     * @throws LinkageError or RuntimeException when the library cannot load on this platform.
     */
    public NativeSecp256k1Recovery()
    {
        secp256k1 = Secp256k1.get();
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public RecoveryStatus recover(
        final byte[] hash,
        final int hashOffset,
        final byte[] signature,
        final int signatureOffset,
        final byte[] addressOut,
        final int addressOffset)
    {
        final RecoveryStatus status = RecoverableSignature.check(signature, signatureOffset);
        if (RecoveryStatus.OK != status)
        {
            return status;
        }

        System.arraycopy(signature, signatureOffset, compact, 0, 64);
        System.arraycopy(hash, hashOffset, message, 0, 32);
        final int recoveryId = RecoverableSignature.recoveryId(
            signature[signatureOffset + RecoverableSignature.V_OFFSET] & 0xFF);

        final byte[] publicKey;
        try
        {
            publicKey = secp256k1.ecdsaRecover(compact, message, recoveryId);
        }
        catch (final Secp256k1Exception ex)
        {
            // The binding reports "no such point" as an exception; it is rare (forged or corrupt input).
            return RecoveryStatus.NO_POINT;
        }
        if (publicKey.length != UNCOMPRESSED_LENGTH || publicKey[0] != UNCOMPRESSED_PREFIX)
        {
            return RecoveryStatus.NO_POINT;
        }

        keccak.hash(publicKey, 1, 64, keyHash, 0);
        System.arraycopy(keyHash, Keccak256.DIGEST_LENGTH - ADDRESS_LENGTH, addressOut, addressOffset, ADDRESS_LENGTH);

        return RecoveryStatus.OK;
    }
}
