package io.venue.entry.protect;

import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.CancelOnDisconnectArmEncoder;
import io.venue.journal.sbe.DeadManArmEncoder;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.ProtectionTickEncoder;
import io.venue.journal.sbe.SessionClosedEncoder;
import io.venue.journal.sbe.SessionKind;
import io.venue.journal.sbe.SessionOpenedEncoder;
import io.venue.journal.sbe.SessionsResetEncoder;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Writes the protection commands of the journal schema (version 12, templates 70 to 75) with their sequence, time and
 * epoch left zero: the sequencer stamps them, as it stamps a verifier's command. One instance per writing thread.
 */
public final class ProtectionCommands
{
    /** A market argument that means every market. */
    public static final long ALL_MARKETS = -1L;
    /** The longest record written here (SessionOpened). */
    public static final int MAX_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH + SessionOpenedEncoder.BLOCK_LENGTH;

    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final SessionOpenedEncoder opened = new SessionOpenedEncoder();
    private final SessionClosedEncoder closed = new SessionClosedEncoder();
    private final DeadManArmEncoder deadMan = new DeadManArmEncoder();
    private final CancelOnDisconnectArmEncoder cancelOnDisconnect = new CancelOnDisconnectArmEncoder();
    private final ProtectionTickEncoder tick = new ProtectionTickEncoder();
    private final SessionsResetEncoder reset = new SessionsResetEncoder();

    /** @return the record's length. */
    public int sessionOpened(final MutableDirectBuffer buffer, final int offset, final long sessionId,
        final byte[] account, final long credentialId, final boolean wallet, final boolean cancelOnDisconnect,
        final long graceMs)
    {
        opened.wrapAndApplyHeader(buffer, offset, header).sequence(0).timestampMs(0).epoch(0).sessionId(sessionId)
            .putAccount(account, 0, 20);
        buffer.putLong(opened.offset() + SessionOpenedEncoder.credentialIdEncodingOffset(), credentialId,
            ByteOrder.BIG_ENDIAN);
        opened.kind(wallet ? SessionKind.WALLET : SessionKind.SESSION_KEY)
            .cancelOnDisconnect(cancelOnDisconnect ? BooleanType.TRUE : BooleanType.FALSE).graceMs(graceMs);
        return MessageHeaderEncoder.ENCODED_LENGTH + opened.encodedLength();
    }

    public int sessionClosed(final MutableDirectBuffer buffer, final int offset, final long sessionId)
    {
        closed.wrapAndApplyHeader(buffer, offset, header).sequence(0).timestampMs(0).epoch(0).sessionId(sessionId);
        return MessageHeaderEncoder.ENCODED_LENGTH + closed.encodedLength();
    }

    /** @param market a market id, or {@link #ALL_MARKETS}; {@code countdownMs} 0 disarms. */
    public int deadManArm(final MutableDirectBuffer buffer, final int offset, final byte[] account, final long market,
        final long countdownMs)
    {
        deadMan.wrapAndApplyHeader(buffer, offset, header).sequence(0).timestampMs(0).epoch(0)
            .putAccount(account, 0, 20)
            .market(market < 0 ? 0 : market).allMarkets(market < 0 ? BooleanType.TRUE : BooleanType.FALSE)
            .countdownMs(countdownMs);
        return MessageHeaderEncoder.ENCODED_LENGTH + deadMan.encodedLength();
    }

    public int cancelOnDisconnectArm(final MutableDirectBuffer buffer, final int offset, final byte[] account,
        final long market, final boolean armed, final long graceMs)
    {
        cancelOnDisconnect.wrapAndApplyHeader(buffer, offset, header).sequence(0).timestampMs(0).epoch(0)
            .putAccount(account, 0, 20).market(market < 0 ? 0 : market)
            .allMarkets(market < 0 ? BooleanType.TRUE : BooleanType.FALSE)
            .armed(armed ? BooleanType.TRUE : BooleanType.FALSE).graceMs(graceMs);
        return MessageHeaderEncoder.ENCODED_LENGTH + cancelOnDisconnect.encodedLength();
    }

    public int tick(final MutableDirectBuffer buffer, final int offset)
    {
        tick.wrapAndApplyHeader(buffer, offset, header).sequence(0).timestampMs(0).epoch(0);
        return MessageHeaderEncoder.ENCODED_LENGTH + tick.encodedLength();
    }

    public int sessionsReset(final MutableDirectBuffer buffer, final int offset)
    {
        reset.wrapAndApplyHeader(buffer, offset, header).sequence(0).timestampMs(0).epoch(0);
        return MessageHeaderEncoder.ENCODED_LENGTH + reset.encodedLength();
    }
}
