package io.venue.responder;

import io.venue.codec.Hex;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.OrderAcceptedEncoder;
import io.venue.journal.sbe.OrderAmendedEncoder;
import io.venue.journal.sbe.OrderDoneEncoder;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.OrderRestedEncoder;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.TradeEncoder;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The order status read model on the events of an order an amend took out and entered again (same id): what it filled
 * before stays filled, whether the re-entry's {@code OrderAccepted} states it in its size (as the engine writes it for
 * an amend of journal version 6) or gives only the new quantity (as it writes it for an amend of version 4 or 5, and as
 * their builds did), also across a later amend that keeps the order's place, whose {@code OrderAmended} states the size
 * the book holds.
 */
class OrderStatusesTest
{
    private static final byte[] ORDER = filled(0x0d, 32);
    private static final byte[] OTHER = filled(0x0e, 32);
    private static final byte[] ACCOUNT = filled(0x11, 20);

    private final OrderStatuses statuses = new OrderStatuses(16);
    private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(256);
    private final MessageHeaderEncoder headerOut = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerIn = new MessageHeaderDecoder();
    private long sequence;

    @ParameterizedTest(name = "sizeInTheEvent={0}")
    @ValueSource(booleans = {true, false})
    void anOrderEnteredAgainKeepsWhatItFilled(final boolean sizeInTheEvent)
    {
        accepted(10, 10);
        rested(10, 10);
        makerTrade(2, 8);
        assertStatus(10, 8, "resting");

        // the amend: 5 more, entering again; then 4 filled as a taker and 1 as a maker
        accepted(sizeInTheEvent ? 7 : 5, 5);
        assertStatus(7, 5, "accepted");
        takerTrade(4);
        rested(sizeInTheEvent ? 7 : 5, 1);
        assertStatus(7, 1, "resting");
        makerTrade(1, 0);
        done(OrderDoneReason.FILLED, 0);
        assertStatus(7, 0, "filled");
    }

    @ParameterizedTest(name = "sizeInTheEvent={0}")
    @ValueSource(booleans = {true, false})
    void anOrderEnteredAgainThenAmendedInPlaceKeepsWhatItFilled(final boolean sizeInTheEvent)
    {
        accepted(10, 10);
        rested(10, 10);
        makerTrade(2, 8);

        // the amend: 5 at a new price, entering again, then 1 filled; then an amend down to 3 that keeps its place,
        // whose OrderAmended states the book's size: 7 less 1 when the re-entry kept the 2 (version 6), else 5 less 1
        accepted(sizeInTheEvent ? 7 : 5, 5);
        rested(sizeInTheEvent ? 7 : 5, 5);
        makerTrade(1, 4);
        assertStatus(7, 4, "resting");
        amended(sizeInTheEvent ? 6 : 4, 3);
        assertStatus(6, 3, "resting");
        makerTrade(3, 0);
        done(OrderDoneReason.FILLED, 0);
        assertStatus(6, 0, "filled");
    }

    /** A reader on another thread sees each event's state whole while the responder changes the order in place. */
    @Test
    void aReaderSeesOneEventsStateWhole() throws Exception
    {
        final long size = 1_000_000;
        accepted(size, size);
        rested(size, size);
        final long base = sequence;
        final AtomicReference<String> torn = new AtomicReference<>();
        final Thread reader = new Thread(() ->
        {
            final Pattern fields = Pattern.compile("\"remaining\":(\\d+).*\"asOfSequence\":(\\d+)");
            while (torn.get() == null && !Thread.currentThread().isInterrupted())
            {
                // every trade k (sequence base + k) leaves size - k
                final String json = statuses.json(Hex.to0x(ORDER));
                final Matcher m = fields.matcher(json);
                if (!m.find() || Long.parseLong(m.group(1)) + Long.parseLong(m.group(2)) - base != size)
                {
                    torn.set(json);
                }
            }
        });
        reader.start();
        for (long k = 1; k < 300_000 && torn.get() == null; k++)
        {
            makerTrade(1, size - k);
        }
        reader.interrupt();
        reader.join();
        assertNull(torn.get());
        assertEquals(1, statuses.marketOf(Hex.to0x(ORDER)));
        assertEquals(-1, statuses.marketOf(Hex.to0x(OTHER)));
        assertNull(statuses.json("0x" + "zz".repeat(32)));
    }

