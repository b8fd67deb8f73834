package io.venue.appliance;

import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.auth.AgentKind;
import io.venue.auth.Scope;
import io.venue.crypto.Secp256k1KeyPair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.Session;
import quickfix.field.BeginSeqNo;
import quickfix.field.ClOrdID;
import quickfix.field.EndSeqNo;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.Price;
import quickfix.field.Symbol;
import quickfix.field.TestReqID;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelRequest;
import quickfix.fix44.OrderStatusRequest;
import quickfix.fix44.ResendRequest;
import quickfix.fix44.TestRequest;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The FIX lane's resend from the journal (docs/FIX.md, "ResendRequest"), against a running appliance with QuickFIX/J
 * initiators: the reports of a session that was logged off (an order of it filled over HTTP meanwhile) come on its
 * next logon through QuickFIX/J's own ResendRequest for the gap, across a restart of the appliance too; and a
 * ResendRequest sends every journal-derived report of its range again with its number and its body as first sent
 * (PossDupFlag Y, OrigSendingTime), session messages and lane-made answers gap-filled.
 */
class FixResendTest
{
    private static final int WAIT_MS = 20_000;
    private static final int SIDE = 54;
    /** Header and trailer tags: what a resend may change (SendingTime, PossDupFlag, OrigSendingTime) and the frame. */
    private static final Set<String> HEADER = Set.of("8", "9", "35", "49", "50", "56", "34", "52", "43", "122", "10");

    @TempDir
    Path folder;

    private Appliance appliance;
    private VenueHttp http;
    private Secp256k1KeyPair trader;
    private Secp256k1KeyPair operator;
    private long nonce;
    private long operatorNonce = 6;
    private final List<QuickFixClient> clients = new ArrayList<>();

    private void start(final Map<String, String> settings) throws Exception
    {
        appliance = LaneTestAppliance.start(folder.resolve("node"), folder, "http,fix", settings);
        http = new VenueHttp(appliance.baseUrl());
        trader = VenueHttp.key(appliance.demoAccountKeyFile());
        operator = VenueHttp.key(appliance.operatorKeyFile());
    }

    @AfterEach
    void stop()
    {
        clients.forEach(QuickFixClient::close);
        if (appliance != null)
        {
            appliance.close();
        }
    }

