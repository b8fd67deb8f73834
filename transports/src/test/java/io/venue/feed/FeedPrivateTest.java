package io.venue.feed;

import io.venue.journal.sbe.KillScope;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.RejectCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.venue.feed.FeedHarness.PRIVATE;
import static io.venue.feed.FeedHarness.pump;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An account's private channels: its own orders, fills and balances, never another account's. */
class FeedPrivateTest
{
    @TempDir
    Path folder;

    /** Account 1 rests order 10; account 2's order 11 takes part of it, then all; then the rest of 11 is done. */
    private static void trade(final EventScript script)
    {
        script.command(2_000).accepted(10, 1, 1, 0, 1, 100_000, 5_000, 5_000).balance(1, 1, 95_000, 5_000)
            .rested(10, 1, 1, 0, 1, 100_000, 5_000, 5_000).delta(1, 0, 1, 100_000, 5_000).commit();
        script.command(2_100).accepted(11, 2, 1, 0, 0, 100_000, 8_000, 8_000).balance(2, 2, 777_000, 800)
            .trade(1, 0, 10, 1, 11, 2, 100_000, 2_000, 0, 3_000).balance(1, 2, 200, 0).balance(2, 1, 2_000, 0)
            .trade(1, 0, 10, 1, 11, 2, 100_000, 3_000, 0, 0).balance(1, 2, 500, 0).balance(2, 1, 5_000, 0)
            .done(10, 1, 1, OrderDoneReason.FILLED, 0).delta(1, 0, 1, 100_000, 0)
            .done(11, 2, 1, OrderDoneReason.CANCELLED_IOC, 3_000).commit();
        script.command(2_200).rejected(1, 9, RejectCode.NONCE_REPLAYED).commit();
        script.command(2_300).rejected(2, 4, RejectCode.RISK_CREDIT_LIMIT).position(2, 2, 4_000, 1_000)
            .kill(KillScope.ACCOUNT, 2, 0, true).commit();
    }

