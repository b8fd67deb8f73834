package io.venue.appliance;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Amend;
import io.venue.action.Book;
import io.venue.action.Cancel;
import io.venue.action.CancelByClientOrderId;
import io.venue.action.ClientOrderId;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.auth.AgentKind;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.journal.RecordPrinter;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.signing.ActionSigner;
import io.venue.svc.SvcRequestSigner;
import io.venue.transport.bsl.CompactOrders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.venue.appliance.ApplianceContext.DEMO_CHAIN_ID;
import static io.venue.appliance.ApplianceContext.DEMO_CONTRACT;
import static io.venue.appliance.DemoVenue.OUTCOME_MARKET;
import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static io.venue.appliance.VenueHttp.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compact binary orders over HTTP (spec 4, 4.1, 8.2): an institutional agent's SVC-* headers, orders signed one by one
 * by the trader as on the trading route, the result modes, the MM windows in place of the per-account limiter, the
 * budget in every answer, and the refusals, none of which reaches the engine.
 */
class CompactOrderEntryTest
{
    private static final String ROUTE = "/api/v1/bsl/orders/compact";

    @TempDir
    Path folder;

    private Appliance appliance;
    private VenueHttp http;
    private Secp256k1KeyPair trader;
    private ActionSigner signer;
    private long nonce;
    private long svcNonce;
    /** Settings made in code before the appliance starts (a test's hold on its threads). */
    private Consumer<ApplianceContext> configure = context -> { };

    private void start(final String accountActions) throws Exception
    {
        start(accountActions, Map.of());
    }

    private void start(final String accountActions, final Map<String, String> settings) throws Exception
    {
        final ApplianceContext context = new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1");
        ApplianceConfigFile.apply(context, "mm.account.actions", accountActions, folder);
        for (final Map.Entry<String, String> setting : settings.entrySet())
        {
            ApplianceConfigFile.apply(context, setting.getKey(), setting.getValue(), folder);
        }
        configure.accept(context);
        appliance = Appliance.start(context, new PrintStream(OutputStream.nullOutputStream()));
        http = new VenueHttp(appliance.baseUrl());
        trader = VenueHttp.key(appliance.demoAccountKeyFile());
        signer = new ActionSigner(DEMO_CHAIN_ID, DEMO_CONTRACT, trader);
    }

    @AfterEach
    void stop()
    {
        if (appliance != null)
        {
            appliance.close();
        }
    }

    private SignedAction order(final Action action)
    {
        return signer.sign(new ActionPayload(trader.address(), nonce++, null, System.currentTimeMillis(), action),
            PreimageMode.RAW);
    }