    private void amended(final long qty, final long remaining)
    {
        final OrderAmendedEncoder event = new OrderAmendedEncoder().wrapAndApplyHeader(buffer, 0, headerOut)
            .sequence(++sequence).eventIndex(1).putOrderId(ORDER, 0, 32).putAccount(ACCOUNT, 0, 20).market(1).price(100)
            .qty(qty).remaining(remaining).priorityKept(BooleanType.TRUE);
        apply(event.encodedLength());
    }

    private void assertStatus(final long qty, final long remaining, final String status)
    {
        final String json = statuses.json(Hex.to0x(ORDER));
        assertTrue(json.contains("\"qty\":" + qty + ",\"remaining\":" + remaining + ",\"filled\":" + (qty - remaining) +
            ",\"status\":\"" + status + "\""), json);
    }

    private void accepted(final long qty, final long remaining)
    {
        final OrderAcceptedEncoder event = new OrderAcceptedEncoder().wrapAndApplyHeader(buffer, 0, headerOut)
            .sequence(++sequence).eventIndex(0).putOrderId(ORDER, 0, 32).putAccount(ACCOUNT, 0, 20).market(1)
            .book(Book.NONE) .side(Side.BID).price(100).qty(qty).remaining(remaining);
        apply(event.encodedLength());
    }

    private void rested(final long qty, final long remaining)
    {
        final OrderRestedEncoder event = new OrderRestedEncoder().wrapAndApplyHeader(buffer, 0, headerOut)
            .sequence(sequence).eventIndex(9).putOrderId(ORDER, 0, 32).putAccount(ACCOUNT, 0, 20).market(1)
            .book(Book.NONE) .side(Side.BID).price(100).qty(qty).remaining(remaining);
        apply(event.encodedLength());
    }

    private void makerTrade(final long qty, final long makerRemaining)
    {
        trade(ORDER, OTHER, qty, makerRemaining);
    }

    private void takerTrade(final long qty)
    {
        trade(OTHER, ORDER, qty, 0);
    }

    private void trade(final byte[] maker, final byte[] taker, final long qty, final long makerRemaining)
    {
        final TradeEncoder event = new TradeEncoder().wrapAndApplyHeader(buffer, 0, headerOut).sequence(++sequence)
            .eventIndex(0).market(1).book(Book.NONE).putMakerOrderId(maker, 0, 32).putMakerAccount(ACCOUNT, 0, 20)
            .putTakerOrderId(taker, 0, 32).putTakerAccount(ACCOUNT, 0, 20).price(100).qty(qty).takerSide(Side.ASK)
            .makerRemaining(makerRemaining);
        apply(event.encodedLength());
    }

    private void done(final OrderDoneReason reason, final long remaining)
    {
        final OrderDoneEncoder event = new OrderDoneEncoder().wrapAndApplyHeader(buffer, 0, headerOut)
            .sequence(sequence) .eventIndex(9).putOrderId(ORDER, 0, 32).putAccount(ACCOUNT, 0, 20).market(1)
            .reason(reason).remaining(remaining);
        apply(event.encodedLength());
    }

    private void apply(final int bodyLength)
    {
        headerIn.wrap(buffer, 0);
        statuses.onEvent(buffer, 0, headerIn);
        buffer.setMemory(0, MessageHeaderEncoder.ENCODED_LENGTH + bodyLength, (byte)0);
    }

    private static byte[] filled(final int value, final int length)
    {
        final byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte)value);
        return bytes;
    }
}
