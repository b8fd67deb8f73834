package io.venue.feed;

import io.venue.tuning.Doorbell;
import io.venue.tuning.DoorbellIdleStrategy;
import org.agrona.concurrent.AgentRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A feed parked on its doorbell is woken by the requests queued to it: with a park of an hour and no spin, a book read
 * is answered at once (were the request not to ring, it would wait for the park's end, past the test's timeout).
 */
class FeedDoorbellTest
{
    @TempDir
    Path folder;

    @Test
    void aRequestWakesTheParkedFeed() throws Exception
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final Doorbell bell = new Doorbell();
            final MarketFeed feed = new MarketFeed(new MarketFeed.Context().events(script.events)
                .commands(script.commands).doorbell(bell).errorHandler(FeedHarness.ERRORS::add));
            final AgentRunner runner = new AgentRunner(new DoorbellIdleStrategy(bell, 0, TimeUnit.HOURS.toNanos(1)),
                FeedHarness.ERRORS::add, null, feed);
            AgentRunner.startOnThread(runner);
            try
            {
                for (int i = 0; i < 5; i++)
                {
                    Thread.sleep(50); // parked by now
                    final CompletableFuture<String> body = new CompletableFuture<>();
                    assertTrue(feed.book(1, null, 10, body::complete));
                    assertTrue(body.get(30, TimeUnit.SECONDS).contains("\"ch\":\"book.1\""), body.get());
                }
            }
            finally
            {
                // parked for an hour: the close interrupts it rather than waiting
                runner.close(10, Thread::interrupt);
            }
        }
    }
}
