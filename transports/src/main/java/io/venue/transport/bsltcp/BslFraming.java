package io.venue.transport.bsltcp;

/**
 * The BSL TCP lane's framing (docs/BSL-TCP.md): each message is preceded by its length, a 4-byte little-endian
 * unsigned integer that counts the message's bytes only (not its own four). A message is one SBE message of the session
 * schema ({@code venue-bsl-session.xml}): at least its 8-byte header, at most the lane's maximum frame bytes.
 */
public final class BslFraming
{
    /** The length prefix: 4 bytes, little-endian, unsigned. */
    public static final int LENGTH_FIELD_BYTES = 4;
    /** The smallest message: the SBE message header (blockLength, templateId, schemaId, version; u16 each). */
    public static final int MIN_MESSAGE_BYTES = 8;
    /** The default largest message: 1,000 compact orders and the session's own fields fit, with room. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024;

    private BslFraming()
    {
    }
}
