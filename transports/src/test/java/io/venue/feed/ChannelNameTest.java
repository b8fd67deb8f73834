package io.venue.feed;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ChannelNameTest
{
    @Test
    void parsesEveryKindOfChannel()
    {
        final ChannelName book = ChannelName.parse("book.17");
        assertEquals(ChannelName.Kind.BOOK, book.kind());
        assertEquals(17, book.market());
        assertEquals(ChannelName.SPOT, book.book());
        assertEquals(ChannelName.NO, ChannelName.parse("trades.4294967295.NO").book());
        assertEquals(ChannelName.YES, ChannelName.parse("bbo.0.YES").book());
        assertEquals(ChannelName.Kind.STATUS, ChannelName.parse("status").kind());
        assertEquals(ChannelName.Kind.FILLS, ChannelName.parse("fills").kind());
        assertEquals(1, ChannelName.parse("fills").kind().privateIndex());
        assertEquals("book.3.YES", ChannelName.name(ChannelName.Kind.BOOK, 3, ChannelName.YES));
    }

    @Test
    void refusesEverythingElse()
    {
        for (final String text : new String[]{null, "", "book", "book.", "book.01", "book.-1", "book.4294967296",
            "book.1.yes", "book.1.", "book.1.YES.NO", "Book.1", "status.1", "orders.1", "trades.1x", "bbo..1",
            "book.99999999999", "fills ", " status", "book.1.MAYBE", "x".repeat(100)})
        {
            assertNull(ChannelName.parse(text), String.valueOf(text));
        }
    }
}