    private QuickFixClient client(final VenueHttp.Credential credential, final String sub, final Path store)
        throws Exception
    {
        final QuickFixClient client = new QuickFixClient(store, appliance.fixPort(), "VENUE", sub,
            credential.apiKeyId(), credential.apiSecret(), credential.apiPassphrase(), trader.address().toString(), "");
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

    private static NewOrderSingle limit(final String clOrdId, final String qty, final String price)
    {
        final NewOrderSingle order = new NewOrderSingle();
        order.set(new ClOrdID(clOrdId));
        order.setChar(SIDE, '1');
        order.set(new TransactTime());
        order.set(new OrdType(OrdType.LIMIT));
        order.set(new Symbol(Long.toString(SPOT_MARKET)));
        order.setString(OrderQty.FIELD, qty);
        order.setString(Price.FIELD, price);
        return order;
    }

    private static void send(final QuickFixClient client, final Message message) throws Exception
    {
        assertTrue(Session.sendToTarget(message, client.session().getSessionID()));
    }

    private static Predicate<Message> fill(final String clOrdId, final String lastQty)
    {
        return m -> QuickFixClient.type(m).equals("8") && clOrdId.equals(get(m, 11)) && "F".equals(get(m, 150)) &&
            lastQty.equals(get(m, 32));
    }

    private static Predicate<Message> report(final String clOrdId, final String execType)
    {
        return m -> QuickFixClient.type(m).equals("8") && clOrdId.equals(get(m, 11)) && execType.equals(get(m, 150));
    }

    private static String get(final Message message, final int tag)
    {
        return QuickFixClient.get(message, tag);
    }

    private void sellOverHttp(final Secp256k1KeyPair seller, final long sellerNonce, final long qty) throws Exception
    {
        ok(http.submit(seller, sellerNonce, new SpotPlaceOrder(SPOT_MARKET, null, Side.ASK, 100 * UNIT, qty, null,
            TimeInForce.GTC, false, false, -1)));
    }

    @Test
    void reportsOfALoggedOffSessionComeOnItsNextLogonAcrossARestartToo() throws Exception
    {
        // a grace window longer than the test: logging off keeps the orders (ENGINE.md, "Protections")
        final Map<String, String> settings = Map.of("protection.cod.grace.ms", "600000");
        start(settings);
        final VenueHttp.Credential agent = fixCredential(60_000, Scope.TRADE,
            Scope.CANCEL, Scope.DROP_COPY);
        final Path entryStore = Files.createDirectories(folder.resolve("entry"));
        final Path copyStore = Files.createDirectories(folder.resolve("copy"));
        QuickFixClient entry = client(agent, "order_entry", entryStore);
        QuickFixClient copy = client(agent, "drop_copy", copyStore);
        send(entry, limit("r1", "0.6", "100"));
        entry.await(report("r1", "0"), WAIT_MS);
        copy.await(report("r1", "0"), WAIT_MS);
        entry.logout();
        copy.logout();
        entry.close();
        copy.close();

        // logged off: 0.1 of it fills over HTTP; the next logon's gap brings the report (QuickFIX/J asks for it)
        final Secp256k1KeyPair seller = fundedTrader();
        sellOverHttp(seller, 0, 100_000);
        entry = client(agent, "order_entry", entryStore);
        copy = client(agent, "drop_copy", copyStore);
        final Message first = entry.await(fill("r1", "0.1"), WAIT_MS);
        assertEquals("Y", get(first, 43), "sent again from the journal: PossDupFlag");
        assertNotNull(get(first, 122), "OrigSendingTime");
        assertEquals("0.5", get(first, 151));
        assertEquals("Y", get(copy.await(fill("r1", "0.1"), WAIT_MS), 43));
        entry.logout();
        copy.logout();
        entry.close();
        copy.close();

        // logged off again: 0.2 more fills and an HTTP order of the account rests; then the appliance restarts, and
        // the new node numbers the journal's reports as the old one did: the gap brings them all
        sellOverHttp(seller, 1, 200_000);
        ok(http.submit(trader, nonce++, new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, 50 * UNIT, 1_000_000,
            null, TimeInForce.GTC, false, false, -1)));
        appliance.close();
        start(settings);
        entry = client(agent, "order_entry", entryStore);
        copy = client(agent, "drop_copy", copyStore);
        final Message second = entry.await(fill("r1", "0.2"), WAIT_MS);
        assertEquals("Y", get(second, 43));
        assertEquals("0.3", get(second, 14));
        assertEquals("0.3", get(second, 151));
        copy.await(fill("r1", "0.2"), WAIT_MS);
        final Message httpOrder = copy.await(m -> QuickFixClient.type(m).equals("8") && "0".equals(get(m, 150)) &&
            "50".equals(get(m, 44)), WAIT_MS);
        assertEquals("Y", get(httpOrder, 43));

        // and the session goes on live after what it missed
        send(entry, limit("r2", "0.01", "10"));
        final Message live = entry.await(report("r2", "0"), WAIT_MS);
        assertFalse("Y".equals(get(live, 43)), live.toString());
        assertTrue(Integer.parseInt(get(live, 34)) > Integer.parseInt(get(second, 34)));
        assertEquals(1, entry.received().stream().filter(fill("r1", "0.2")).count(), "each report once");
    }

    @Test
    void aResendRequestSendsTheReportsAgainAsTheyWereFirstSent() throws Exception
    {
        start(Map.of());
        final VenueHttp.Credential agent = fixCredential(5_000, Scope.TRADE,
            Scope.CANCEL);
        final QuickFixClient entry = client(agent, "order_entry", Files.createDirectories(folder.resolve("e")));
        send(entry, limit("a1", "0.5", "100"));
        entry.await(report("a1", "0"), WAIT_MS);
        final Secp256k1KeyPair seller = fundedTrader();
        sellOverHttp(seller, 0, 200_000);
        entry.await(fill("a1", "0.2"), WAIT_MS);
        // a lane-made answer (a status): not in the journal, so gap-filled
        final OrderStatusRequest status = new OrderStatusRequest();
        status.set(new ClOrdID("a1"));
        status.setChar(SIDE, '1');
        status.set(new Symbol("1"));
        send(entry, status);
        entry.await(report("a1", "I"), WAIT_MS);
        send(entry, limit("a2", "0.01", "10"));
        entry.await(report("a2", "0"), WAIT_MS);

        final Map<String, String> firstSent = new HashMap<>();
        for (final String message : entry.raw())
        {
            if (!message.contains("\u000143=Y\u0001"))
            {
                firstSent.put(field(message, "34"), message);
            }
        }
        final int before = entry.raw().size();
        send(entry, new ResendRequest(new BeginSeqNo(1), new EndSeqNo(0)));
        send(entry, new TestRequest(new TestReqID("after-resend")));
        entry.await(m -> "after-resend".equals(get(m, 112)), WAIT_MS);

        int reports = 0;
        int gapFills = 0;
        for (final String message : entry.raw().subList(before, entry.raw().size()))
        {
            if (!message.contains("\u000143=Y\u0001"))
            {
                continue;
            }
            final String type = field(message, "35");
            if (type.equals("4"))
            {
                gapFills++;
                continue;
            }
            reports++;
            final String original = firstSent.get(field(message, "34"));
            assertNotNull(original, "sent again under the number it was first sent with: " + message);
            assertEquals(body(original), body(message), "the same body, byte for byte");
            assertEquals(type, field(original, "35"));
            assertEquals(field(message, "122").substring(0, 17), field(original, "60").substring(0, 17),
                "OrigSendingTime: the report's stamped time");
            assertFalse("I".equals(field(message, "150")), "a lane-made status is gap-filled: " + message);
        }
        assertEquals(3, reports, "a1 New, a1 partial fill, a2 New: " + entry.raw());
        assertTrue(gapFills >= 2, "the Logon, the status and the other session messages: " + gapFills);
        assertTrue(entry.loggedOn());
    }

