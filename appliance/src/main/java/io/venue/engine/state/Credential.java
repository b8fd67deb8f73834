package io.venue.engine.state;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Map value: one credential of a delegated agent, keyed by its credential number (creation order). An agent
 * starts with one credential (its id is the agent id) and gains one per rotation.
 * <pre>
 *   0  signer        20 bytes  the secp256k1 signer address; zero when the credential does not sign (Ed25519)
 *  20  agent         i32       the agent's number in the agent store
 *  24  credentialId  8 bytes   held in a long
 *  32  validUntilMs  i64       Unix ms; Long.MAX_VALUE until a rotation sets the end of its overlap
 *  40  flags         i8        bit 0: signs (has a signer address); bit 1: revoked
 *  41  (padding)     7 bytes
 * </pre>
 * Bound to map memory: writes land in the entry directly.
 */
public final class Credential extends Flyweight
{
    public static final int SIGNER = 0;
    public static final int SIGNER_LENGTH = 20;
    public static final int AGENT = 20;
    public static final int CREDENTIAL_ID = 24;
    public static final int VALID_UNTIL_MS = 32;
    public static final int FLAGS = 40;
    public static final int SIZE = 48;

    public static final byte SIGNS = 1;
    public static final byte REVOKED = 2;

    @Override
    public long maxSize()
    {
        return SIZE;
    }

    public Credential signer(final DirectBuffer src, final int offset)
    {
        putBytes(SIGNER, src, offset, SIGNER_LENGTH);
        return this;
    }

    public Credential clearSigner()
    {
        zero(SIGNER, SIGNER_LENGTH);
        return this;
    }

    public void getSigner(final MutableDirectBuffer dst, final int offset)
    {
        getBytes(SIGNER, dst, offset, SIGNER_LENGTH);
    }

    public int agent()
    {
        return getInt(AGENT);
    }

    public Credential agent(final int agent)
    {
        putInt(AGENT, agent);
        return this;
    }

    public long credentialId()
    {
        return getLong(CREDENTIAL_ID);
    }

    public Credential credentialId(final long credentialId)
    {
        putLong(CREDENTIAL_ID, credentialId);
        return this;
    }

    public long validUntilMs()
    {
        return getLong(VALID_UNTIL_MS);
    }

    public Credential validUntilMs(final long validUntilMs)
    {
        putLong(VALID_UNTIL_MS, validUntilMs);
        return this;
    }

    public byte flags()
    {
        return getByte(FLAGS);
    }

    public Credential flags(final byte flags)
    {
        putByte(FLAGS, flags);
        return this;
    }
}