    @Test
    @SuppressWarnings("unchecked")
    void anAccountSeesItsOwnOrdersFillsAndBalancesOnly()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script);
            final Recorder one = new Recorder();
            final Recorder two = new Recorder();
            assertEquals(Map.of("orders", "live", "fills", "live", "balances", "live"),
                FeedHarness.subscribe(feed, one, EventScript.accountHex(1), 1, PRIVATE, null).get("channels"));
            FeedHarness.subscribe(feed, two, EventScript.accountHex(2), 1, PRIVATE, null);
            trade(script);
            pump(feed);

            final String everythingOfOne = String.join("\n", one.all);
            assertFalse(everythingOfOne.contains(EventScript.orderIdHex(11)), "the counterparty's order");
            assertFalse(everythingOfOne.contains(EventScript.accountHex(2).substring(2)), "the counterparty");
            assertFalse(everythingOfOne.contains("777000"), "the counterparty's balance");
            assertFalse(everythingOfOne.contains("RISK_CREDIT_LIMIT"), "the counterparty's reject");
            assertFalse(everythingOfOne.contains("kill_switch"), "the counterparty's kill switch");
            final String everythingOfTwo = String.join("\n", two.all);
            assertFalse(everythingOfTwo.contains(EventScript.orderIdHex(10)), "the counterparty's order");
            assertFalse(everythingOfTwo.contains("nonce_replayed"), "the counterparty's reject");

            final List<String> fills = one.dataFrames("fills");
            assertEquals(1, fills.size(), "one frame for the command's two fills");
            final Map<String, Object> frame = TestJson.object(fills.get(0));
            assertEquals(2_100L, frame.get("ts"));
            final List<Object> updates = (List<Object>)frame.get("updates");
            assertEquals(Map.of("orderId", EventScript.orderIdHex(10), "market", 1L, "side", "sell",
                "price", 100_000L, "qty", 2_000L, "liquidity", "maker"), updates.get(0));
            assertEquals(3_000L, ((Map<String, Object>)updates.get(1)).get("qty"));
            final Map<String, Object> takerFill = (Map<String, Object>)((List<Object>)TestJson.object(
                two.dataFrames("fills").get(0)).get("updates")).get(0);
            assertEquals("taker", takerFill.get("liquidity"));
            assertEquals("buy", takerFill.get("side"));
            assertEquals(EventScript.orderIdHex(11), takerFill.get("orderId"));
            assertNull(takerFill.get("fee"), "the engine has no fee model");

            final List<String> orders = one.dataFrames("orders");
            assertEquals(3, orders.size());
            final List<Object> second = (List<Object>)TestJson.object(orders.get(1)).get("updates");
            assertEquals(List.of("partially_filled", "filled", "done"), second.stream()
                .map(u -> ((Map<String, Object>)u).get("event")).toList());
            assertEquals(3_000L, ((Map<String, Object>)second.get(0)).get("remaining"));
            assertEquals("filled", ((Map<String, Object>)second.get(2)).get("reason"));
            final Map<String, Object> reject = (Map<String, Object>)((List<Object>)TestJson.object(orders.get(2))
                .get("updates")).get(0);
            assertEquals("rejected", reject.get("event"));
            assertEquals("nonce_replayed", reject.get("code"));

            final List<Object> takerOrders = (List<Object>)TestJson.object(two.dataFrames("orders").get(0))
                .get("updates");
            assertEquals(List.of("accepted", "partially_filled", "partially_filled", "done"), takerOrders.stream()
                .map(u -> ((Map<String, Object>)u).get("event")).toList());
            assertEquals(6_000L, ((Map<String, Object>)takerOrders.get(1)).get("remaining"));
            assertEquals("cancelled_ioc", ((Map<String, Object>)takerOrders.get(3)).get("reason"));
            final String lastOfTwo = two.dataFrames("orders").get(1);
            assertTrue(lastOfTwo.contains("\"code\":\"RISK_CREDIT_LIMIT\""), lastOfTwo);
            assertTrue(lastOfTwo.contains("\"event\":\"kill_switch\",\"active\":true"), lastOfTwo);
            final String positions = two.dataFrames("balances").get(two.dataFrames("balances").size() - 1);
            assertTrue(positions.contains("\"kind\":\"position\",\"market\":2,\"yes\":4000"), positions);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theOrdersChannelSaysWhyAProtectionCancelledEachOrder()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script);
            final Recorder one = new Recorder();
            FeedHarness.subscribe(feed, one, EventScript.accountHex(1), 1, PRIVATE, null);
            script.command(2_000).accepted(10, 1, 1, 0, 1, 100_000, 5_000, 5_000)
                .rested(10, 1, 1, 0, 1, 100_000, 5_000, 5_000).accepted(12, 1, 1, 0, 1, 110_000, 1_000, 1_000)
                .rested(12, 1, 1, 0, 1, 110_000, 1_000, 1_000).accepted(13, 1, 1, 0, 1, 120_000, 1_000, 1_000)
                .rested(13, 1, 1, 0, 1, 120_000, 1_000, 1_000).commit();
            script.command(2_100).done(10, 1, 1, OrderDoneReason.CANCELLED_DISCONNECT, 5_000)
                .done(12, 1, 1, OrderDoneReason.CANCELLED_DEAD_MAN, 1_000)
                .done(13, 1, 1, OrderDoneReason.CANCELLED_ALL, 1_000).commit();
            pump(feed);
            final List<String> orders = one.dataFrames("orders");
            final List<Object> done = (List<Object>)TestJson.object(orders.get(orders.size() - 1)).get("updates");
            assertEquals(List.of("cancelled_disconnect", "cancelled_dead_man", "cancelled_all"), done.stream()
                .map(u -> ((Map<String, Object>)u).get("reason")).toList());
        }
    }

    @Test
    void accountReadsFollowTheEvents()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            script.command(2_000).accepted(10, 1, 1, 0, 1, 100_000, 5_000, 5_000).balance(1, 1, 95_000, 5_000)
                .rested(10, 1, 1, 0, 1, 100_000, 5_000, 5_000).accepted(12, 1, 2, 1, 0, 300_000, 1_000, 1_000)
                .rested(12, 1, 2, 1, 0, 300_000, 1_000, 1_000).position(1, 2, 9_000, 0).commit();
            final MarketFeed feed = FeedHarness.feed(script);
            final String one = EventScript.accountHex(1);
            assertEquals("{\"account\":\"" + one + "\",\"engineSeq\":2,\"orders\":[{\"orderId\":\"" +
                EventScript.orderIdHex(10) + "\",\"market\":1,\"side\":\"sell\",\"price\":100000,\"qty\":5000," +
                "\"remaining\":5000},{\"orderId\":\"" + EventScript.orderIdHex(12) + "\",\"market\":2,\"book\":" +
                "\"YES\",\"side\":\"buy\",\"price\":300000,\"qty\":1000,\"remaining\":1000}],\"complete\":true}",
                FeedHarness.account(feed, one, "orders"));
            trade(script);
            pump(feed);
            final String orders = FeedHarness.account(feed, one, "orders");
            assertFalse(orders.contains(EventScript.orderIdHex(10)), orders);
            assertTrue(orders.contains(EventScript.orderIdHex(12)), orders);
            assertTrue(orders.contains("\"engineSeq\":6"), orders);
            assertEquals("{\"account\":\"" + one + "\",\"engineSeq\":6,\"balances\":[{\"asset\":1,\"available\":" +
                "95000,\"locked\":5000},{\"asset\":2,\"available\":500,\"locked\":0}]}",
                FeedHarness.account(feed, one, "balances"));
            assertEquals("{\"account\":\"" + one + "\",\"engineSeq\":6,\"positions\":[{\"market\":2,\"yes\":9000," +
                "\"yesLocked\":0,\"no\":0,\"noLocked\":0}]}", FeedHarness.account(feed, one, "positions"));
            assertEquals("{\"account\":\"" + EventScript.accountHex(9) + "\",\"engineSeq\":6,\"balances\":[]}",
                FeedHarness.account(feed, EventScript.accountHex(9), "balances"));
        }
    }

    @Test
    void privateChannelsNeedOneValidAccount()
    {
        try (EventScript script = new EventScript(folder))
        {
            FeedHarness.listMarkets(script);
            final MarketFeed feed = FeedHarness.feed(script);
            final Recorder client = new Recorder();
            assertEquals("AUTH_REQUIRED", FeedHarness.subscribe(feed, client, null, 4, List.of("book.1", "fills"),
                null).get("code"));
            assertEquals("INVALID_ACCOUNT", FeedHarness.subscribe(feed, client, "0xABC", 5, List.of("fills"),
                null).get("code"));
            FeedHarness.subscribe(feed, client, EventScript.accountHex(1), 6, List.of("fills"), null);
            final Map<String, Object> mismatch = FeedHarness.subscribe(feed, client, EventScript.accountHex(2), 7,
                List.of("orders"), null);
            assertEquals("error", mismatch.get("type"));
            assertEquals(7L, mismatch.get("id"));
            assertEquals("ACCOUNT_MISMATCH", mismatch.get("code"));
            assertEquals(Map.of("fills", "already_subscribed", "orders", "live"), FeedHarness.subscribe(feed, client,
                EventScript.accountHex(1), 8, List.of("fills", "orders", "fills"), null).get("channels"));
            assertEquals(List.of(), client.frames, "errors change nothing and send no frame");
        }
    }
}
