package io.venue.transport.ws;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The subscription count a connection's limits see, with the feed's answers coming in the order sent. */
class SubscriptionsTest
{
    @Test
    void twoSubscribesOfOneIdAreGivenBackEachByItsOwnAnswer()
    {
        final Subscriptions subscriptions = new Subscriptions(32, 16);
        subscriptions.subscribed(7, List.of("book.1"));
        subscriptions.subscribed(7, List.of("trades.2", "book.1"));
        assertEquals(2, subscriptions.size());
        subscriptions.answered(7, false);
        subscriptions.answered(7, true);
        assertEquals(1, subscriptions.size(), "the refused second subscribe's channel is given back, the first kept");
        assertFalse(subscriptions.awaitingAnswers());
        assertNull(subscriptions.overLimit(List.of("trades.2")));
    }

    @Test
    void aRefusedSubscribeGivesBackOnlyTheChannelsItAdded()
    {
        final Subscriptions subscriptions = new Subscriptions(2, 16);
        subscriptions.subscribed(1, List.of("book.1"));
        subscriptions.answered(1, false);
        subscriptions.subscribed(2, List.of("book.1", "book.2"));
        subscriptions.answered(2, true);
        assertEquals(1, subscriptions.size());
        assertEquals("over 2 subscriptions", subscriptions.overLimit(List.of("book.2", "book.3")));
    }
}