    private static SpotPlaceOrder bid(final long price)
    {
        return new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, price, 10_000, null, TimeInForce.GTC, false, false, -1);
    }

    /** A bid for one YES share of the outcome market at {@code cents} hundredths of a unit. */
    private static SpotPlaceOrder yesBid(final long cents)
    {
        return new SpotPlaceOrder(OUTCOME_MARKET, Book.YES, Side.BID, cents * 10_000, UNIT, null, TimeInForce.GTC,
            false, false, -1);
    }

    private HttpResponse<String> send(final SvcRequestSigner mm, final String route, final byte[] body,
        final Map<String, String> headers) throws Exception
    {
        return http.svcPost(mm, ++svcNonce, route, body, headers);
    }

    @Test
    void anInstitutionalAgentEntersSignedOrdersInOneRequest() throws Exception
    {
        start("4000");
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);

        // more orders than the trading route's 50 per second: the MM windows count them instead
        final List<SignedAction> bids = new ArrayList<>();
        for (int i = 0; i < 60; i++)
        {
            bids.add(order(bid((40_000 + i) * UNIT)));
        }
        final HttpResponse<String> placed = send(mm, ROUTE, CompactOrders.encode(SPOT_MARKET, bids),
            Map.of("x-bsl-result-mode", "detailed", "x-service-response-mode", "detailed"));
        assertEquals(200, placed.statusCode(), placed.body());
        assertTrue(placed.body().startsWith("{\"ok\":true,\"resultMode\":\"detailed\",\"orders\":60,\"accepted\":60," +
            "\"refused\":0,"), placed.body());
        assertEquals("60", field(placed.body(), "usedActions"), placed.body());
        assertEquals("3940", field(placed.body(), "remainingActions"), placed.body());
        // the detailed answers are the trading route's, in body order: the first names the first bid's id
        final String firstId = field(placed.body().substring(placed.body().indexOf("\"answer\":") + 9), "orderId");
        final String status = http.get("/api/v1/trading/orders/" + firstId).body();
        assertEquals("resting", field(status, "status"), status);
        assertEquals(Long.toString(40_000 * UNIT), field(status, "price"), status);

        // ack mode (the default) lists only what was not accepted; cancels cost nothing against the action budget; the
        // two other paths are the same route
        final SignedAction forged = new ActionSigner(DEMO_CHAIN_ID, DEMO_CONTRACT,
            Secp256k1KeyPair.generate(new SecureRandom()))
            .sign(new ActionPayload(trader.address(), nonce++, null, System.currentTimeMillis(), bid(39_000 * UNIT)),
                PreimageMode.RAW);
        final HttpResponse<String> mixed = send(mm, "/api/v1/mm/orders/batch.bin",
            CompactOrders.encode(SPOT_MARKET, List.of(
            order(new Cancel(OrderId.of(firstId))), forged, order(new Cancel(OrderId.of(firstId))))), Map.of());
        assertEquals(200, mixed.statusCode(), mixed.body());
        assertTrue(
            mixed.body().startsWith("{\"ok\":true,\"resultMode\":\"ack\",\"orders\":3,\"accepted\":1,\"refused\":2,"),
            mixed.body());
        assertTrue(mixed.body().contains("{\"index\":1,\"status\":401,"),
            "the forged order's signer is not the trader's");
        assertTrue(mixed.body().contains("{\"index\":2,\"status\":200,\"answer\":{\"ok\":false"), mixed.body());
        assertTrue(mixed.body().contains("UNKNOWN_ORDER"), "the second cancel finds the order gone: " + mixed.body());
        assertEquals("61", field(mixed.body(), "usedActions"), "only the forged place counts: " + mixed.body());
        assertEquals("cancelled", field(http.get("/api/v1/trading/orders/" + firstId).body(), "status"));
        assertEquals(200, send(mm, "/api/order-entry/binary", CompactOrders.encode(SPOT_MARKET,
            List.of(order(bid(38_000 * UNIT)))), Map.of()).statusCode());

        // an amend moves the second bid; a cancel by a client order id nobody used finds nothing
        final String secondId = Hex.to0x(signer.digestV2(bids.get(1).payload()));
        final HttpResponse<String> amended = send(mm, ROUTE, CompactOrders.encode(SPOT_MARKET, List.of(
            order(new Amend(OrderId.of(secondId), 40_500 * UNIT, 10_000)),
            order(new CancelByClientOrderId(ClientOrderId.of("0x" + "c1".repeat(16)))))), Map.of());
        assertTrue(
            amended.body().startsWith("{\"ok\":true,\"resultMode\":\"ack\",\"orders\":2,\"accepted\":1,\"refused\":1,"),
            amended.body());
        assertTrue(amended.body().contains("{\"index\":1,\"status\":200,"), amended.body());
        assertEquals(Long.toString(40_500 * UNIT),
            field(http.get("/api/v1/trading/orders/" + secondId).body(), "price"));

        // and one order on the trading route
        assertEquals(200, http.submit(trader, nonce++, bid(37_000 * UNIT)).statusCode());

        // the journal names the limit class each order was charged under
        appliance.close();
        appliance = null;
        final int[] limitClasses = new int[2];
        final RecordPrinter printer = new RecordPrinter();
        try (Journal commands = Journal.openReadOnly(folder.resolve("journal").resolve("commands"));
            JournalTailer tailer = commands.tailer())
        {
            while (tailer.read((buffer, offset, length, index) ->
            {
                final String line = printer.print(buffer, offset, length);
                limitClasses[0] += line.contains("\"limitClass\":\"MM\"") ? 1 : 0;
                limitClasses[1] += line.contains("\"limitClass\":\"TRADING\"") ? 1 : 0;
            }))
            {
                // to the end
            }
        }
        assertEquals(60 + 3 + 1 + 2, limitClasses[0], "every verified compact order is journaled as of limit class MM");
        assertEquals(1, limitClasses[1], "the trading route's order as of limit class TRADING");
    }

    @Test
    void refusalsAreClearAndNothingReachesTheEngine() throws Exception
    {
        start("3",
            Map.of("mm.action.ts.skew.ms", "20000", "http.max.body.bytes", "300000", "mm.low.latency.max.actions", "16",
            "mm.prebatched.max.batches", "3"));
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final byte[] one = CompactOrders.encode(SPOT_MARKET, List.of(order(bid(40_000 * UNIT))));

        assertRefused(http.post(ROUTE, one), 400, "MISSING_HEADER");
        assertRefused(send(http.agentCredential(trader, nonce++, AgentKind.API, Scope.QUOTE), ROUTE, one, Map.of()),
            403, "SCOPE_DENIED");
        assertRefused(send(mm, ROUTE, one, Map.of("x-bsl-result-mode", "verbose")), 400, "BAD_REQUEST");
        assertRefused(send(mm, ROUTE, one, Map.of("x-service-response-mode", "minimal")), 400, "BAD_REQUEST");
        final HttpResponse<String> cut = send(mm, ROUTE, Arrays.copyOf(one, one.length - 1), Map.of());
        assertRefused(cut, 400, "BAD_REQUEST");
        assertEquals("body", field(cut.body(), "field"), cut.body());

        final Secp256k1KeyPair other = Secp256k1KeyPair.generate(new SecureRandom());
        final SignedAction otherAccounts = new ActionSigner(DEMO_CHAIN_ID, DEMO_CONTRACT, other)
            .sign(new ActionPayload(other.address(), 1, null, System.currentTimeMillis(), bid(40_000 * UNIT)),
                PreimageMode.RAW);
        final HttpResponse<String> forbidden = send(mm, ROUTE,
            CompactOrders.encode(SPOT_MARKET, List.of(otherAccounts)), Map.of());
        assertRefused(forbidden, 403, "FORBIDDEN");
        assertEquals("orders[0].account", field(forbidden.body(), "field"), forbidden.body());

        final SignedAction stale = signer.sign(new ActionPayload(trader.address(), nonce, null,
            System.currentTimeMillis() - 60_000, bid(40_000 * UNIT)), PreimageMode.RAW);
        final HttpResponse<String> old = send(mm, ROUTE, CompactOrders.encode(SPOT_MARKET, List.of(stale)), Map.of());
        assertRefused(old, 400, "BAD_REQUEST");
        assertEquals("orders[0].ts", field(old.body(), "field"), old.body());
        assertTrue(field(old.body(), "message").startsWith("must be within 20000 ms"), old.body());

        // the account's window holds 3 actions: a request of 4 places can never fit, is refused for good and
        // charges nothing
        final List<SignedAction> four = new ArrayList<>();
        for (int i = 0; i < 4; i++)
        {
            four.add(order(bid((40_000 + i) * UNIT)));
        }
        final HttpResponse<String> tooLarge = send(mm, ROUTE, CompactOrders.encode(SPOT_MARKET, four), Map.of());
        assertRefused(tooLarge, 400, "EXCEEDS_WINDOW");
        assertEquals("orders", field(tooLarge.body(), "field"), tooLarge.body());
        assertTrue(tooLarge.headers().firstValue("retry-after").isEmpty(), "no wait would help");

        // a market the venue does not list is refused before any window is charged
        final HttpResponse<String> unlisted = send(mm, ROUTE, CompactOrders.encode(999_999,
            List.of(order(new CancelByClientOrderId(ClientOrderId.of("0x" + "c2".repeat(16)))))),
            Map.of());
        assertRefused(unlisted, 400, "BAD_REQUEST");
        assertEquals("market", field(unlisted.body(), "field"), unlisted.body());

        // none of it reached the engine: the first refused order's nonce is still unused, so the same order now places
        final HttpResponse<String> first = send(mm, ROUTE, one, Map.of());
        assertEquals(200, first.statusCode(), first.body());
        assertTrue(first.body().contains("\"accepted\":1"), first.body());

        // with 1 of its 3 used, a request of 3 fits once the window has room: 429, with the wait
        final HttpResponse<String> full = send(mm, ROUTE,
            CompactOrders.encode(SPOT_MARKET, four.subList(1, 4)), Map.of());
        assertEquals(429, full.statusCode(), full.body());
        assertTrue(full.body().startsWith("{\"ok\":false,\"error\":\"account max_actions_per_window\""), full.body());
        assertTrue(full.headers().firstValue("retry-after").isPresent());
        assertTrue(Long.parseLong(full.body().replaceAll(".*\"resetInMs\":(\\d+).*", "$1")) > 0, full.body());

        final String limits = http.get("/api/v1/bsl/limits").body();
        assertTrue(limits.contains(
            "\"actions\":{\"maxPerBatch\":1000,\"lowLatencyMaxActions\":16,\"maxActionTsSkewMs\":20000}," +
            "\"ingress\":{\"binaryMaxBodyBytes\":300000},\"backlog\":{\"prebatchedMaxBatches\":3}"), limits);
    }

    @Test
    void anAmendCountsInTheWindowOfItsOrdersMarketWhateverTheRequestsMarket() throws Exception
    {
        final String plenty = "1000000";
        start(plenty, Map.of("mm.market.actions", "3", "mm.window.ms", "600000"));
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final SignedAction yes = order(yesBid(50));
        assertEquals(200, send(mm, ROUTE, CompactOrders.encode(OUTCOME_MARKET, List.of(yes)), Map.of()).statusCode());
        final OrderId yesId = OrderId.of(Hex.to0x(signer.digestV2(yes.payload())));

        // amends of the outcome order sent in requests on the spot market: the outcome market's window counts them
        for (int price = 51; price <= 52; price++)
        {
            final HttpResponse<String> amended = send(mm, ROUTE, CompactOrders.encode(SPOT_MARKET,
                List.of(order(new Amend(yesId, price * 10_000L, UNIT)))), Map.of());
            assertTrue(amended.body().startsWith("{\"ok\":true,\"resultMode\":\"ack\",\"orders\":1,\"accepted\":1,"),
                amended.body());
        }
        final HttpResponse<String> full = send(mm, ROUTE, CompactOrders.encode(SPOT_MARKET,
            List.of(order(new Amend(yesId, 53 * 10_000L, UNIT)))), Map.of());
        assertEquals(429, full.statusCode(), full.body());
        assertTrue(full.body().startsWith("{\"ok\":false,\"error\":\"market max_actions_per_window\""), full.body());
        assertEquals("3", field(full.body(), "usedActions"),
            "the place and two amends of the outcome market: " + full.body());

        // the spot market's window is untouched by them
        for (int i = 0; i < 3; i++)
        {
            assertEquals(200,
                send(mm, ROUTE, CompactOrders.encode(SPOT_MARKET, List.of(order(bid((40_000 + i) * UNIT)))),
                Map.of()).statusCode());
        }
    }

    @Test
    void theEdgeThrottleCountsOnlyTheLanesFailedAuthenticationsInBucketsOfTheirOwn() throws Exception
    {
        // loopback not exempt: five requests of burst, one a second after
        start("4000", Map.of("edge.ip.exempt", "192.0.2.1", "edge.ip.rate", "1", "edge.ip.burst", "5"));
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        int throttled = 0;
        for (int i = 0; i < 8; i++)
        {
            throttled += http.post("/api/v1/" +
                "trading/actions", "{}".getBytes(StandardCharsets.UTF_8)).statusCode() == 429 ? 1 : 0;
        }
        assertTrue(throttled >= 3, "the trading route's bucket is spent: " + throttled);
        // the address's traffic on other routes does not refuse its MM orders
        final HttpResponse<String> placed = send(mm, ROUTE,
            CompactOrders.encode(SPOT_MARKET, List.of(order(bid(40_000 * UNIT)))),
            Map.of());
        assertEquals(200, placed.statusCode(), placed.body());

        // failed authentications spend the lane's own bucket; then the address is refused before the checks
        final SvcRequestSigner unknown = SvcRequestSigner.hmac("spk_" + "0".repeat(16), "sps_" + "0".repeat(64),
            "spp_" + "0".repeat(32));
        final List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 8; i++)
        {
            statuses.add(
                send(unknown, ROUTE, CompactOrders.encode(SPOT_MARKET, List.of(order(bid(40_001 * UNIT)))), Map.of())
                .statusCode());
        }
        assertEquals(401, statuses.get(0), statuses.toString());
        assertEquals(429, statuses.get(statuses.size() - 1), statuses.toString());
        final HttpResponse<String> refused = send(mm, ROUTE,
            CompactOrders.encode(SPOT_MARKET, List.of(order(bid(40_002 * UNIT)))),
            Map.of());
        assertEquals(429, refused.statusCode(), refused.body());
        assertEquals("Too Many Requests! Wait for 1s", refused.body());
    }

    @Test
    void eachMatchingShardHasItsOwnWindow() throws Exception
    {
        final String plenty = "1000000";
        start(plenty, Map.of("engine.shards", "2", "mm.shard.actions", "2", "mm.window.ms", "600000"));
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        assertEquals(200, send(mm, ROUTE, CompactOrders.encode(SPOT_MARKET, List.of(order(bid(40_000 * UNIT)),
            order(bid(40_001 * UNIT)))), Map.of()).statusCode());
        final HttpResponse<String> full = send(mm, ROUTE,
            CompactOrders.encode(SPOT_MARKET, List.of(order(bid(40_002 * UNIT)))),
            Map.of());
        assertEquals(429, full.statusCode(), full.body());
        assertTrue(full.body().startsWith("{\"ok\":false,\"error\":\"shard max_actions_per_window\""), full.body());

        // the two demo markets are matched on two shards: the outcome market's has room
        final HttpResponse<String> other = send(mm, ROUTE, CompactOrders.encode(OUTCOME_MARKET,
            List.of(order(yesBid(50)), order(yesBid(49)))), Map.of());
        assertEquals(200, other.statusCode(), other.body());
        assertTrue(
            other.body().startsWith("{\"ok\":true,\"resultMode\":\"ack\",\"orders\":2,\"accepted\":2,"), other.body());
    }

    @Test
    void aFullVerifierQueueRefusesTheRestOfARequestAndOnlyThat() throws Exception
    {
        final String plenty = "100000000";
        final HeldThreads threads = new HeldThreads();
        configure = context -> context.idleStrategy(threads);
        // the pre-batched backlog's bound lifted: this is the ring's own limit; the orders taken wait while the threads
        // are held, so their answers get more time than the default 10 s. Every refusal journaled on its own: the test
        // counts the orders each one names (all 60 requests come from one address, so aggregated, most of them would be
        // counted in a summary, which keeps no such detail)
        // threads=compact: the verifier on a thread of its own, which the test holds (with single, the default on 2
        // processors, it runs on the front thread, which must go on journaling the refusals)
        start(plenty, Map.ofEntries(Map.entry("mm.account.cancels", plenty), Map.entry("mm.key.actions", plenty),
            Map.entry("mm.ip.actions", plenty), Map.entry("mm.market.actions", plenty),
            Map.entry("mm.shard.actions", plenty), Map.entry("mm.prebatched.max.batches", "1000"),
            Map.entry("answer.timeout.ms", "120000"), Map.entry("refusals.aggregate.after", "0"),
            Map.entry("threads", "compact")));
        // requests of 1,000 orders on as many connections, each with its own credential (SVC-Nonces of one key must
        // rise; an account holds at most 64): far more than the verifier's queue holds (8 MiB, about 35,000 typed
        // orders of 240 bytes on the ring), held so that it verifies none meanwhile
        final int requests = 60;
        final List<SvcRequestSigner> keys = new ArrayList<>();
        for (int i = 0; i < requests; i++)
        {
            keys.add(http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE));
        }
        // one signed order, repeated: every copy is verified in full, and the engine refuses the replays
        final byte[] body = CompactOrders.encode(SPOT_MARKET, Collections.nCopies(1_000, order(bid(40_000 * UNIT))));
        final List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        threads.hold();
        try
        {
            for (final SvcRequestSigner key : keys)
            {
                sent.add(http.svcPostAsync(key, 1, ROUTE, body, Map.of("x-bsl-result-mode", "detailed")));
            }
            // every order has been offered (and waits) or refused as not verified (and is journaled so)
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            long accountedFor = 0;
            while (accountedFor != requests * 1_000L)
            {
                assertTrue(System.nanoTime() - deadline < 0, accountedFor + " of " + requests * 1_000 +
                    " orders offered or refused after 60 s");
                Thread.sleep(10);
                accountedFor = pendingRequests() + notVerifiedJournaled();
            }
        }
        finally
        {
            threads.release();
        }
        int partial = 0;
        long notVerified = 0;
        final Pattern result = Pattern.compile("\\{\"index\":(\\d+),\"status\":(\\d+),");
        for (final CompletableFuture<HttpResponse<String>> answer : sent)
        {
            final HttpResponse<String> response = answer.get();
            if (response.statusCode() == 503)
            {
                // none of this request's orders found room
                assertRefused(response, 503, "QUEUE_LIMIT");
                notVerified += 1_000;
                continue;
            }
            assertEquals(200, response.statusCode(), response.body());
            // the orders are offered in body order: those taken were decided by the engine, the rest refused,
            // none after
            final Matcher each = result.matcher(response.body());
            int taken = -1;
            int index = 0;
            while (each.find())
            {
                assertEquals(index, Integer.parseInt(each.group(1)));
                final int status = Integer.parseInt(each.group(2));
                if (status == 503)
                {
                    taken = taken < 0 ? index : taken;
                }
                else
                {
                    assertEquals(200, status, "order " + index + " was decided after an earlier one was refused");
                    assertTrue(taken < 0, "order " + index + " was decided after an earlier one was refused");
                }
                index++;
            }
            assertEquals(1_000, index, "a result per order");
            if (taken >= 0)
            {
                partial += taken > 0 ? 1 : 0;
                notVerified += 1_000 - taken;
                assertTrue(response.body().contains("QUEUE_LIMIT"), response.body());
            }
        }
        assertTrue(partial > 0, "some request found the queue full part of the way through");
        appliance.close();
        appliance = null;
        // each request cut short is journaled once, with the count of its orders not verified
        assertEquals(notVerified, notVerifiedJournaled(), "every order not verified is counted in the command journal");
    }

    /** The orders the QUEUE_LIMIT records of the command journal count as not verified. */
    private long notVerifiedJournaled()
    {
        long journaled = 0;
        for (final String record : ApplianceTest.requestRejections(folder, RequestRejectReason.QUEUE_LIMIT))
        {
            journaled += Long.parseLong(record.replaceAll(".*: (\\d+) of 1000 compact orders not verified$", "$1"));
        }
        return journaled;
    }

    /** The metrics' count of requests (here, compact orders) waiting for the engine's decision. */
    private long pendingRequests() throws Exception
    {
        final String metrics = http.get("/api/v1/admin/metrics").body();
        final Matcher sample = Pattern.compile("(?m)^venue_pending_requests (\\d+)$").matcher(metrics);
        assertTrue(sample.find(), metrics);
        return Long.parseLong(sample.group(1));
    }

    @Test
    void aFullPrebatchedBacklogRefusesLargeRequestsBeforeChargingThemAndNeverSmallOnes() throws Exception
    {
        final String plenty = "100000000";
        // one batch of more than 4 orders at a time; a window of ten minutes, so every charge is still counted at
        // the end
        start(plenty, Map.of("mm.account.cancels", plenty, "mm.key.actions", plenty, "mm.ip.actions", plenty,
            "mm.market.actions", plenty, "mm.shard.actions", plenty, "mm.window.ms", "600000",
            "mm.low.latency.max.actions", "4", "mm.prebatched.max.batches", "1"));
        final int batches = 8;
        final List<SvcRequestSigner> keys = new ArrayList<>();
        for (int i = 0; i <= batches; i++)
        {
            keys.add(http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE));
        }
        // one signed order, repeated: every copy is verified in full (tens of milliseconds a batch), the engine
        // refuses replays
        final byte[] batch = CompactOrders.encode(SPOT_MARKET, Collections.nCopies(1_000, order(bid(40_000 * UNIT))));
        final List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (int i = 0; i < batches; i++)
        {
            sent.add(http.svcPostAsync(keys.get(i), 1, ROUTE, batch, Map.of()));
        }
        // a small request meanwhile, on its own connection: never held back by the backlog
        final List<SignedAction> four = new ArrayList<>();
        for (int i = 0; i < 4; i++)
        {
            four.add(order(bid((41_000 + i) * UNIT)));
        }
        final HttpResponse<String> small = send(keys.get(batches), ROUTE,
            CompactOrders.encode(SPOT_MARKET, four), Map.of());
        assertEquals(200, small.statusCode(), small.body());
        assertTrue(small.body().contains("\"accepted\":4"), small.body());

        int refused = 0;
        SvcRequestSigner refusedKey = null;
        for (int i = 0; i < batches; i++)
        {
            final HttpResponse<String> response = sent.get(i).get();
            if (response.statusCode() == 503)
            {
                refusedKey = refusedKey == null ? keys.get(i) : refusedKey;
                assertRefused(response, 503, "QUEUE_LIMIT");
                assertTrue(field(response.body(), "message")
                    .startsWith("the pre-batched backlog is full (1 requests of more " +
                    "than 4 orders wait"), response.body());
                assertEquals("1", response.headers().firstValue("retry-after").orElse(null));
                refused++;
                continue;
            }
            assertEquals(200, response.statusCode(), response.body());
            assertTrue(response.body().contains("\"orders\":1000"), response.body());
        }
        assertTrue(refused > 0 && refused < batches, refused + " of " + batches + " batches refused");

        // the backlog is free again once every batch is answered; a refused request was not even authenticated (its
        // SVC-Nonce is still unused) and charged nothing
        final HttpResponse<String> again = http.svcPost(refusedKey, 1, ROUTE, batch, Map.of());
        assertEquals(200, again.statusCode(), again.body());
        final long charged = (batches - refused + 1) * 1_000L + 4;
        assertEquals(Long.toString(charged), field(again.body(), "usedActions"), again.body());
        appliance.close();
        appliance = null;
        final List<String> journaled = ApplianceTest.requestRejections(folder, RequestRejectReason.QUEUE_LIMIT);
        assertEquals(refused, journaled.size(), journaled::toString);
        assertTrue(journaled.get(0).endsWith("the pre-batched backlog is full: 1 requests of more than 4 orders wait"),
            journaled::toString);
    }

    @Test
    void aRequestPipelinedBehindABatchOnItsConnectionIsJournaledAfterIt() throws Exception
    {
        start("4000");
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        // more than the default 32 orders: pre-batched; then one order on the same connection, sent before the
        // first answer
        final List<SignedAction> bids = new ArrayList<>();
        for (int i = 0; i < 40; i++)
        {
            bids.add(order(bid((40_000 + i) * UNIT)));
        }
        final byte[] first = CompactOrders.encode(SPOT_MARKET, bids);
        final byte[] second = CompactOrders.encode(SPOT_MARKET, List.of(order(bid(39_000 * UNIT))));
        final ByteArrayOutputStream requests = new ByteArrayOutputStream();
        requests.write(rawPost(mm, ++svcNonce, first, false));
        requests.write(rawPost(mm, ++svcNonce, second, true));
        final String answers;
        try (Socket socket = new Socket("127.0.0.1", appliance.httpPort()))
        {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(requests.toByteArray());
            answers = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
        final int split = answers.indexOf("HTTP/1.1 ", 1);
        assertTrue(split > 0, answers);
        final List<Long> batchSequences = sequences(answers.substring(0, split));
        final List<Long> laterSequences = sequences(answers.substring(split));
        assertEquals(40, batchSequences.size(), answers);
        assertEquals(1, laterSequences.size(), answers);
        assertTrue(laterSequences.get(0) > Collections.max(batchSequences),
            "the later request was journaled before the batch sent ahead of it: " + laterSequences + " " +
            batchSequences);
    }

    @Test
    void aClientThatShutsItsSideAfterItsRequestsIsStillAnswered() throws Exception
    {
        start("4000");
        final SvcRequestSigner mm = http.agentCredential(trader, nonce++, AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final byte[] first = CompactOrders.encode(SPOT_MARKET,
            List.of(order(bid(38_000 * UNIT)), order(bid(38_001 * UNIT))));
        final byte[] second = CompactOrders.encode(SPOT_MARKET, List.of(order(bid(38_002 * UNIT))));
        final String answers;
        try (Socket socket = new Socket("127.0.0.1", appliance.httpPort()))
        {
            socket.setSoTimeout(30_000);
            // two requests kept alive, then a half-close (as `nc -N` or a script's shutdown(SHUT_WR) does): the answers
            // come after the client's end of stream, since each waits for the journal
            socket.getOutputStream().write(rawPost(mm, ++svcNonce, first, false));
            socket.getOutputStream().write(rawPost(mm, ++svcNonce, second, false));
            socket.shutdownOutput();
            answers = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
        final int split = answers.indexOf("HTTP/1.1 ", 1);
        assertTrue(answers.startsWith("HTTP/1.1 200") && split > 0, answers);
        assertTrue(answers.substring(split).startsWith("HTTP/1.1 200"), answers);
        assertEquals(2, sequences(answers.substring(0, split)).size(), answers);
        assertEquals(1, sequences(answers.substring(split)).size(), answers);
    }

    /** An HTTP/1.1 POST of compact orders, whole, with its machine headers: for pipelining on one socket. */
    private static byte[] rawPost(final SvcRequestSigner mm, final long svcNonce, final byte[] body,
        final boolean close)
    {
        final StringBuilder head = new StringBuilder("POST " + ROUTE + " HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            .append("Content-Type: application/octet-stream\r\nContent-Length: ").append(body.length).append("\r\n")
            .append("x-bsl-result-mode: detailed\r\n");
        mm.sign(svcNonce, System.currentTimeMillis(), "POST", ROUTE, null, body)
            .forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        if (close)
        {
            head.append("Connection: close\r\n");
        }
        head.append("\r\n");
        final byte[] start = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        final byte[] whole = Arrays.copyOf(start, start.length + body.length);
        System.arraycopy(body, 0, whole, start.length, body.length);
        return whole;
    }

    /** The command sequences of the accepted orders in a detailed answer, in body order. */
    private static List<Long> sequences(final String answer)
    {
        final List<Long> found = new ArrayList<>();
        final Matcher each = Pattern.compile("\"ok\":true,\"sequence\":(\\d+)").matcher(answer);
        while (each.find())
        {
            found.add(Long.parseLong(each.group(1)));
        }
        return found;
    }

    private static void assertRefused(final HttpResponse<String> response, final int status, final String code)
    {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals(code, field(response.body(), "code"), response.body());
    }
}
