package io.venue.journal;

import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.LimitClass;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.PlaceOrderDecoder;
import io.venue.journal.sbe.PlaceOrderEncoder;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.SignerMatch;
import io.venue.journal.sbe.StpMode;
import io.venue.journal.sbe.TimeInForce;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The example of docs/JOURNAL-SCHEMA.md: what the sequencer writes and the engine reads, by hand.
 */
class CommandExampleTest
{
    @Test
    void sequencerWritesAndEngineReadsAPlaceOrder()
    {
        final byte[] account = new byte[20];
        final byte[] digest = new byte[32];
        account[19] = 0x42;
        digest[0] = 0x11;

        // Sequencer: header, the three common fields, the envelope, then the action's fields.
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
        final PlaceOrderEncoder place = new PlaceOrderEncoder()
            .wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder())
            .sequence(1001).timestampMs(1_763_000_000_123L).epoch(1);
        place.envelope().putAccount(account, 0, 20).nonce(5).ts(1_763_000_000_000L)
            .hasClientOrderId(BooleanType.FALSE).putDigest(digest, 0, 32).signerMatch(SignerMatch.ACCOUNT_RAW);
        place.market(7).book(Book.NONE).side(Side.BID).price(1_500_000).qty(2_000_000)
            .stpMode(StpMode.NONE).timeInForce(TimeInForce.GTC)
            .isMarket(BooleanType.FALSE).reduceOnly(BooleanType.FALSE).expiresAt(PlaceOrderEncoder.expiresAtNullValue())
            .limitClass(LimitClass.TRADING);
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + place.encodedLength();

        // Engine: check and dispatch on the header, then decode.
        final JournalRecords records = new JournalRecords();
        assertSame(RecordType.PLACE_ORDER, records.typeOf(buffer, 0, length));
        final PlaceOrderDecoder order = new PlaceOrderDecoder()
            .wrap(buffer, records.bodyOffset(), records.blockLength(), records.version());
        assertEquals(1001, order.sequence());
        assertEquals(1_763_000_000_123L, order.timestampMs());
        assertEquals(5, order.envelope().nonce());
        assertEquals(SignerMatch.ACCOUNT_RAW, order.envelope().signerMatch());
        assertEquals(Side.BID, order.side());
        assertEquals(2_000_000, order.qty());
        assertEquals(PlaceOrderDecoder.expiresAtNullValue(), order.expiresAt());
        assertSame(LimitClass.TRADING, order.limitClass());
        final byte[] orderId = new byte[32];
        order.envelope().getDigest(orderId, 0, 32);
        assertEquals(0x11, orderId[0]);
    }
}
