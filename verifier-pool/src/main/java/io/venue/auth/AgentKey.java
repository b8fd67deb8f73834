package io.venue.auth;

import io.venue.action.Address;
import io.venue.codec.Hex;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

import java.util.Arrays;

/**
 * The public key of a delegated agent as it appears in owner-intent texts: a secp256k1 agent is named by
 * its 20-byte address ({@code 0x...}), an Ed25519 agent by its 32-byte public key
 * ({@code ed25519:<64 hex>}) because the server stores only that key (spec 5.4).
 */
public final class AgentKey
{
    public static final String ED25519_PREFIX = "ed25519:";
    public static final int ED25519_KEY_LENGTH = 32;

    private final boolean ed25519;
    private final byte[] bytes;
    private final String text;

    private AgentKey(final boolean ed25519, final byte[] bytes, final String text)
    {
        this.ed25519 = ed25519;
        this.bytes = bytes;
        this.text = text;
    }

    public static AgentKey secp256k1(final Address address)
    {
        if (address == null)
        {
            throw new IllegalArgumentException("agent address is required");
        }
        return new AgentKey(false, address.toBytes(), address.toString());
    }

    /**
     * @throws IllegalArgumentException unless {@code publicKey} is 32 bytes encoding a point on the curve.
     */
    public static AgentKey ed25519(final byte[] publicKey)
    {
        if (publicKey == null || publicKey.length != ED25519_KEY_LENGTH)
        {
            throw new IllegalArgumentException("an Ed25519 agent key must be 32 bytes");
        }
        // Reject a key that can never verify now, rather than at the agent's first request.
        new Ed25519PublicKeyParameters(publicKey);
        final byte[] copy = publicKey.clone();
        return new AgentKey(true, copy, ED25519_PREFIX + Hex.toHex(copy));
    }

    public boolean isEd25519()
    {
        return ed25519;
    }

    /** A copy of the 20 address bytes or the 32 Ed25519 key bytes. */
    public byte[] toBytes()
    {
        return bytes.clone();
    }

    /** The value written after {@code agent:} or {@code new_agent:}. */
    public String text()
    {
        return text;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof AgentKey && ((AgentKey)other).ed25519 == ed25519 &&
            Arrays.equals(((AgentKey)other).bytes, bytes);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(bytes) * 31 + (ed25519 ? 1 : 0);
    }

    @Override
    public String toString()
    {
        return text;
    }
}