    /** A NewOrderSingle sent again, as after an unclean stop: PossDupFlag Y and OrigSendingTime. */
    private static NewOrderSingle again(final QuickFixClient client, final String clOrdId, final String qty,
        final String price)
    {
        client.possDup(clOrdId);
        return limit(clOrdId, qty, price);
    }

    /** Sends a TestRequest and waits for its Heartbeat: everything the venue answered before is in. */
    private static void barrier(final QuickFixClient client, final String id) throws Exception
    {
        send(client, new TestRequest(new TestReqID(id)));
        client.await(m -> id.equals(get(m, 112)), WAIT_MS);
    }

    @Test
    void aPossDupNewOrderSingleOfAJournaledClOrdIdIsNeverASecondOrderEvenAfterARestart() throws Exception
    {
        final Map<String, String> settings = Map.of("protection.cod.grace.ms", "600000");
        start(settings);
        final VenueHttp.Credential agent = fixCredential(60_000, Scope.TRADE,
            Scope.CANCEL);
        final Path store = Files.createDirectories(folder.resolve("possdup"));
        QuickFixClient entry = client(agent, "order_entry", store);
        // d1 rests and is cancelled (done); d2 rests
        send(entry, limit("d1", "0.01", "10"));
        entry.await(report("d1", "0"), WAIT_MS);
        final OrderCancelRequest cancel = new OrderCancelRequest();
        cancel.setString(41, "d1");
        cancel.set(new ClOrdID("d1c"));
        cancel.setChar(SIDE, '1');
        cancel.set(new TransactTime());
        cancel.set(new Symbol("1"));
        send(entry, cancel);
        entry.await(report("d1c", "4"), WAIT_MS);
        send(entry, limit("d2", "0.02", "10"));
        final Message d2 = entry.await(report("d2", "0"), WAIT_MS);

        // sent again with PossDupFlag Y: the orders' status, no second order
        send(entry, again(entry, "d1", "0.01", "10"));
        send(entry, again(entry, "d2", "0.02", "10"));
        final Message d1Status = entry.await(report("d1", "I"), WAIT_MS);
        assertEquals("4", get(d1Status, 39), "the cancelled order's status");
        assertTrue(QuickFixClient.text(d1Status).startsWith("DUPLICATE_CLORDID"), d1Status.toString());
        final Message d2Status = entry.await(report("d2", "I"), WAIT_MS);
        assertEquals("0", get(d2Status, 39));
        assertEquals(get(d2, 37), get(d2Status, 37));
        barrier(entry, "possdup-1");
        assertEquals(1, entry.received().stream().filter(report("d1", "0")).count(), "d1 placed once");
        assertEquals(1, entry.received().stream().filter(report("d2", "0")).count(), "d2 placed once");
        entry.logout();
        entry.close();

        // after a restart the journal says which ClOrdIDs were taken: still no second order; a new one is an order
        appliance.close();
        start(settings);
        entry = client(agent, "order_entry", store);
        send(entry, again(entry, "d1", "0.01", "10"));
        final Message afterRestart = entry.await(report("d1", "I"), WAIT_MS);
        assertEquals("4", get(afterRestart, 39));
        send(entry, again(entry, "d3", "0.03", "10"));
        entry.await(report("d3", "0"), WAIT_MS);
        barrier(entry, "possdup-2");
        assertTrue(entry.received().stream().noneMatch(report("d1", "0")), "no new order for d1");
        final String metrics = http.get("/api/v1/admin/metrics").body();
        assertTrue(metrics.contains("venue_fix_clordids_known 3"), metrics);
    }

    /** The value of the first field {@code tag} of a raw message. */
    private static String field(final String message, final String tag)
    {
        for (final String field : message.split("\u0001"))
        {
            if (field.startsWith(tag + "="))
            {
                return field.substring(tag.length() + 1);
            }
        }
        return "";
    }

    /** A raw message's fields but the header's and the trailer's, in the order they came. */
    private static String body(final String message)
    {
        final StringBuilder body = new StringBuilder();
        for (final String field : message.split("\u0001"))
        {
            if (!HEADER.contains(field.substring(0, field.indexOf('='))))
            {
                body.append(field).append('|');
            }
        }
        return body.toString();
    }
}
