package io.venue.transport.ws;

import io.venue.entry.credential.WsTokens;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A feed that ends its batches: a connection holds the batch's frames until its end, then writes them together (one
 * buffer, split at 64 KiB), every frame whole and in order; the gateway's own I/O threads, or the HTTP lane's.
 */
final class WsBatchTest
{
    private WsFixture fixture;

    @AfterEach
    void close() throws Exception
    {
        if (fixture != null)
        {
            fixture.close();
        }
    }

    @Test
    void aBatchsFramesWaitForItsEndThenArriveWholeAndInOrder() throws Exception
    {
        fixture = new WsFixture(ws -> ws.ioThreads(2));
        fixture.feed.endsBatches = true;
        final WsClient client = fixture.connectPublic();
        client.await(m -> m.contains("\"type\":\"session\""));
        client.send("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\",\"trades.1\"]}");
        client.await(m -> m.contains("\"type\":\"ack\"") && m.contains("\"id\":1"));

        // 300 frames of the two channels, some large, about 200 KB in all: the batch's buffer is split on the way
        final List<String> sent = new ArrayList<>();
        for (int seq = 1; seq <= 300; seq++)
        {
            final String channel = seq % 3 == 0 ? "trades.1" : "book.1";
            final String json = "{\"channel\":\"" + channel + "\",\"seq\":" + seq + ",\"p\":\"" +
                "x".repeat(seq % 50 == 0 ? 70_000 : seq % 7 * 40) + "\"}";
            fixture.feed.publish(channel, seq, false, json);
            sent.add(json);
        }
        fixture.feed.settle();
        // the frames are held until the batch ends: the pong, written after them, comes first
        client.send("{\"method\":\"ping\",\"id\":2}");
        String before;
        do
        {
            before = client.messages.poll(10, TimeUnit.SECONDS);
            assertTrue(before != null && !before.contains("\"seq\""), "the pong before any frame, got " + before);
        }
        while (!before.contains("\"type\":\"pong\""));

        fixture.feed.endBatch();
        final List<String> received = new ArrayList<>();
        while (received.size() < sent.size())
        {
            final String message = client.messages.poll(10, TimeUnit.SECONDS);
            assertTrue(message != null, "only " + received.size() + " frames arrived");
            if (!message.contains("\"type\":\"heartbeat\""))
            {
                received.add(message);
            }
        }
        assertEquals(sent, received);
    }

    @Test
    void aFeedThatDoesNotEndBatchesHasEachFrameWrittenAtOnce() throws Exception
    {
        fixture = new WsFixture(ws -> ws.ioThreads(1));
        final WsClient client = fixture.connectPublic();
        client.send("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\"]}");
        client.await(m -> m.contains("\"type\":\"ack\"") && m.contains("\"id\":1"));
        fixture.feed.publish("book.1", 1, false, "{\"channel\":\"book.1\",\"seq\":1}");
        client.await(m -> m.contains("\"seq\":1"));
    }

    @Test
    void connectionsMayStayOnTheHttpLanesThreads() throws Exception
    {
        fixture = new WsFixture(ws -> ws.ioThreads(0));
        fixture.feed.endsBatches = true;
        final WsClient client = fixture.connectPublic();
        client.send("{\"method\":\"subscribe\",\"id\":1,\"channels\":[\"book.1\"]}");
        client.await(m -> m.contains("\"type\":\"ack\"") && m.contains("\"id\":1"));
        fixture.feed.publish("book.1", 1, false, "{\"channel\":\"book.1\",\"seq\":1}");
        fixture.feed.publish("book.1", 2, false, "{\"channel\":\"book.1\",\"seq\":2}");
        fixture.feed.endBatch();
        client.await(m -> m.contains("\"seq\":1"));
        client.await(m -> m.contains("\"seq\":2"));
    }

    @Test
    void theThreadsAreChosenForTheHostUnlessSetAndCheckedWhenConcluded()
    {
        assertEquals(1, WsGateway.Context.autoIoThreads(1));
        assertEquals(1, WsGateway.Context.autoIoThreads(2));
        assertEquals(2, WsGateway.Context.autoIoThreads(4));
        assertEquals(4, WsGateway.Context.autoIoThreads(64));
        final ScriptedFeed feed = new ScriptedFeed();
        try
        {
            final WsGateway.Context auto = new WsGateway.Context().feed(feed)
                .tokens(new WsTokens(new byte[32]), (claims, now) -> true).conclude();
            assertEquals(WsGateway.Context.autoIoThreads(Runtime.getRuntime().availableProcessors()),
                auto.ioThreads());
            assertThrows(IllegalArgumentException.class, () -> new WsGateway.Context().feed(feed)
                .tokens(new WsTokens(new byte[32]), (claims, now) -> true).ioThreads(-2)
                .conclude());
            assertThrows(IllegalArgumentException.class, () -> new WsGateway.Context().feed(feed)
                .tokens(new WsTokens(new byte[32]), (claims, now) -> true).ioThreads(65)
                .conclude());
        }
        finally
        {
            feed.close();
        }
    }
}
