package io.venue.auth;

import io.venue.codec.Hex;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;
import org.bouncycastle.math.ec.rfc7748.X25519;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * A new HMAC credential's secret and passphrase sealed to the requester's X25519 delivery key, which the owner signed
 * in the create or rotate text ({@code delivery_key}, MESSAGE-TEXTS.md): whoever submits the signed body, only the
 * holder of that key's private half reads the secret. The sealed bytes are the venue's ephemeral X25519 public key
 * (32), a random AES-GCM nonce (12), then AES-256-GCM of {@code apiSecret + "\n" + apiPassphrase} (ASCII) with the
 * API key id (ASCII) as associated data, tag (16) last. The AES key is HKDF-SHA256 of the X25519 shared secret, salt
 * the venue's ephemeral public key then the delivery key, info {@value #INFO}, 32 bytes.
 */
public final class CredentialDelivery
{
    /** The delivery key's text: this prefix, then the 32-byte public key as 64 lowercase hex digits. */
    public static final String KEY_PREFIX = "x25519:";
    public static final String INFO = "venue credential delivery v1";
    public static final int KEY_LENGTH = X25519.POINT_SIZE;
    public static final int NONCE_LENGTH = 12;
    public static final int TAG_LENGTH = 16;

    private static final Pattern KEY_TEXT = Pattern.compile(Pattern.quote(KEY_PREFIX) + "[0-9a-f]{64}");

    /** A delivered credential, opened. */
    public record Opened(String apiSecret, String apiPassphrase)
    {
        /** Never the secret: a log line must not leak it. */
        @Override
        public String toString()
        {
            return "Opened[credential]";
        }
    }

    private CredentialDelivery()
    {
    }

    /** Whether {@code text} is a delivery key's spelling ({@link #KEY_PREFIX} and 64 lowercase hex digits). */
    public static boolean isKeyText(final String text)
    {
        return text != null && KEY_TEXT.matcher(text).matches();
    }

    /**
     * Seals a credential to {@code deliveryKey} (its text).
     *
     * @throws IllegalArgumentException when the key is not one (a low-order point gives no shared secret).
     */
    public static byte[] seal(final String deliveryKey, final String apiKeyId, final String apiSecret,
        final String apiPassphrase, final SecureRandom random)
    {
        final byte[] requester = publicKey(deliveryKey);
        final byte[] ephemeral = new byte[X25519.SCALAR_SIZE];
        X25519.generatePrivateKey(random, ephemeral);
        final byte[] ephemeralPublic = new byte[KEY_LENGTH];
        X25519.generatePublicKey(ephemeral, 0, ephemeralPublic, 0);
        final byte[] aesKey = aesKey(ephemeral, requester, ephemeralPublic, requester);
        final byte[] nonce = new byte[NONCE_LENGTH];
        random.nextBytes(nonce);
        final byte[] sealed = gcm(Cipher.ENCRYPT_MODE, aesKey, nonce, apiKeyId,
            (apiSecret + "\n" + apiPassphrase).getBytes(StandardCharsets.US_ASCII));
        final byte[] out = new byte[KEY_LENGTH + NONCE_LENGTH + sealed.length];
        System.arraycopy(ephemeralPublic, 0, out, 0, KEY_LENGTH);
        System.arraycopy(nonce, 0, out, KEY_LENGTH, NONCE_LENGTH);
        System.arraycopy(sealed, 0, out, KEY_LENGTH + NONCE_LENGTH, sealed.length);
        return out;
    }

    /**
     * Why {@code deliveryKey} does not suit {@code agent}, or null: a secp256k1 agent's HMAC secret is sealed to it,
     * so it is required there; an Ed25519 agent gets no secret, so it has none.
     */
    public static String problem(final AgentKey agent, final String deliveryKey)
    {
        if (agent.isEd25519())
        {
            return deliveryKey == null ? null :
                "delivery_key is only for a secp256k1 agent: an Ed25519 agent gets no secret to deliver";
        }
        if (deliveryKey == null)
        {
            return "delivery_key is required for a secp256k1 agent: its HMAC secret is sealed to it";
        }
        try
        {
            publicKey(deliveryKey);
            return null;
        }
        catch (final IllegalArgumentException ex)
        {
            return "delivery_key: " + ex.getMessage();
        }
    }

    /** The 32-byte public key of a delivery key's text; refuses one that cannot give a shared secret. */
    public static byte[] publicKey(final String deliveryKey)
    {
        if (!isKeyText(deliveryKey))
        {
            throw new IllegalArgumentException("a delivery key is " + KEY_PREFIX + " and 64 lowercase hex digits");
        }
        final byte[] key = Hex.fromHex("0x" + deliveryKey.substring(KEY_PREFIX.length()));
        final byte[] probe = new byte[X25519.SCALAR_SIZE];
        probe[0] = 8;
        final byte[] shared = new byte[KEY_LENGTH];
        if (!X25519.calculateAgreement(probe, 0, key, 0, shared, 0))
        {
            throw new IllegalArgumentException("the delivery key is a low-order X25519 point");
        }
        return key;
    }

