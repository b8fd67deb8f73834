package io.venue.appliance;

import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.FixRateTier;
import io.venue.action.SetFixOnboarding;
import io.venue.auth.AgentKind;
import io.venue.auth.Scope;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.engine.Engine;
import io.venue.engine.EventSink;
import io.venue.journal.RecordPrinter;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.Session;
import quickfix.field.BeginSeqNo;
import quickfix.field.ClOrdID;
import quickfix.field.EndSeqNo;
import quickfix.field.ExecInst;
import quickfix.field.MassCancelRequestType;
import quickfix.field.OrdType;
import quickfix.field.OrderID;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Price;
import quickfix.field.Symbol;
import quickfix.field.TestReqID;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelReplaceRequest;
import quickfix.fix44.OrderCancelRequest;
import quickfix.fix44.OrderMassCancelRequest;
import quickfix.fix44.OrderStatusRequest;
import quickfix.fix44.QuoteRequest;
import quickfix.fix44.ResendRequest;
import quickfix.fix44.TestRequest;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static io.venue.appliance.VenueHttp.field;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FIX order entry against a running appliance over loopback (docs/FIX.md, "Order entry"), with QuickFIX/J initiators
 * as the counterparty: orders that rest, fill against an order of the HTTP lane (both sides reported), fill in part,
 * are replaced, cancelled, mass cancelled and asked about; the engine's rejects and the lane's own as ExecutionReports;
 * a drop-copy session that sees the account's orders from every lane; cancel on disconnect after the grace window; and
 * a replay of the command journal that writes the event journal byte for byte. Every assertion waits for a state.
 */
class FixOrderEntryTest
{
    private static final int WAIT_MS = 20_000;
    private static final int SIDE = 54;
    private static final char BUY = '1';
    private static final char SELL = '2';

    @TempDir
    Path folder;

    private Appliance appliance;
    private VenueHttp http;
    private Secp256k1KeyPair trader;
    private Secp256k1KeyPair operator;
    private long nonce;
    private long operatorNonce = 6;
    private int clientCount;
    private final List<QuickFixClient> clients = new ArrayList<>();

    private void start(final Map<String, String> settings) throws Exception
    {
        appliance = LaneTestAppliance.start(folder.resolve("node"), folder, "http,fix", settings,
            "protection.tick.ms", "10");
        http = new VenueHttp(appliance.baseUrl());
        trader = VenueHttp.key(appliance.demoAccountKeyFile());
        operator = VenueHttp.key(appliance.operatorKeyFile());
    }

    @AfterEach
    void stop()
    {
        for (final QuickFixClient client : clients)
        {
            client.close();
        }
        if (appliance != null)
        {
            appliance.close();
        }
    }

    private QuickFixClient logOn(final VenueHttp.Credential credential, final String sub) throws Exception
    {
        final QuickFixClient client = new QuickFixClient(Files.createDirectories(folder.resolve("client-" +
            ++clientCount)), appliance.fixPort(), "VENUE", sub, credential.apiKeyId(), credential.apiSecret(),
            credential.apiPassphrase(), trader.address().toString(), "");
        clients.add(client);
        client.awaitLogon(WAIT_MS);
        return client;
    }

    /** An institutional credential of the trader, onboarded for FIX by the operator (every market, this grace). */
    private VenueHttp.Credential fixCredential(final long graceMs, final Scope... scopes) throws Exception
    {
        final VenueHttp.Credential agent = http.newCredential(trader, nonce++, AgentKind.INSTITUTIONAL, scopes);
        http.onboardFix(operator, operatorNonce++, VenueHttp.fullFix(agent, graceMs));
        return agent;
    }

    private Secp256k1KeyPair fundedTrader() throws Exception
    {
        final Secp256k1KeyPair other = http.fundedTrader(operator, operatorNonce);
        operatorNonce += 2;
        return other;
    }

