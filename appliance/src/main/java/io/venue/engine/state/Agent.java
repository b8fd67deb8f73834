package io.venue.engine.state;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Map value: a delegated agent, keyed by its agent number (creation order). Its signing keys are the
 * {@link Credential} records that name this number.
 * <pre>
 *   0  owner             20 bytes  the account the agent trades for
 *  20  scopes            i8        bitmask of granted scopes
 *  21  kind              i8        agent kind code
 *  22  state             i8        lifecycle state code (active, rotating, revoked, ...)
 *  23  (padding)         1 byte
 *  24  agentId           8 bytes   held in a long
 *  32  expiresAtMs       i64       Unix ms
 *  40  validUntilMs      i64       Unix ms; end of the overlap while a rotated-out key still works
 *  48  ed25519PublicKey  32 bytes  zero for secp256k1 agents
 * </pre>
 * The engine fills owner, scopes, state ({@code AgentState} codes: 0 active, 2 revoked), agentId and
 * expiresAtMs; it does not keep kind, validUntilMs (credentials carry their own) or the Ed25519 key, so
 * those stay zero. Bound to map memory: writes land in the entry directly.
 */
public final class Agent extends Flyweight
{
    public static final int OWNER = 0;
    public static final int OWNER_LENGTH = 20;
    public static final int SCOPES = 20;
    public static final int KIND = 21;
    public static final int STATE = 22;
    public static final int AGENT_ID = 24;
    public static final int EXPIRES_AT_MS = 32;
    public static final int VALID_UNTIL_MS = 40;
    public static final int ED25519_PUBLIC_KEY = 48;
    public static final int ED25519_PUBLIC_KEY_LENGTH = 32;
    public static final int SIZE = 80;

    @Override
    public long maxSize()
    {
        return SIZE;
    }

    public Agent owner(final DirectBuffer src, final int offset)
    {
        putBytes(OWNER, src, offset, OWNER_LENGTH);
        return this;
    }

    public Agent owner(final byte[] src)
    {
        putBytes(OWNER, src, 0, OWNER_LENGTH);
        return this;
    }

    public void getOwner(final MutableDirectBuffer dst, final int offset)
    {
        getBytes(OWNER, dst, offset, OWNER_LENGTH);
    }

    public void getOwner(final byte[] dst, final int offset)
    {
        getBytes(OWNER, dst, offset, OWNER_LENGTH);
    }

    public boolean ownerEquals(final DirectBuffer other, final int offset)
    {
        return bytesEqual(OWNER, other, offset, OWNER_LENGTH);
    }

    public byte scopes()
    {
        return getByte(SCOPES);
    }

    public Agent scopes(final byte scopes)
    {
        putByte(SCOPES, scopes);
        return this;
    }

    public byte kind()
    {
        return getByte(KIND);
    }

    public Agent kind(final byte kind)
    {
        putByte(KIND, kind);
        return this;
    }

    public byte state()
    {
        return getByte(STATE);
    }

    public Agent state(final byte state)
    {
        putByte(STATE, state);
        return this;
    }

    public long agentId()
    {
        return getLong(AGENT_ID);
    }

    public Agent agentId(final long agentId)
    {
        putLong(AGENT_ID, agentId);
        return this;
    }

    public long expiresAtMs()
    {
        return getLong(EXPIRES_AT_MS);
    }

    public Agent expiresAtMs(final long expiresAtMs)
    {
        putLong(EXPIRES_AT_MS, expiresAtMs);
        return this;
    }

    public long validUntilMs()
    {
        return getLong(VALID_UNTIL_MS);
    }

    public Agent validUntilMs(final long validUntilMs)
    {
        putLong(VALID_UNTIL_MS, validUntilMs);
        return this;
    }

    public Agent ed25519PublicKey(final DirectBuffer src, final int offset)
    {
        putBytes(ED25519_PUBLIC_KEY, src, offset, ED25519_PUBLIC_KEY_LENGTH);
        return this;
    }

    public Agent ed25519PublicKey(final byte[] src)
    {
        putBytes(ED25519_PUBLIC_KEY, src, 0, ED25519_PUBLIC_KEY_LENGTH);
        return this;
    }

    public Agent clearEd25519PublicKey()
    {
        zero(ED25519_PUBLIC_KEY, ED25519_PUBLIC_KEY_LENGTH);
        return this;
    }

    public void getEd25519PublicKey(final MutableDirectBuffer dst, final int offset)
    {
        getBytes(ED25519_PUBLIC_KEY, dst, offset, ED25519_PUBLIC_KEY_LENGTH);
    }

    public void getEd25519PublicKey(final byte[] dst, final int offset)
    {
        getBytes(ED25519_PUBLIC_KEY, dst, offset, ED25519_PUBLIC_KEY_LENGTH);
    }
}