    /** The requester's side: a key pair made for one request, and the opening of its answer. */
    public static final class Requester
    {
        private final byte[] privateKey = new byte[X25519.SCALAR_SIZE];
        private final byte[] publicKey = new byte[KEY_LENGTH];

        public Requester(final SecureRandom random)
        {
            X25519.generatePrivateKey(random, privateKey);
            X25519.generatePublicKey(privateKey, 0, publicKey, 0);
        }

        /** The requester of a key kept from before (the CLI's {@code --delivery-key-file}): its 32 private bytes. */
        public Requester(final byte[] privateKey)
        {
            if (privateKey.length != X25519.SCALAR_SIZE)
            {
                throw new IllegalArgumentException("an X25519 private key is " + X25519.SCALAR_SIZE + " bytes");
            }
            System.arraycopy(privateKey, 0, this.privateKey, 0, X25519.SCALAR_SIZE);
            X25519.generatePublicKey(this.privateKey, 0, publicKey, 0);
        }

        /** The 32 private bytes, for a file readable by its owner only. */
        public byte[] privateKey()
        {
            return privateKey.clone();
        }

        /** What the owner signs ({@code delivery_key}) and the body carries ({@code deliveryKey}). */
        public String keyText()
        {
            return KEY_PREFIX + Hex.toHex(publicKey);
        }

        /**
         * Opens the answer's {@code sealedCredential} (0x hex) for {@code apiKeyId}.
         *
         * @throws IllegalArgumentException when it was not sealed to this key for this id, or was changed.
         */
        public Opened open(final String sealedHex, final String apiKeyId)
        {
            final byte[] sealed = Hex.fromHex(sealedHex);
            if (sealed.length < KEY_LENGTH + NONCE_LENGTH + TAG_LENGTH)
            {
                throw new IllegalArgumentException("a sealed credential is at least " +
                    (KEY_LENGTH + NONCE_LENGTH + TAG_LENGTH) + " bytes");
            }
            final byte[] ephemeralPublic = Arrays.copyOf(sealed, KEY_LENGTH);
            final byte[] aesKey = aesKey(privateKey, ephemeralPublic, ephemeralPublic, publicKey);
            final byte[] plain = gcm(Cipher.DECRYPT_MODE, aesKey,
                Arrays.copyOfRange(sealed, KEY_LENGTH, KEY_LENGTH + NONCE_LENGTH), apiKeyId,
                Arrays.copyOfRange(sealed, KEY_LENGTH + NONCE_LENGTH, sealed.length));
            final String text = new String(plain, StandardCharsets.US_ASCII);
            final int newline = text.indexOf('\n');
            if (newline < 0)
            {
                throw new IllegalArgumentException("the sealed credential holds no secret and passphrase");
            }
            return new Opened(text.substring(0, newline), text.substring(newline + 1));
        }
    }

    private static byte[] aesKey(final byte[] privateKey, final byte[] peer, final byte[] venueEphemeral,
        final byte[] requester)
    {
        final byte[] shared = new byte[KEY_LENGTH];
        if (!X25519.calculateAgreement(privateKey, 0, peer, 0, shared, 0))
        {
            throw new IllegalArgumentException("the X25519 key is a low-order point");
        }
        final byte[] salt = new byte[2 * KEY_LENGTH];
        System.arraycopy(venueEphemeral, 0, salt, 0, KEY_LENGTH);
        System.arraycopy(requester, 0, salt, KEY_LENGTH, KEY_LENGTH);
        final HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SHA256Digest());
        hkdf.init(new HKDFParameters(shared, salt, INFO.getBytes(StandardCharsets.US_ASCII)));
        final byte[] key = new byte[32];
        hkdf.generateBytes(key, 0, key.length);
        return key;
    }

    private static byte[] gcm(final int mode, final byte[] key, final byte[] nonce, final String apiKeyId,
        final byte[] input)
    {
        try
        {
            final Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(mode, new SecretKeySpec(key, "AES"), new GCMParameterSpec(8 * TAG_LENGTH, nonce));
            cipher.updateAAD(apiKeyId.getBytes(StandardCharsets.US_ASCII));
            return cipher.doFinal(input);
        }
        catch (final GeneralSecurityException ex)
        {
            if (mode == Cipher.DECRYPT_MODE)
            {
                throw new IllegalArgumentException("the sealed credential does not open with this key for " +
                    apiKeyId, ex);
            }
            throw new IllegalStateException("AES-GCM is part of every JDK", ex);
        }
    }
}
