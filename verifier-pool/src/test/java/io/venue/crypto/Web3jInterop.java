package io.venue.crypto;

import io.venue.codec.Hex;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;

import java.math.BigInteger;
import java.security.SignatureException;
import java.util.Arrays;

/**
 * Conversions between our byte layouts and web3j's types, so tests can use web3j as the independent side.
 */
final class Web3jInterop
{
    private Web3jInterop()
    {
    }

    static byte[] toBytes(final Sign.SignatureData signature)
    {
        final byte[] out = new byte[65];
        System.arraycopy(signature.getR(), 0, out, 0, 32);
        System.arraycopy(signature.getS(), 0, out, 32, 32);
        out[64] = signature.getV()[0];
        return out;
    }

    static Sign.SignatureData toSignatureData(final byte[] signature)
    {
        return new Sign.SignatureData(
            signature[64], Arrays.copyOfRange(signature, 0, 32), Arrays.copyOfRange(signature, 32, 64));
    }

    static byte[] address(final ECKeyPair keyPair)
    {
        return Hex.fromHex(Keys.getAddress(keyPair));
    }

    /** The address web3j recovers for a signature over a 32-byte hash, signed as is. */
    static byte[] recoverFromHash(final byte[] hash, final byte[] signature) throws SignatureException
    {
        final BigInteger publicKey = Sign.signedMessageHashToKey(hash, toSignatureData(signature));
        return Hex.fromHex(Keys.getAddress(publicKey));
    }

    /** A valid private key from 32 arbitrary bytes (reduced into [1, n-1]). */
    static byte[] privateKey(final byte[] seed)
    {
        final BigInteger d = new BigInteger(1, seed).mod(RecoverableSignature.N.subtract(BigInteger.ONE))
            .add(BigInteger.ONE);
        return RecoverableSignature.toBytes32(d);
    }
}