    private static void ok(final HttpResponse<String> response)
    {
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().startsWith("{\"ok\":true"), response.body());
    }

    private static NewOrderSingle limit(final String clOrdId, final char side, final String qty, final String price)
    {
        final NewOrderSingle order = new NewOrderSingle();
        order.set(new ClOrdID(clOrdId));
        order.setChar(SIDE, side);
        order.set(new TransactTime());
        order.set(new OrdType(OrdType.LIMIT));
        order.set(new Symbol(Long.toString(SPOT_MARKET)));
        order.setString(OrderQty.FIELD, qty);
        order.setString(Price.FIELD, price);
        return order;
    }

    private static OrderCancelRequest cancelRequest(final String orig, final String clOrdId)
    {
        final OrderCancelRequest cancel = new OrderCancelRequest();
        cancel.set(new OrigClOrdID(orig));
        cancel.set(new ClOrdID(clOrdId));
        cancel.setChar(SIDE, BUY);
        cancel.set(new TransactTime());
        cancel.set(new Symbol("1"));
        return cancel;
    }

    private static void send(final QuickFixClient client, final Message message) throws Exception
    {
        assertTrue(Session.sendToTarget(message, client.session().getSessionID()));
    }

    private static Predicate<Message> report(final String clOrdId, final String execType)
    {
        return m -> QuickFixClient.type(m).equals("8") && clOrdId.equals(QuickFixClient.get(m, 11)) &&
            execType.equals(QuickFixClient.get(m, 150));
    }

    private static long metric(final String metrics, final String sample)
    {
        final Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(sample) + " ([0-9]+)$").matcher(metrics);
        return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    }

    private static String get(final Message message, final int tag)
    {
        return QuickFixClient.get(message, tag);
    }

    @Test
    void ordersRestFillAreReplacedCancelledAndAskedAboutWithEveryReport() throws Exception
    {
        start(Map.of());
        final VenueHttp.Credential agent = fixCredential(5_000, Scope.TRADE,
            Scope.CANCEL, Scope.DROP_COPY);
        final QuickFixClient entry = logOn(agent, "order_entry");
        final QuickFixClient dropCopy = logOn(agent, "drop_copy");

        // a buy of 0.5 BTC at 100 USDC rests: New, to the session and its drop copy
        send(entry, limit("b1", BUY, "0.5", "100"));
        final Message accepted = entry.await(report("b1", "0"), WAIT_MS);
        assertEquals("0", get(accepted, 39));
        assertEquals("0.5", get(accepted, 151));
        assertEquals("0", get(accepted, 14));
        assertEquals("1", get(accepted, 55));
        assertEquals(trader.address().toString(), get(accepted, 1));
        final String orderId = get(accepted, 37);
        assertEquals(64, orderId.length(), accepted.toString());
        assertEquals(orderId, get(dropCopy.await(report("b1", "0"), WAIT_MS), 37));

        // another trader sells 0.2 at 100 over HTTP: a partial fill of the FIX order
        final Secp256k1KeyPair seller = fundedTrader();
        ok(http.submit(seller, 0, new SpotPlaceOrder(SPOT_MARKET, null, Side.ASK, 100 * UNIT, 200_000, null,
            TimeInForce.GTC, false, false, -1)));
        final Message partial = entry.await(report("b1", "F"), WAIT_MS);
        assertEquals("1", get(partial, 39));
        assertEquals("0.2", get(partial, 32));
        assertEquals("100", get(partial, 31));
        assertEquals("0.2", get(partial, 14));
        assertEquals("0.3", get(partial, 151));
        assertEquals("100", get(partial, 6));
        final long execIdFill = Long.parseLong(get(partial, 17));
        assertTrue(execIdFill > Long.parseLong(get(accepted, 17)), "ExecIDs increase in journal order");

        // replaced: 0.6 in all at 99 (a new price: it loses priority, keeps its fills); then named by its ClOrdID
        final OrderCancelReplaceRequest replace = new OrderCancelReplaceRequest();
        replace.set(new OrigClOrdID("b1"));
        replace.set(new ClOrdID("b2"));
        replace.setChar(SIDE, BUY);
        replace.set(new TransactTime());
        replace.set(new OrdType(OrdType.LIMIT));
        replace.set(new Symbol("1"));
        replace.setString(OrderQty.FIELD, "0.6");
        replace.setString(Price.FIELD, "99");
        send(entry, replace);
        final Message replaced = entry.await(report("b2", "5"), WAIT_MS);
        assertEquals("b1", get(replaced, 41));
        assertEquals(orderId, get(replaced, 37));
        assertEquals("0.2", get(replaced, 14), replaced.toString());
        assertEquals("0.4", get(replaced, 151), replaced.toString());
        assertEquals("0.6", get(replaced, 38), replaced.toString());
        assertEquals("99", get(replaced, 44), replaced.toString());

        final OrderStatusRequest status = new OrderStatusRequest();
        status.set(new ClOrdID("b2"));
        status.setChar(SIDE, BUY);
        status.set(new Symbol("1"));
        send(entry, status);
        final Message known = entry.await(report("b2", "I"), WAIT_MS);
        assertEquals("1", get(known, 39));
        assertEquals("0.2", get(known, 14));
        assertEquals(orderId, get(known, 37));

        // cancelled by the client: its reason, and CumQty over the order's whole life
        final OrderCancelRequest cancel = cancelRequest("b2", "c1");
        cancel.set(new Symbol("1"));
        send(entry, cancel);
        final Message cancelled = entry.await(report("c1", "4"), WAIT_MS);
        assertEquals("b2", get(cancelled, 41));
        assertEquals("4", get(cancelled, 39));
        assertEquals("0.2", get(cancelled, 14));
        assertEquals("0", get(cancelled, 151));
        assertTrue(QuickFixClient.text(cancelled).contains("client"), cancelled.toString());
        dropCopy.await(report("c1", "4"), WAIT_MS);

        // a cancel of an order no longer open: an OrderCancelReject with the engine's code
        send(entry, cancel);
        final Message cancelReject = entry.await("9", WAIT_MS);
        assertEquals("c1", get(cancelReject, 11));
        assertEquals("1", get(cancelReject, 434));
        assertTrue(QuickFixClient.text(cancelReject).startsWith("UNKNOWN_ORDER"), cancelReject.toString());

        // a sell that crosses the HTTP trader's resting buy fills whole: both sides reported
        ok(http.submit(seller, 1, new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, 98 * UNIT, 100_000, null,
            TimeInForce.GTC, false, false, -1)));
        send(entry, limit("s1", SELL, "0.1", "98"));
        final Message filled = entry.await(report("s1", "F"), WAIT_MS);
        assertEquals("2", get(filled, 39));
        assertEquals("0.1", get(filled, 14));
        assertEquals("0", get(filled, 151));
        assertEquals("98", get(filled, 31));
        dropCopy.await(report("s1", "F"), WAIT_MS);

        // the drop copy sees the account's orders of the HTTP lane too (no ClOrdID: the lane's own id)
        ok(http.submit(trader, nonce++, new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, 50 * UNIT, 1_000_000,
            null, TimeInForce.GTC, false, false, -1)));
        final Message httpOrder = dropCopy.await(m -> QuickFixClient.type(m).equals("8") && "0".equals(get(m,
            150)) && "50".equals(get(m, 44)), WAIT_MS);
        assertEquals("1", get(httpOrder, 151));

        // mass cancel: every open order of the account, whatever lane entered it
        send(entry, limit("m1", BUY, "0.01", "10"));
        entry.await(report("m1", "0"), WAIT_MS);
        final OrderMassCancelRequest mass = new OrderMassCancelRequest(new ClOrdID("mc1"),
            new MassCancelRequestType(MassCancelRequestType.CANCEL_ALL_ORDERS), new TransactTime());
        send(entry, mass);
        final Message massReport = entry.await("r", WAIT_MS);
        assertEquals("mc1", get(massReport, 11));
        assertEquals("7", get(massReport, 531));
        assertEquals("2", get(massReport, 533), massReport.toString());
        assertTrue(QuickFixClient.text(entry.await(report("m1", "4"), WAIT_MS)).contains("cancel_all"));

        // the lane does not take a quote request: a BusinessMessageReject, the session stays
        final QuoteRequest quote = new QuoteRequest();
        quote.setString(131, "q1");
        send(entry, quote);
        assertEquals("3", get(entry.await("j", WAIT_MS), 380));
        // nor a drop-copy session an order
        send(dropCopy, limit("x1", BUY, "1", "1"));
        assertEquals("6", get(dropCopy.await("j", WAIT_MS), 380));
        assertTrue(entry.loggedOn() && dropCopy.loggedOn());
        assertReplaysByteForByte();
    }

    @Test
    void theOnboardingRecordsAllowedMarketsAndRateTierApply() throws Exception
    {
        start(Map.of("fix.rate.tier.standard", "1"));
        final VenueHttp.Credential agent = http.newCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.TRADE);
        // the outcome market only, the standard tier (1 message a second on this node)
        http.onboardFix(operator, operatorNonce++, new SetFixOnboarding(agent.apiKeyId(), true, false,
            List.of(DemoVenue.OUTCOME_MARKET), FixRateTier.STANDARD, true, 5_000));
        assertTrue(http.get("/api/v1/admin/fix/onboarding/" + agent.apiKeyId()).body()
            .contains("\"rateTier\":\"standard\",\"orderMessagesPerSecond\":1"));
        final QuickFixClient entry = logOn(agent, "order_entry");
        assertTrue(http.get("/api/v1/bsl/sessions").body().contains("\"orderMessagesPerSecond\":1"));
        // the spot market is not in the record: the engine's gate refuses it, an ExecutionReport reject with the code
        send(entry, limit("m1", BUY, "0.01", "10"));
        final Message m1 = entry.await(report("m1", "8"), WAIT_MS);
        assertTrue(QuickFixClient.text(m1).startsWith("MARKET_NOT_ALLOWED"), m1.toString());
        assertEquals("99", get(m1, 103));
        // the tier's rate: a second message within the same second is refused before the journal
        send(entry, limit("m2", BUY, "0.01", "10"));
        final Message m2 = entry.await(report("m2", "8"), WAIT_MS);
        assertTrue(QuickFixClient.text(m2).startsWith("RATE_LIMITED: more than 1 order-entry messages a second"),
            m2.toString());
        // the record binds FIX orders only: the account's own signed order on the spot market rests
        ok(http.submit(trader, nonce++, new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, 50 * UNIT, 1_000_000,
            null, TimeInForce.GTC, false, false, -1)));
        assertReplaysByteForByte();
    }

    @Test
    void rejectsAreExecutionReportsWithTheReason() throws Exception
    {
        start(Map.of());
        final VenueHttp.Credential agent = fixCredential(5_000, Scope.TRADE);
        final QuickFixClient entry = logOn(agent, "order_entry");

        final NewOrderSingle unknownMarket = limit("r1", BUY, "1", "1");
        unknownMarket.set(new Symbol("99"));
        send(entry, unknownMarket);
        final Message r1 = entry.await(report("r1", "8"), WAIT_MS);
        assertEquals("8", get(r1, 39));
        assertEquals("1", get(r1, 103));
        assertTrue(QuickFixClient.text(r1).startsWith("UNKNOWN_MARKET"), r1.toString());

        // off the tick (0.01): the engine's INVALID_PRICE
        send(entry, limit("r2", BUY, "1", "100.005"));
        assertTrue(QuickFixClient.text(entry.await(report("r2", "8"), WAIT_MS)).startsWith("INVALID_PRICE"));
        // finer than a micro-unit: refused by the lane, never rounded
        send(entry, limit("r3", BUY, "1", "100.0000001"));
        final Message r3 = entry.await(report("r3", "8"), WAIT_MS);
        assertTrue(QuickFixClient.text(r3).contains("more than 6 decimal places"), r3.toString());
        assertEquals("NONE", get(r3, 37));
        // off the lot (0.001 BTC)
        send(entry, limit("r4", BUY, "0.0015", "100"));
        assertTrue(QuickFixClient.text(entry.await(report("r4", "8"), WAIT_MS)).startsWith("INVALID_QTY"));
        // post-only that would cross nothing rests; an IOC with ExecInst 6 is refused by the lane
        final NewOrderSingle postOnly = limit("r5", BUY, "0.01", "10");
        postOnly.set(new ExecInst("6"));
        postOnly.setChar(59, '3');
        send(entry, postOnly);
        assertTrue(QuickFixClient.text(entry.await(report("r5", "8"), WAIT_MS)).contains("post-only"));

        // the credential lacks the cancel scope: the engine's SCOPE_DENIED, in an OrderCancelReject
        send(entry, limit("r6", BUY, "0.01", "10"));
        entry.await(report("r6", "0"), WAIT_MS);
        final OrderCancelRequest cancel = cancelRequest("r6", "r7");
        send(entry, cancel);
        final Message denied = entry.await("9", WAIT_MS);
        assertTrue(QuickFixClient.text(denied).startsWith("SCOPE_DENIED"), denied.toString());
        // a status request by OrderID
        final OrderStatusRequest status = new OrderStatusRequest();
        status.set(new ClOrdID("r6"));
        status.setChar(SIDE, BUY);
        status.set(new OrderID(get(entry.await(report("r6", "0"), WAIT_MS), 37)));
        send(entry, status);
        assertEquals("0", get(entry.await(report("r6", "I"), WAIT_MS), 39));

        // good till a time: expired once the stamped clock passes it (the engine looks at its next command)
        final NewOrderSingle gtd = limit("e1", BUY, "0.01", "10");
        gtd.setChar(59, '6');
        gtd.setString(126, DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS").withZone(ZoneOffset.UTC)
            .format(Instant.now().plusMillis(500)));
        send(entry, gtd);
        entry.await(report("e1", "0"), WAIT_MS);
        Thread.sleep(600);
        send(entry, limit("e2", BUY, "0.01", "10"));
        final Message expired = entry.await(report("e1", "C"), WAIT_MS);
        assertEquals("C", get(expired, 39));
        assertTrue(QuickFixClient.text(expired).contains("expired"), expired.toString());
        entry.await(report("e2", "0"), WAIT_MS);

        // a resend sends the journal's reports again (PossDupFlag Y) and gap-fills the rest (docs/FIX.md,
        // "ResendRequest"). QuickFIX/J takes them (numbered below its next expected) without handing them on, so the
        // lane's counts say what it sent: no report reaches the application twice
        entry.clear();
        final String before = http.get("/api/v1/admin/metrics").body();
        send(entry, new ResendRequest(new BeginSeqNo(2), new EndSeqNo(0)));
        send(entry, new TestRequest(new TestReqID("after-resend")));
        entry.await(m -> "after-resend".equals(get(m, 112)), WAIT_MS);
        final String after = http.get("/api/v1/admin/metrics").body();
        assertTrue(metric(after, "venue_fix_resent_messages_total") - metric(before,
            "venue_fix_resent_messages_total") >= 8, after);
        assertTrue(metric(after, "venue_fix_resent_reports_total") - metric(before,
            "venue_fix_resent_reports_total") >= 8, after);
        assertTrue(entry.received().stream().noneMatch(m -> QuickFixClient.type(m).equals("8")));
        assertTrue(entry.loggedOn());
        assertReplaysByteForByte();
    }

    @Test
    void aKilledSessionsOrdersAreCancelledAfterTheGraceWindow() throws Exception
    {
        start(Map.of("protection.cod.grace.ms", "300"));
        final VenueHttp.Credential agent = fixCredential(300, Scope.TRADE,
            Scope.CANCEL, Scope.DROP_COPY);
        final QuickFixClient dropCopy = logOn(agent, "drop_copy");
        final QuickFixClient entry = logOn(agent, "order_entry");
        send(entry, limit("k1", BUY, "0.01", "10"));
        entry.await(report("k1", "0"), WAIT_MS);
        assertTrue(http.get("/api/v1/bsl/sessions").body().contains("\"cancelOnDisconnect\":true"));
        entry.close();
        final Message swept = dropCopy.await(report("k1", "4"), WAIT_MS);
        assertTrue(QuickFixClient.text(swept).contains("cancel_on_disconnect"), swept.toString());
        assertEquals("0", get(swept, 151));
        assertReplaysByteForByte();
    }

    @Test
    void anOrdersViewAndItsClOrdIdOutliveARestartOfTheAppliance() throws Exception
    {
        // a grace window longer than the restart: the new logon keeps the orders (ENGINE.md, "Protections")
        final Map<String, String> settings = Map.of("protection.cod.grace.ms", "120000");
        start(settings);
        final VenueHttp.Credential agent = fixCredential(60_000, Scope.TRADE,
            Scope.CANCEL);
        final Path store = Files.createDirectories(folder.resolve("restart-client"));
        try (QuickFixClient first = new QuickFixClient(store, appliance.fixPort(), "VENUE", "order_entry",
            agent.apiKeyId(), agent.apiSecret(), agent.apiPassphrase(), trader.address().toString(), ""))
        {
            first.awaitLogon(WAIT_MS);
            send(first, limit("p1", BUY, "0.5", "100"));
            first.await(report("p1", "0"), WAIT_MS);
            final Secp256k1KeyPair seller = fundedTrader();
            ok(http.submit(seller, 0, new SpotPlaceOrder(SPOT_MARKET, null, Side.ASK, 100 * UNIT, 100_000, null,
                TimeInForce.GTC, false, false, -1)));
            assertEquals("0.1", get(first.await(report("p1", "F"), WAIT_MS), 14));
            first.logout();
        }
        appliance.close();
        start(settings);
        try (QuickFixClient second = new QuickFixClient(store, appliance.fixPort(), "VENUE", "order_entry",
            agent.apiKeyId(), agent.apiSecret(), agent.apiPassphrase(), trader.address().toString(), ""))
        {
            second.awaitLogon(WAIT_MS);
            // the view is the journal's: what the order filled before the restart
            final OrderStatusRequest status = new OrderStatusRequest();
            status.set(new ClOrdID("p1"));
            status.setChar(SIDE, BUY);
            status.set(new Symbol("1"));
            send(second, status);
            final Message known = second.await(report("p1", "I"), WAIT_MS);
            assertEquals("1", get(known, 39), known.toString());
            assertEquals("0.1", get(known, 14));
            assertEquals("0.4", get(known, 151));
            // and its ClOrdID still names it: the order id is derived from it, not kept by the lane
            send(second, cancelRequest("p1", "p2"));
            final Message cancelled = second.await(report("p2", "4"), WAIT_MS);
            assertEquals("0.1", get(cancelled, 14));
            assertTrue(QuickFixClient.text(cancelled).contains("client"), cancelled.toString());
        }
        assertReplaysByteForByte();
    }

    /** The command journal through a fresh engine of the node's configuration writes the event journal exactly. */
    private void assertReplaysByteForByte() throws Exception
    {
        for (final QuickFixClient client : clients)
        {
            client.close();
        }
        clients.clear();
        appliance.close();
        appliance = null;
        final Path node = folder.resolve("node");
        final ApplianceContext context = new ApplianceContext().dataDir(node).operator(operator.address());
        final List<byte[]> replayed = new ArrayList<>();
        final EventSink sink = new EventSink()
        {
            public void onEvent(final DirectBuffer buffer, final int offset, final int length)
            {
                final byte[] event = new byte[length];
                buffer.getBytes(offset, event);
                replayed.add(event);
            }

            public void onCommandEnd()
            {
            }
        };
        final Map<String, Integer> types = new HashMap<>();
        try (Journal commands = Journal.openReadOnly(node.resolve("journal").resolve("commands"));
            Journal events = Journal.openReadOnly(node.resolve("journal").resolve("events"));
            JournalTailer commandTail = commands.tailer(); JournalTailer eventTail = events.tailer();
            Engine engine = new Engine(context.engineConfig(), sink))
        {
            while (commandTail.read((buffer, offset, length, index) -> engine.onCommand(buffer, offset, length)))
            {
                // every command
            }
            final List<byte[]> journaled = new ArrayList<>();
            while (eventTail.read((buffer, offset, length, index) ->
            {
                final byte[] event = new byte[length];
                buffer.getBytes(offset, event);
                journaled.add(event);
            }))
            {
                // every event
            }
            assertEquals(journaled.size(), replayed.size());
            final RecordPrinter printer = new RecordPrinter();
            for (int i = 0; i < journaled.size(); i++)
            {
                assertArrayEquals(journaled.get(i), replayed.get(i), "event " + i);
                final String line = printer.print(new UnsafeBuffer(journaled.get(i)), 0, journaled.get(i).length);
                types.merge(field(line, "type"), 1, Integer::sum);
            }
        }
        assertNotNull(types.get("OrderAccepted"), types.toString());
    }
}
