package io.venue.crypto;

/**
 * What a signer actually signed, given the 32-byte action hash (spec 5.2). Both modes are accepted;
 * a verifier tries each and accepts if either recovers an authorized signer.
 */
public enum PreimageMode
{
    /** The 32-byte hash itself. */
    RAW,

    /** keccak256("\x19Ethereum Signed Message:\n32" || hash): EIP-191 personal_sign of the hash bytes. */
    PERSONAL;

    /** Writes the 32 bytes that are signed in this mode for the 32-byte {@code hash}. Allocation free. */
    public void signedDigest(
        final Keccak256 keccak, final byte[] hash, final int hashOffset, final byte[] out, final int outOffset)
    {
        if (this == RAW)
        {
            System.arraycopy(hash, hashOffset, out, outOffset, 32);
        }
        else
        {
            Eip191.personalHash32(keccak, hash, hashOffset, out, outOffset);
        }
    }
}
