package io.venue.transport.fix;

import io.venue.crypto.Blake3;
import io.venue.journal.sbe.ActionEnvelopeEncoder;
import io.venue.journal.sbe.AmendEncoder;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.CancelAllEncoder;
import io.venue.journal.sbe.CancelEncoder;
import io.venue.journal.sbe.LimitClass;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.PlaceOrderEncoder;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.SignerMatch;
import io.venue.journal.sbe.StpMode;
import io.venue.journal.sbe.TimeInForce;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The order commands a FIX order-entry session hands to the sequencer (journal version 13, docs/JOURNAL-SCHEMA.md):
 * PlaceOrder, Cancel, Amend and CancelAll with an envelope whose signer match is SESSION_CREDENTIAL and whose
 * {@code rawSigner} names the session's credential (8 bytes, then zeros). Sequence, time and epoch are left zero: the
 * sequencer stamps them. The envelope's {@code nonce} is 0 (the gate applies no nonce step to these), {@code ts} the
 * message's SendingTime, {@code clientOrderId} the message's ClOrdID (1 to 16 characters, NUL-padded) and
 * {@code digest} the id {@link #orderId} derives from the credential, the account and that ClOrdID: a
 * NewOrderSingle's order id, computed here so that the engine never hashes. One per session thread.
 */
final class FixOrderCommands
{
    /** The longest ClOrdID(11) taken: the journal's ClientOrderId holds 16 bytes. */
    static final int MAX_CL_ORD_ID = 16;
    static final int MAX_LENGTH = MessageHeaderEncoder.ENCODED_LENGTH + 512;
    private static final byte[] DOMAIN = "VENUE/FIX/ORDER_ID/v1".getBytes(StandardCharsets.US_ASCII);

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MAX_LENGTH]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final PlaceOrderEncoder place = new PlaceOrderEncoder();
    private final CancelEncoder cancel = new CancelEncoder();
    private final AmendEncoder amend = new AmendEncoder();
    private final CancelAllEncoder cancelAll = new CancelAllEncoder();
    private final Blake3 blake3 = new Blake3();
    private final byte[] clientId = new byte[16];
    private final byte[] digest = new byte[32];
    private final byte[] signer = new byte[20];

    UnsafeBuffer buffer()
    {
        return buffer;
    }

    /**
     * The order id of the credential's ClOrdID: {@code blake3("VENUE/FIX/ORDER_ID/v1" || credentialId (8 bytes,
     * big-endian) || account (20 bytes) || len(ClOrdID) (1 byte) || ClOrdID (US-ASCII))}, into {@code out}. A client
     * can compute it; a cancel or a replace naming the ClOrdID of a NewOrderSingle finds the order by it, across
     * reconnects and restarts.
     */
    void orderId(final long credentialId, final byte[] account, final CharSequence clOrdId, final byte[] out)
    {
        blake3.reset();
        blake3.update(DOMAIN, 0, DOMAIN.length);
        for (int shift = 56; shift >= 0; shift -= 8)
        {
            blake3.update((byte)(credentialId >>> shift));
        }
        blake3.update(account, 0, 20);
        blake3.update((byte)clOrdId.length());
        for (int i = 0; i < clOrdId.length(); i++)
        {
            blake3.update((byte)clOrdId.charAt(i));
        }
        blake3.digest(out, 0);
    }

    /** @return the record's length, at offset 0 of {@link #buffer()}; {@code market} -1: every market. */
    int cancelAll(final long credentialId, final byte[] account, final CharSequence clOrdId, final long ts,
        final long market)
    {
        cancelAll.wrapAndApplyHeader(buffer, 0, header).sequence(0).timestampMs(0).epoch(0);
        envelope(cancelAll.envelope(), credentialId, account, clOrdId, ts);
        cancelAll.market(market < 0 ? 0 : market).allMarkets(market < 0 ? BooleanType.TRUE : BooleanType.FALSE);
        return MessageHeaderEncoder.ENCODED_LENGTH + cancelAll.encodedLength();
    }

    int place(final long credentialId, final byte[] account, final CharSequence clOrdId, final long ts,
        final long market, final int book, final boolean buy, final long price, final long qty, final int stp,
        final int timeInForce, final boolean isMarket, final boolean reduceOnly, final long expiresAtMs)
    {
        place.wrapAndApplyHeader(buffer, 0, header).sequence(0).timestampMs(0).epoch(0);
        envelope(place.envelope(), credentialId, account, clOrdId, ts);
        place.market(market).book(Book.get((short)book)).side(buy ? Side.BID : Side.ASK).price(price).qty(qty)
            .stpMode(StpMode.get((short)stp)).timeInForce(TimeInForce.get((short)timeInForce))
            .isMarket(isMarket ? BooleanType.TRUE : BooleanType.FALSE)
            .reduceOnly(reduceOnly ? BooleanType.TRUE : BooleanType.FALSE)
            .expiresAt(expiresAtMs < 0 ? PlaceOrderEncoder.expiresAtNullValue() : expiresAtMs)
            .limitClass(LimitClass.TRADING);
        return MessageHeaderEncoder.ENCODED_LENGTH + place.encodedLength();
    }

    int cancel(final long credentialId, final byte[] account, final CharSequence clOrdId, final long ts,
        final byte[] orderId)
    {
        cancel.wrapAndApplyHeader(buffer, 0, header).sequence(0).timestampMs(0).epoch(0);
        envelope(cancel.envelope(), credentialId, account, clOrdId, ts);
        cancel.putOrderId(orderId, 0, 32).limitClass(LimitClass.TRADING);
        return MessageHeaderEncoder.ENCODED_LENGTH + cancel.encodedLength();
    }

    /** {@code qty}: the new open quantity (the engine's amend); the caller took the order's fills off FIX's total. */
    int amend(final long credentialId, final byte[] account, final CharSequence clOrdId, final long ts,
        final byte[] orderId, final long price, final long qty)
    {
        amend.wrapAndApplyHeader(buffer, 0, header).sequence(0).timestampMs(0).epoch(0);
        envelope(amend.envelope(), credentialId, account, clOrdId, ts);
        amend.putOrderId(orderId, 0, 32).price(price).qty(qty).limitClass(LimitClass.TRADING);
        return MessageHeaderEncoder.ENCODED_LENGTH + amend.encodedLength();
    }

    private void envelope(final ActionEnvelopeEncoder envelope, final long credentialId, final byte[] account,
        final CharSequence clOrdId, final long ts)
    {
        Arrays.fill(clientId, (byte)0);
        for (int i = 0; i < clOrdId.length(); i++)
        {
            clientId[i] = (byte)clOrdId.charAt(i);
        }
        orderId(credentialId, account, clOrdId, digest);
        Arrays.fill(signer, (byte)0);
        for (int i = 0; i < 8; i++)
        {
            signer[i] = (byte)(credentialId >>> (56 - 8 * i));
        }
        envelope.putAccount(account, 0, 20).nonce(0).ts(ts).hasClientOrderId(BooleanType.TRUE)
            .putClientOrderId(clientId, 0, 16).putDigest(digest, 0, 32).signerMatch(SignerMatch.SESSION_CREDENTIAL)
            .putRawSigner(signer, 0, 20);
        for (int i = 0; i < 20; i++)
        {
            envelope.personalSigner(i, (short)0);
        }
        for (int i = 0; i < 65; i++)
        {
            envelope.signature(i, (short)0);
        }
    }
}
