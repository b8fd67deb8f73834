package io.venue.crypto;

import io.venue.action.Address;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

import java.math.BigInteger;
import java.security.SecureRandom;

/**
 * A secp256k1 private key with its public key and Ethereum address. For tools and tests.
 */
public final class Secp256k1KeyPair
{
    public static final int PRIVATE_KEY_LENGTH = 32;
    public static final int PUBLIC_KEY_LENGTH = 64;

    private final BigInteger privateKey;
    private final ECPoint publicPoint;
    private final byte[] publicKey = new byte[PUBLIC_KEY_LENGTH];
    private final Address address;

    private Secp256k1KeyPair(final BigInteger privateKey)
    {
        this.privateKey = privateKey;
        this.publicPoint = new FixedPointCombMultiplier().multiply(Secp256k1Curve.G, privateKey).normalize();
        Secp256k1Curve.encodeXY(publicPoint, publicKey, 0);
        this.address = addressOf(publicKey, 0);
    }

    /** A fresh key, uniform in [1, n-1]. */
    public static Secp256k1KeyPair generate(final SecureRandom random)
    {
        final byte[] candidate = new byte[PRIVATE_KEY_LENGTH];
        while (true)
        {
            random.nextBytes(candidate);
            final BigInteger d = new BigInteger(1, candidate);
            if (d.signum() > 0 && d.compareTo(Secp256k1Curve.N) < 0)
            {
                return new Secp256k1KeyPair(d);
            }
        }
    }

    /**
     * @param privateKey 32 bytes big-endian, in [1, n-1].
     * @throws IllegalArgumentException otherwise.
     */
    public static Secp256k1KeyPair fromPrivateKey(final byte[] privateKey)
    {
        if (privateKey.length != PRIVATE_KEY_LENGTH)
        {
            throw new IllegalArgumentException("private key must be 32 bytes, got " + privateKey.length);
        }
        final BigInteger d = new BigInteger(1, privateKey);
        if (d.signum() == 0 || d.compareTo(Secp256k1Curve.N) >= 0)
        {
            throw new IllegalArgumentException("private key must be in [1, n-1]");
        }
        return new Secp256k1KeyPair(d);
    }

    /** The Ethereum address of a 64-byte public key x || y: the last 20 bytes of its keccak256. */
    public static Address addressOf(final byte[] publicKey, final int offset)
    {
        final byte[] hash = new byte[Keccak256.DIGEST_LENGTH];
        new Keccak256().hash(publicKey, offset, PUBLIC_KEY_LENGTH, hash, 0);
        final byte[] address = new byte[Address.LENGTH];
        System.arraycopy(hash, Keccak256.DIGEST_LENGTH - Address.LENGTH, address, 0, Address.LENGTH);
        return new Address(address);
    }

    /** A copy of the 32-byte private key. */
    public byte[] privateKey()
    {
        return RecoverableSignature.toBytes32(privateKey);
    }

    /** A copy of the 64-byte public key x || y (uncompressed, without the 0x04 prefix). */
    public byte[] publicKey()
    {
        return publicKey.clone();
    }

    public Address address()
    {
        return address;
    }

    BigInteger privateKeyValue()
    {
        return privateKey;
    }

    ECPoint publicPoint()
    {
        return publicPoint;
    }

    @Override
    public String toString()
    {
        // Never print the private key.
        return "Secp256k1KeyPair{address=" + address + "}";
    }
}
