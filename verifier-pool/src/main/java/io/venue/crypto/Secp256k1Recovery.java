package io.venue.crypto;

/**
 * Recovers the Ethereum address that signed a 32-byte hash.
 * <p>
 * The signature is 65 bytes, r (32, big-endian) then s (32, big-endian) then v (1). The rules are those
 * of {@link RecoverableSignature#check(byte[], int)}: v in {0, 1, 27, 28}, r and s in [1, n-1], and s at
 * most n/2. The address is the last 20 bytes of keccak256 of the 64-byte public key x || y.
 * <p>
 * Implementations hold scratch buffers and are not thread safe: one instance per verifier thread.
 */
public interface Secp256k1Recovery
{
    int ADDRESS_LENGTH = 20;

    /** Which implementation this is, for logs and metrics. */
    String name();

    /**
     * Recovers the signer of {@code hash} (32 bytes at {@code hashOffset}).
     *
     * @return {@link RecoveryStatus#OK} after writing 20 bytes to {@code addressOut} at
     * {@code addressOffset}; otherwise the reason, with {@code addressOut} untouched. Never throws for
     * any signature bytes.
     */
    RecoveryStatus recover(
        byte[] hash, int hashOffset, byte[] signature, int signatureOffset, byte[] addressOut, int addressOffset);
}
