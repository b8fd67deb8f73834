package io.venue.transport.http;

import io.venue.action.Address;
import io.venue.journal.sbe.ActionEnvelopeEncoder;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.CancelReplaceEncoder;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.SignerMatch;
import io.venue.journal.sbe.TimeInForce;
import io.venue.verifier.CancelReplaceCheck;
import org.agrona.ExpandableArrayBuffer;

import java.util.function.LongFunction;
import io.venue.codec.Hex;

/**
 * Reads the body of POST /api/v1/mm/orders/replace (spec 5.3; the body is ours, the spec does not show it) into the
 * signed fields and the {@code CancelReplace} command:
 * <pre>
 * {"cancel": {"orderId": "0x…64", "signature": "0x…130"},
 *  "place":  {"marketId": 1, "trader": "0x…40", "side": 0, "price": 50000000000, "qty": 10000, "expiry": 0,
 *             "nonce": 7, "signature": "0x…130"},
 *  "timeInForce": "gtc"}
 * </pre>
 * {@code side} is the EIP-712 Order's packed code: 0 Bid and 1 Ask (the YES book of an outcome market), 2 and 3 the
 * NO book's; {@code expiry} is in seconds as signed, 0 for none; {@code timeInForce} (gtc, the default, ioc or
 * post_only) is covered by the request's SVC signature, not by the order's. The command's order id and signer are
 * left for the pool and the sequencer to fill in. Thread safe.
 */
public final class CancelReplaceRequests
{
    /** One request ready for the pool: the signed fields, the two signatures (place then cancel), the command. */
    public record Request(CancelReplaceCheck.Order order, byte[] signatures, byte[] command, String trader)
    {
        /** The market of the new order. */
        public long market()
        {
            return order.market();
        }
    }

    private final LongFunction<String> marketKind;

    /** @param marketKind a market id to SPOT or OUTCOME, null when unlisted. */
    public CancelReplaceRequests(final LongFunction<String> marketKind)
    {
        this.marketKind = marketKind;
    }

    public Request parse(final byte[] body) throws OwnerIntents.BadIntent
    {
        final OwnerIntents.Fields fields = new OwnerIntents.Fields(OwnerIntents.object(body));
        fields.allow("cancel", "place", "timeInForce");
        final OwnerIntents.Fields cancel = fields.object("cancel");
        cancel.allow("orderId", "signature");
        final OwnerIntents.Fields place = fields.object("place");
        place.allow("marketId", "trader", "side", "price", "qty", "expiry", "nonce", "signature");
        final String orderIdText = cancel.string("orderId");
        if (!Routes.DIGEST.matcher(orderIdText).matches())
        {
            throw new OwnerIntents.BadIntent("cancel.orderId", "an order id is 0x and 64 lowercase hex digits");
        }
        final byte[] orderId = Hex.fromHex(orderIdText);
        final Address trader = place.address("trader");
        final long market = place.u64("marketId");
        if (market < 0 || market > 0xFFFF_FFFFL)
        {
            throw new OwnerIntents.BadIntent("place.marketId", "a market id is at most 4294967295");
        }
        final long sideCode = place.u64("side");
        if (sideCode < 0 || sideCode > 3)
        {
            throw new OwnerIntents.BadIntent("place.side", "the packed side code is 0 to 3 (spec 5.3)");
        }
        final long price = place.u64("price");
        final long qty = place.u64("qty");
        final long expiry = place.u64("expiry");
        final long nonce = place.u64("nonce");
        final byte[] signatures = new byte[130];
        System.arraycopy(place.signature("signature"), 0, signatures, 0, 65);
        System.arraycopy(cancel.signature("signature"), 0, signatures, 65, 65);
        final String tif = fields.optionalString("timeInForce");
        final TimeInForce timeInForce = tif == null ? TimeInForce.GTC : switch (tif)
        {
            case "gtc" -> TimeInForce.GTC;
            case "ioc" -> TimeInForce.IOC;
            case "post_only" -> TimeInForce.POST_ONLY;
            default -> throw new OwnerIntents.BadIntent("timeInForce", "gtc, ioc or post_only");
        };
        // codes 0 and 1 are the YES book of an outcome market, and the only book of a spot one
        final Book book = sideCode >= 2 ? Book.NO : "OUTCOME".equals(marketKind.apply(market)) ? Book.YES : Book.NONE;
        final ExpandableArrayBuffer out = new ExpandableArrayBuffer(512);
        final CancelReplaceEncoder e = new CancelReplaceEncoder()
            .wrapAndApplyHeader(out, 0, new MessageHeaderEncoder());
        final ActionEnvelopeEncoder envelope = e.envelope();
        envelope.putAccount(trader.toBytes(), 0, 20).nonce(nonce).ts(0).hasClientOrderId(BooleanType.FALSE)
            .signerMatch(SignerMatch.OTHER).putSignature(signatures, 0, 65);
        e.putCancelOrderId(orderId, 0, 32).putCancelSignature(signatures, 65, 65).market(market).book(book)
            .side((sideCode & 1) == 0 ? Side.BID : Side.ASK).price(price).qty(qty).timeInForce(timeInForce)
            .expiry(expiry);
        final byte[] command = new byte[MessageHeaderEncoder.ENCODED_LENGTH + e.encodedLength()];
        out.getBytes(0, command);
        return new Request(
            new CancelReplaceCheck.Order(trader.toBytes(), market, (int)sideCode, price, qty, expiry, nonce, orderId),
            signatures, command, trader.toString());
    }
}
