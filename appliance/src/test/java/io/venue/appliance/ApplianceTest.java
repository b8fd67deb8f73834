package io.venue.appliance;

import io.venue.action.Amend;
import io.venue.action.Batch;
import io.venue.action.Book;
import io.venue.action.Cancel;
import io.venue.action.CreateAsset;
import io.venue.action.Deposit;
import io.venue.action.Merge;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.Split;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.engine.limit.TokenBucket;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.journal.sbe.RequestRejectedDecoder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.venue.appliance.DemoVenue.BTC;
import static io.venue.appliance.DemoVenue.OUTCOME_MARKET;
import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static io.venue.appliance.DemoVenue.USDC;
import static io.venue.appliance.VenueHttp.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The appliance in this JVM on a loopback port and a temporary data folder, driven by Java's HttpClient with real
 * signatures: the demo venue, trading through every kind of answer, the refusals before and after the journal,
 * the HTTP errors, and a restart that recovers.
 */
class ApplianceTest
{
    private static final long PRICE = 50_000 * UNIT;
    private static final long QTY = 10_000; // 0.01 BTC

    @TempDir
    Path folder;

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private Appliance appliance;
    private VenueHttp http;
    private Secp256k1KeyPair operator;
    private Secp256k1KeyPair demo;

    @BeforeEach
    void start() throws Exception
    {
        open();
        operator = VenueHttp.key(appliance.operatorKeyFile());
        demo = VenueHttp.key(appliance.demoAccountKeyFile());
    }

    private void open() throws Exception
    {
        // these tests send faster than the edge throttle allows one address; the throttle has its own test. They run
        // the spread layout, which threads=auto does not choose on a small machine: the other system tests run what it
        // chooses there (compact), so both layouts are tested wherever the suite runs
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1")
            .threadLayout(ThreadLayout.SPREAD), new PrintStream(logBytes, true, StandardCharsets.UTF_8));
        http = new VenueHttp(appliance.baseUrl());
    }

    @AfterEach
    void stop()
    {
        if (appliance != null)
        {
            appliance.close();
        }
    }

    private String log()
    {
        return logBytes.toString(StandardCharsets.UTF_8);
    }

    private static SpotPlaceOrder order(final Side side, final long price, final long qty, final TimeInForce tif)
    {
        return new SpotPlaceOrder(SPOT_MARKET, null, side, price, qty, null, tif, false, false, -1);
    }

    private static void ok(final HttpResponse<String> response)
    {
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().startsWith("{\"ok\":true"), response.body());
    }

    private static void refused(final HttpResponse<String> response, final int status, final String code)
    {
        assertEquals(status, response.statusCode(), response.body());
        assertTrue(response.body().startsWith("{\"ok\":false"), response.body());
        assertEquals(code, field(response.body(), "code"), response.body());
    }

    /** A second trader, funded by the operator over HTTP (operator nonces 6 and 7, after the demo set-up's 0 to 5). */
    private Secp256k1KeyPair fundedTrader() throws Exception
    {
        return http.fundedTrader(operator, 6);
    }

    @Test
    void demoVenueListsItsMarketsAndBinding() throws Exception
    {
        final HttpResponse<String> info = http.get("/api/v1/public/exchange-info");
        assertEquals(200, info.statusCode());
        assertTrue(info.headers().firstValue("date").isPresent(), "a Date header on every answer");
        assertTrue(info.body().contains("\"symbol\":\"BTC-USDC\""), info.body());
        assertTrue(info.body().contains("\"marketId\":2,\"kind\":\"OUTCOME\""), info.body());
        for (final String route : List.of("/api/v1/bsl/connectivity", "/api/v1/fix/connectivity"))
        {
            final HttpResponse<String> connectivity = http.get(route);
            assertEquals(200, connectivity.statusCode());
            assertTrue(connectivity.body().contains("\"bsl\":{\"orderEntryRoute\":\"/api/v1/bsl/orders/compact\"," +
                "\"resultMode\":\"ack\",\"responseMode\":\"detailed\""), connectivity.body());
            assertTrue(connectivity.body().contains("\"actionSigning\":{\"chainId\":8453,\"verifyingContract\":\"0x" +
                "5e".repeat(20) + "\""), connectivity.body());
        }
        assertTrue(log().contains("demo venue set up: 6 operator actions journaled"), log());
        assertTrue(log().contains("threads=spread: the engine on a thread of its own"), log());
        // the client readiness checks of spec 4.3: the metadata routes answer 200
        assertTrue(http.get("/api/v1/bsl/executions").body()
            .contains("\"route\":\"/api/v1/bsl/accounts/{account}/executions\""));
        assertEquals("{\"ok\":true,\"sessions\":[]}", http.get("/api/v1/bsl/sessions").body());
        assertEquals("{\"ok\":true,\"marketId\":1,\"obligations\":[]}",
            http.get("/api/v1/bsl/markets/1/quote-obligations").body());
        refused(http.get("/api/v1/bsl/markets/99/quote-obligations"), 404, "UNKNOWN_MARKET");
        refused(http.get("/api/v1/bsl/markets/x1/quote-obligations"), 400, "BAD_REQUEST");
        final HttpResponse<String> openApi = http.get("/api/v1/public/openapi.json");
        assertEquals(200, openApi.statusCode());
        assertTrue(openApi.body().contains("\"/api/v1/trading/actions/{digest}\""),
            "the checked-in document is served");
    }

    @Test
    void ordersTradeAmendCancelSplitAndMerge() throws Exception
    {
        final Secp256k1KeyPair trader = fundedTrader();
        final HttpResponse<String> bid = http.submit(demo, 1, order(Side.BID, PRICE, QTY, TimeInForce.GTC));
        ok(bid);
        // the account's limiter, as the engine left it, on every answer the engine decided
        assertEquals("50", bid.headers().firstValue("x-ratelimit-limit").orElse(null));
        assertEquals("49", bid.headers().firstValue("x-ratelimit-remaining").orElse(null));
        assertTrue(Long.parseLong(bid.headers().firstValue("x-ratelimit-reset-ms").orElseThrow()) > 0);
        assertTrue(bid.headers().firstValue("retry-after").isEmpty(), "Retry-After only on 429 and 503");
        assertEquals(field(bid.body(), "digest"), field(bid.body(), "orderId"), "the order id is the action's digest");
        final HttpResponse<String> ask = http.submit(trader, 0, order(Side.ASK, PRICE, QTY, TimeInForce.GTC));
        ok(ask);
        assertEquals("1", field(ask.body(), "trades"), ask.body());

        final HttpResponse<String> resting = http.submit(demo, 2, order(Side.BID, 49_000 * UNIT, QTY, TimeInForce.GTC));
        ok(resting);
        final OrderId id = OrderId.of(field(resting.body(), "orderId"));
        ok(http.submit(demo, 3, new Amend(id, 48_000 * UNIT, QTY)));
        ok(http.submit(demo, 4, new Cancel(id)));
        refused(http.submit(demo, 5, new Cancel(id)), 200, "UNKNOWN_ORDER");

        ok(http.submit(demo, 6, new Split(OUTCOME_MARKET, 5 * UNIT)));
        ok(http.submit(demo, 7, new Merge(OUTCOME_MARKET, 2 * UNIT)));
        refused(http.submit(demo, 8, new Split(OUTCOME_MARKET, 1_000_000 * UNIT)), 200, "INSUFFICIENT_BALANCE");
        refused(http.submit(demo, 11, order(Side.BID, PRICE, 100 * UNIT, TimeInForce.GTC)), 200, "RISK_CREDIT_LIMIT");
        refused(http.submit(demo, 9, order(Side.BID, PRICE + 1, QTY, TimeInForce.GTC)), 200, "INVALID_PRICE");

        // a batch answers once, with a result per leg: one order in, one refused leg named by its index
        final HttpResponse<String> batch = http.submit(demo, 10, new Batch(List.of(
            order(Side.BID, 40_000 * UNIT, QTY, TimeInForce.GTC), order(Side.BID, 1, QTY, TimeInForce.GTC))));
        ok(batch);
        assertTrue(batch.body().contains("\"legRejects\":[{\"leg\":1,\"code\":\"INVALID_PRICE\"}]"), batch.body());
    }

    @Test
    void orderStatusFollowsTheOrderFromRestingToFinished() throws Exception
    {
        final Secp256k1KeyPair trader = fundedTrader();
        final HttpResponse<String> bid = http.submit(demo, 1, order(Side.BID, PRICE, 3 * QTY, TimeInForce.GTC));
        ok(bid);
        final String path = "/api/v1/trading/orders/" + field(bid.body(), "orderId");
        HttpResponse<String> status = http.get(path);
        assertEquals(200, status.statusCode(), status.body());
        assertEquals("resting", field(status.body(), "status"));
        assertEquals(demo.address().toString(), field(status.body(), "account"));
        assertEquals(Long.toString(3 * QTY), field(status.body(), "remaining"));

        ok(http.submit(trader, 0, order(Side.ASK, PRICE, QTY, TimeInForce.GTC)));
        status = http.get(path);
        assertEquals(Long.toString(2 * QTY), field(status.body(), "remaining"), status.body());
        assertEquals(Long.toString(QTY), field(status.body(), "filled"), status.body());

        ok(http.submit(demo, 2, new Amend(OrderId.of(field(bid.body(), "orderId")), PRICE, QTY)));
        status = http.get(path);
        assertEquals(Long.toString(QTY), field(status.body(), "remaining"), status.body());

        ok(http.submit(demo, 3, new Cancel(OrderId.of(field(bid.body(), "orderId")))));
        status = http.get(path);
        assertEquals("cancelled", field(status.body(), "status"), status.body());

        // an IOC that fills nothing finishes at once
        final HttpResponse<String> ioc = http.submit(demo, 4, order(Side.BID, 1_000 * UNIT, QTY, TimeInForce.IOC));
        ok(ioc);
        assertEquals("cancelled_ioc",
            field(http.get("/api/v1/trading/orders/" + field(ioc.body(), "orderId")).body(), "status"));

        final HttpResponse<String> unknown = http.get("/api/v1/trading/orders/0x" + "ab".repeat(32));
        refused(unknown, 404, "UNKNOWN_ORDER");
        refused(http.get("/api/v1/trading/orders/0xzz"), 400, "BAD_REQUEST");
    }

    /**
     * An order amended both ways, keeping its place (less quantity) and leaving the book to enter again (a new price),
     * counts every fill of its id in {@code filled}, also after a restart rebuilt the statuses from the journal.
     */
    @Test
    void anAmendedOrdersFilledCountsEveryFillOfItsIdAlsoAfterARestart() throws Exception
    {
        final Secp256k1KeyPair trader = fundedTrader();
        final long lower = 49_000 * UNIT;
        final HttpResponse<String> bid = http.submit(demo, 1, order(Side.BID, PRICE, 10 * QTY, TimeInForce.GTC));
        ok(bid);
        final OrderId id = OrderId.of(field(bid.body(), "orderId"));
        final String path = "/api/v1/trading/orders/" + id;
        ok(http.submit(trader, 0, order(Side.ASK, PRICE, 2 * QTY, TimeInForce.GTC)));
        assertOrder(path, 10, 8, "resting");

        ok(http.submit(demo, 2, new Amend(id, PRICE, 5 * QTY)));
        assertOrder(path, 7, 5, "resting");
        ok(http.submit(trader, 1, order(Side.ASK, PRICE, QTY, TimeInForce.GTC)));
        assertOrder(path, 7, 4, "resting");

        final HttpResponse<String> moved = http.submit(demo, 3, new Amend(id, lower, 6 * QTY));
        ok(moved);
        assertEquals(id.toString(), field(moved.body(), "orderId"), "the order entered again under its id");
        assertOrder(path, 9, 6, "resting");
        ok(http.submit(trader, 2, order(Side.ASK, lower, 2 * QTY, TimeInForce.GTC)));
        assertOrder(path, 9, 4, "resting");

        appliance.close();
        open();
        assertOrder(path, 9, 4, "resting");
        ok(http.submit(trader, 3, order(Side.ASK, lower, 4 * QTY, TimeInForce.GTC)));
        assertOrder(path, 9, 0, "filled");
    }

    /**
     * The order's size, remaining and filled quantity (in lots of {@link #QTY}) and status, as its status route says.
     */
    private void assertOrder(final String path, final long size, final long remaining, final String status)
        throws Exception
    {
        final HttpResponse<String> order = http.get(path);
        assertEquals(200, order.statusCode(), order.body());
        assertEquals(Long.toString(size * QTY), field(order.body(), "qty"), order.body());
        assertEquals(Long.toString(remaining * QTY), field(order.body(), "remaining"), order.body());
        assertEquals(Long.toString((size - remaining) * QTY), field(order.body(), "filled"), order.body());
        assertEquals(status, field(order.body(), "status"), order.body());
    }

    @Test
    void theOperatorsRouteTakesOnlyAdminActions() throws Exception
    {
        final Secp256k1KeyPair trader = Secp256k1KeyPair.generate(new SecureRandom());
        final HttpResponse<String> deposit = http.post("/api/v1/admin/actions",
            VenueHttp.body(operator, operator.address(), 6, new Deposit(trader.address(), USDC, UNIT),
                PreimageMode.PERSONAL));
        ok(deposit);
        final HttpResponse<String> trade = http.post("/api/v1/admin/actions",
            VenueHttp.body(demo, demo.address(), 1, order(Side.BID, PRICE, QTY, TimeInForce.GTC), PreimageMode.RAW));
        refused(trade, 400, "BAD_REQUEST");
        assertEquals("action", field(trade.body(), "field"));
        refused(http.post("/api/v1/admin/actions", VenueHttp.body(demo, demo.address(), 1, new CreateAsset(9, "EUR"),
            PreimageMode.PERSONAL)), 401, "NOT_OPERATOR");
        ok(http.submit(demo, 2, order(Side.BID, PRICE, QTY, TimeInForce.IOC)));
        appliance.close();
        appliance = null;
        assertEquals(List.of("MALFORMED: not an admin action on /api/v1/admin/actions"),
            requestRejections(folder, RequestRejectReason.MALFORMED), "the trade on the operator's route is journaled");
    }

    /** The refusals with {@code reason} in the command journal under {@code dataDir}, as "REASON: detail". */
    static List<String> requestRejections(final Path dataDir, final RequestRejectReason reason)
    {
        final List<String> found = new ArrayList<>();
        try (Journal commands = Journal.openReadOnly(
            dataDir.resolve("journal").resolve("commands")); JournalTailer tailer = commands.tailer())
        {
            final RequestRejectedDecoder decoder = new RequestRejectedDecoder();
            final MessageHeaderDecoder header = new MessageHeaderDecoder();
            while (tailer.read((buffer, offset, length, index) ->
            {
                if (header.wrap(buffer, offset).templateId() == RequestRejectedDecoder.TEMPLATE_ID &&
                    decoder.wrapAndApplyHeader(buffer, offset, header).reason() == reason)
                {
                    found.add(reason + ": " + decoder.detail());
                }
            }))
            {
                // to the end
            }
        }
        return found;
    }

    @Test
    void nonceRefusalsCarryTheWindow() throws Exception
    {
        ok(http.submit(demo, 1, order(Side.BID, PRICE, QTY, TimeInForce.IOC)));
        final HttpResponse<String> replayed = http.submit(demo, 1, order(Side.BID, PRICE, QTY, TimeInForce.IOC));
        refused(replayed, 200, "nonce_replayed");
        assertEquals("0", field(replayed.body(), "nonceFloor"));
        assertEquals("256", field(replayed.body(), "nonceWindow"));
        assertEquals("2", field(replayed.body(), "nextUsableNonce"),
            "above the highest consumed nonce (docs/ENGINE.md)");
        final HttpResponse<String> outside = http.submit(demo, 256, order(Side.BID, PRICE, QTY, TimeInForce.IOC));
        refused(outside, 200, "nonce_outside_window");
        assertEquals("0", field(outside.body(), "nonceFloor"));
        assertEquals("2", field(outside.body(), "nextUsableNonce"), "nothing consumed since the replay");
    }

    @Test
    void signerRefusalsNameTheRecoveredAndExpectedSigner() throws Exception
    {
        final Secp256k1KeyPair stranger = Secp256k1KeyPair.generate(new SecureRandom());
        // the stranger signs for the demo account: verified, journaled, refused by the gate
        final HttpResponse<String> foreign = http.post("/api/v1/trading/actions",
            VenueHttp.body(stranger, demo.address(), 1, order(Side.BID, PRICE, QTY, TimeInForce.GTC),
                PreimageMode.RAW));
        refused(foreign, 401, "UNAUTHORIZED_SIGNER");
        assertEquals(demo.address().toString(), field(foreign.body(), "expectedSigner"));
        assertTrue(foreign.body().contains("\"rawMode\":\"" + stranger.address() + "\""), foreign.body());
        assertTrue(foreign.body().contains("\"canonicalJson\":\"{\\\"account\\\":\\\"" + demo.address()),
            foreign.body());

        refused(http.operator(demo, 1, new CreateAsset(9, "EUR")), 401, "NOT_OPERATOR");

        // signature bytes that cannot be a signature: refused before the journal's engine, journaled as an audit record
        final String good = new String(
            VenueHttp.body(demo, demo.address(), 2, order(Side.BID, PRICE, QTY, TimeInForce.GTC),
            PreimageMode.RAW), StandardCharsets.US_ASCII);
        final String broken = good.substring(0, good.indexOf("\"bytes\":[") + 9) + "255,".repeat(64) + "27]}}";
        final HttpResponse<String> bad = http.post("/api/v1/trading/actions",
            broken.getBytes(StandardCharsets.US_ASCII));
        refused(bad, 401, "BAD_SIGNATURE");
        assertEquals(demo.address().toString(), field(bad.body(), "expectedSigner"));
        // the engine never saw it, yet it names the account's limiter as the engine last reported it (spec 8.1)
        assertEquals("50", bad.headers().firstValue("x-ratelimit-limit").orElse(null));
        final long remaining = Long.parseLong(bad.headers().firstValue("x-ratelimit-remaining").orElseThrow());
        assertTrue(remaining > 40 && remaining <= 50, "remaining " + remaining);
        assertTrue(Long.parseLong(bad.headers().firstValue("x-ratelimit-reset-ms").orElseThrow()) >= 0);
        assertTrue(bad.body().contains("\"canonicalJson\":\"{\\\"account\\\":\\\"" + demo.address()), bad.body());
        assertTrue(bad.body().contains("\\\"nonce\\\":2"), "the canonical JSON of the action refused: " + bad.body());
        // nothing of the demo account changed: its nonce 2 is still free
        ok(http.submit(demo, 2, order(Side.BID, PRICE, QTY, TimeInForce.IOC)));
    }

    @Test
    void malformedRequestsGetClearHttpErrors() throws Exception
    {
        final HttpResponse<String> missing = http.post("/api/v1/trading/actions",
            "{\"payload\":{}}".getBytes(StandardCharsets.US_ASCII));
        refused(missing, 400, "MALFORMED");
        assertEquals("payload.account", field(missing.body(), "field"));
        final HttpResponse<String> notJson = http.post("/api/v1/trading/actions",
            "not json".getBytes(StandardCharsets.US_ASCII));
        refused(notJson, 400, "MALFORMED");
        assertEquals("50", notJson.headers().firstValue("x-ratelimit-limit").orElse(null),
            "every submit answer names the budget");
        assertTrue(notJson.headers().firstValue("x-ratelimit-remaining").isEmpty(),
            "no account, so no account's state");
        refused(http.get("/api/v1/trading/actions"), 405, "METHOD_NOT_ALLOWED");
        refused(http.post("/api/v1/public/exchange-info", new byte[0]), 405, "METHOD_NOT_ALLOWED");
        refused(http.get("/api/v1/nothing"), 404, "NOT_FOUND");
        assertEquals(413, http.post("/api/v1/trading/actions", new byte[513 * 1024]).statusCode());
    }

    @Test
    void theBannersOrderCommandNamesADeploymentOtherThanTheCliDefault() throws Exception
    {
        assertFalse(Banner.text(appliance, new ApplianceContext().dataDir(folder)).contains("--chain-id"),
            "the demo deployment is the CLI's default");
        final String banner = Banner.text(appliance, restartWith("other-chain", "chain.id", "1"));
        assertTrue(banner.contains("tools/bin/venue sign place --key-file ") &&
            banner.contains(" --chain-id 1 --contract 0x" + "5e".repeat(20) + " --nonce 1 "), banner);
    }

    @Test
    void theMetricsRouteCountsWhatTheVenueDid() throws Exception
    {
        final long acceptedBefore = metric(http.get("/api/v1/admin/metrics").body(),
            "venue_engine_decisions_total{code=\"accepted\"}");
        ok(http.submit(demo, 1, order(Side.BID, PRICE, QTY, TimeInForce.IOC)));
        refused(http.submit(demo, 1, order(Side.BID, PRICE, QTY, TimeInForce.IOC)), 200, "nonce_replayed");
        refused(http.post("/api/v1/trading/actions", "not json".getBytes(StandardCharsets.US_ASCII)), 400, "MALFORMED");

        final HttpResponse<String> metrics = http.get("/api/v1/admin/metrics");
        assertEquals(200, metrics.statusCode());
        assertEquals("text/plain; version=0.0.4; charset=utf-8",
            metrics.headers().firstValue("content-type").orElse(null));
        final String text = metrics.body();
        assertEquals(acceptedBefore + 1, metric(text, "venue_engine_decisions_total{code=\"accepted\"}"), text);
        assertEquals(1, metric(text, "venue_engine_decisions_total{code=\"NONCE_REPLAYED\"}"), text);
        assertEquals(1, metric(text, "venue_journaled_refusals_total{reason=\"MALFORMED\"}"), text);
        assertEquals(1, metric(text, "venue_http_responses_total{status=\"400\"}"), text);
        assertEquals(0, metric(text, "venue_mm_window_refusals_total{scope=\"account\"}"), text);
        // a refusal is answered once journaled; the engine reads past it on its own thread, so it may not have yet
        String settled = text;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (metric(settled, "venue_sequence{stage=\"applied\"}") <
            metric(settled, "venue_sequence{stage=\"journaled\"}") &&
            System.nanoTime() < deadline)
        {
            Thread.sleep(10);
            settled = http.get("/api/v1/admin/metrics").body();
        }
        final long journaled = metric(settled, "venue_sequence{stage=\"journaled\"}");
        assertEquals(journaled, metric(settled, "venue_sequence{stage=\"applied\"}"),
            "every journaled command was applied");
        assertTrue(metric(settled, "venue_sequence{stage=\"answered\"}") <= journaled);
        assertEquals(0, metric(settled, "venue_engine_stopped"), "the engine shard runs");
        // the three submits above were timed inside the lane, each in some bucket
        final long timed = metric(settled, "venue_http_submit_latency_us_count");
        assertTrue(timed >= 3, settled);
        assertEquals(timed, metric(settled, "venue_http_submit_latency_us_bucket{le=\"+Inf\"}"));
        assertTrue(text.contains("# TYPE venue_engine_decisions_total counter\n"), text);
        // the journals' pages ahead of their writers are faulted in by the pretoucher, which has given up on nothing
        final long pretouchDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (metric(settled, "venue_journal_pretouched_pages_total") == 0 && System.nanoTime() < pretouchDeadline)
        {
            Thread.sleep(10);
            settled = http.get("/api/v1/admin/metrics").body();
        }
        assertTrue(metric(settled, "venue_journal_pretouched_pages_total") > 0, settled);
        assertEquals(0, metric(settled, "venue_journal_pretouch_failures_total"), settled);

        // a restart re-reads the recent history to answer status queries, but counts from its own start
        appliance.close();
        open();
        final String restarted = http.get("/api/v1/admin/metrics").body();
        assertEquals(0, metric(restarted, "venue_engine_decisions_total{code=\"accepted\"}"), restarted);
        assertEquals(0, metric(restarted, "venue_journaled_refusals_total{reason=\"MALFORMED\"}"), restarted);
        assertEquals(journaled, metric(restarted, "venue_sequence{stage=\"applied\"}"), restarted);
    }

    @Test
    void theMetricsRouteAnswersOnlyTheOperatorsAddresses() throws Exception
    {
        restartWith("metrics-elsewhere", "metrics.allow", "10.1.2.3");
        refused(http.get("/api/v1/admin/metrics"), 404, "NOT_FOUND");
    }

    /** threads=compact: the sequencer's appends and the engine's events wake nobody, as one thread does all three. */
    @Test
    void engineSequencerAndResponderOnOneThreadTradeAsOnTwo() throws Exception
    {
        restartWith("compact-threads", "threads", "compact");
        demoBidMeetsATradersAsk();
    }

    /** threads=single: the verifier on the front thread too, woken by the lane's offers; nothing else changes. */
    @Test
    void verifierOnTheFrontThreadTradesAsOnItsOwn() throws Exception
    {
        restartWith("single-thread", "threads", "single");
        assertTrue(log().contains("the verifier, engine, sequencer and responder on one thread"), log());
        demoBidMeetsATradersAsk();
    }

    /** On a fresh demo: the demo account's bid (nonce 1) and a funded trader's ask at its price trade once. */
    private void demoBidMeetsATradersAsk() throws Exception
    {
        operator = VenueHttp.key(appliance.operatorKeyFile());
        demo = VenueHttp.key(appliance.demoAccountKeyFile());
        final Secp256k1KeyPair trader = fundedTrader();
        ok(http.submit(demo, 1, order(Side.BID, PRICE, QTY, TimeInForce.GTC)));
        final HttpResponse<String> ask = http.submit(trader, 0, order(Side.ASK, PRICE, QTY, TimeInForce.GTC));
        ok(ask);
        assertEquals("1", field(ask.body(), "trades"), ask.body());
    }

    /**
     * engine.shards=2: the spot market on one matching shard, the outcome market on the other; a restart recovers them.
     */
    @Test
    void twoMatchingShardsTradeAndRecover() throws Exception
    {
        final String[] settings = {"engine.shards", "2", "engine.group.commands", "4", "mm.cross.shard.credit.enabled",
            "true", "mm.cross.shard.credit.haircut.ppm", "1000"};
        restartWith("shards", settings);
        assertTrue(http.get("/api/v1/bsl/limits").body().contains("\"matchingShards\":2,\"groupCommands\":4," +
            "\"crossShardCredit\":{\"active\":true,\"haircutPpm\":1000,"), "the limits in force, served live");
        demoBidMeetsATradersAsk();
        final HttpResponse<String> resting = http.submit(demo, 2, order(Side.BID, 49_000 * UNIT, QTY, TimeInForce.GTC));
        ok(resting);
        ok(http.submit(demo, 3, new Split(OUTCOME_MARKET, 5 * UNIT)));
        final HttpResponse<String> yes = http.submit(demo, 4, new SpotPlaceOrder(OUTCOME_MARKET, Book.YES,
            Side.ASK, 600_000, UNIT, null, TimeInForce.GTC, false, false, -1));
        ok(yes);

        restartWith("shards", settings);
        assertEquals("resting",
            field(http.get("/api/v1/trading/orders/" + field(resting.body(), "orderId")).body(), "status"));
        assertEquals("resting",
            field(http.get("/api/v1/trading/orders/" + field(yes.body(), "orderId")).body(), "status"));
        // amends on the shards: both orders move to new prices, on their markets' two shards
        final OrderId bid = OrderId.of(field(resting.body(), "orderId"));
        ok(http.submit(demo, 5, new Amend(bid, 48_000 * UNIT, QTY)));
        ok(http.submit(demo, 6, new Amend(OrderId.of(field(yes.body(), "orderId")), 610_000, UNIT)));
        assertEquals(String.valueOf(48_000 * UNIT), field(http.get("/api/v1/trading/orders/" + bid).body(), "price"));
        assertEquals("610000",
            field(http.get("/api/v1/trading/orders/" + field(yes.body(), "orderId")).body(), "price"));
        ok(http.submit(demo, 7, new Cancel(bid)));
        refused(http.submit(demo, 8, new Cancel(bid)), 200, "UNKNOWN_ORDER");
        ok(http.submit(demo, 9, new Cancel(OrderId.of(field(yes.body(), "orderId")))));
    }

    /**
     * Closes this test's appliance and starts a fresh demo in {@code name} with the settings (key, value, key, value…).
     */
    private ApplianceContext restartWith(final String name, final String... settings) throws Exception
    {
        appliance.close();
        final Path data = folder.resolve(name);
        final ApplianceContext context = new ApplianceContext().dataDir(data).httpPort(0).edgeExempt("127.0.0.1");
        for (int i = 0; i < settings.length; i += 2)
        {
            ApplianceConfigFile.apply(context, settings[i], settings[i + 1], data);
        }
        appliance = Appliance.start(context, new PrintStream(logBytes, true, StandardCharsets.UTF_8));
        http = new VenueHttp(appliance.baseUrl());
        return context;
    }

    /** The value of one sample line ("name{label} value") of a metrics text. */
    private static long metric(final String text, final String sample)
    {
        for (final String line : text.split("\n"))
        {
            if (line.startsWith(sample + " "))
            {
                return Long.parseLong(line.substring(sample.length() + 1));
            }
        }
        throw new AssertionError("no sample " + sample + " in\n" + text);
    }

    @Test
    void retryAfterIsWhenTheAccountsBucketHoldsAnActionAgain() throws Exception
    {
        restartWith("slow", "limits.account.actions", "2", "limits.account.window.ms", "60000");
        final Secp256k1KeyPair account = VenueHttp.key(appliance.demoAccountKeyFile());
        final long first = System.currentTimeMillis();
        ok(http.submit(account, 1, order(Side.BID, PRICE, QTY, TimeInForce.IOC)));
        ok(http.submit(account, 2, order(Side.BID, PRICE, QTY, TimeInForce.IOC)));
        final HttpResponse<String> limited = http.submit(account, 3, order(Side.BID, PRICE, QTY, TimeInForce.IOC));
        final long elapsed = System.currentTimeMillis() - first;
        refused(limited, 429, "rate_limited");
        assertEquals("2", limited.headers().firstValue("x-ratelimit-limit").orElse(null));
        // 2 actions per 60,000 ms: one action refills 30,000 ms after the first was taken, less what has passed since
        final long retryAfter = Long.parseLong(limited.headers().firstValue("retry-after").orElseThrow());
        assertTrue(retryAfter <= 30 && retryAfter >= 30 - (elapsed + 999) / 1000,
            "Retry-After " + retryAfter + " after " + elapsed +
            " ms");
    }

    @Test
    void theAccountLimiterAnswers429WithRetryAfter() throws Exception
    {
        // 50 actions, one back each second (the default's 50 a second would let a slow machine's round trips keep up):
        // sent back to back, some of the first 120 must be refused, long before seventy seconds pass
        restartWith("limited", "limits.account.actions", "50", "limits.account.window.ms", "50000");
        demo = VenueHttp.key(appliance.demoAccountKeyFile());
        HttpResponse<String> last = null;
        byte[] limitedBody = null;
        for (int nonce = 1; nonce <= 120; nonce++)
        {
            limitedBody = VenueHttp.body(demo, demo.address(), nonce, order(Side.BID, PRICE, QTY, TimeInForce.IOC),
                PreimageMode.RAW);
            last = http.post("/api/v1/trading/actions", limitedBody);
            if (last.statusCode() == 429)
            {
                break;
            }
        }
        refused(last, 429, "rate_limited");
        assertEquals("1", last.headers().firstValue("retry-after").orElse(null));
        assertEquals("50", last.headers().firstValue("x-ratelimit-limit").orElse(null));
        assertEquals("0", last.headers().firstValue("x-ratelimit-remaining").orElse(null));
        final long resetMs = Long.parseLong(last.headers().firstValue("x-ratelimit-reset-ms").orElseThrow());
        assertTrue(resetMs > 0);
        // the bucket holds an action again (capacity - 1) refills before it is full: the wait the refusal's
        // reset implies
        final long oneBackMs = TokenBucket.retryAfterMsFromReset(resetMs, 50, 50_000);
        assertTrue(oneBackMs > 0 && oneBackMs <= 1_000,
            "one action back in " + oneBackMs + " ms (reset " + resetMs + " ms)");

        // the refusal used nothing: the same body, once that much time has passed (commands are stamped on the wall
        // clock), is accepted, and the status query tells the accepted story
        Thread.sleep(oneBackMs);
        final HttpResponse<String> again = http.post("/api/v1/trading/actions", limitedBody);
        ok(again);
        assertTrue(
            http.get("/api/v1/trading/actions/" + field(again.body(), "digest")).body()
            .endsWith("\"answer\":" + again.body() + "}"),
            "the accepted answer replaced the rate-limit refusal");
    }

    @Test
    void theEdgeThrottleAnswersPlainTextAndJournalsEachRefusal() throws Exception
    {
        appliance.close();
        final Path throttled = folder.resolve("throttled");
        // the throttle's clock is the test's: it stands still until the test moves it, so no token comes back meanwhile
        final AtomicLong edgeClock = new AtomicLong(System.nanoTime());
        appliance = Appliance.start(new ApplianceContext().dataDir(throttled).httpPort(0).edgeClock(edgeClock::get),
            new PrintStream(logBytes, true, StandardCharsets.UTF_8));
        http = new VenueHttp(appliance.baseUrl());
        final List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (int i = 0; i < 30; i++)
        {
            sent.add(http.postAsync("/api/v1/trading/actions", "{}".getBytes(StandardCharsets.US_ASCII)));
        }
        int limited = 0;
        for (final CompletableFuture<HttpResponse<String>> request : sent)
        {
            final HttpResponse<String> answer = request.get();
            if (answer.statusCode() == 429)
            {
                limited++;
                assertEquals("Too Many Requests! Wait for 1s", answer.body());
                assertTrue(answer.headers().firstValue("content-type").orElse("").startsWith("text/plain"));
                assertEquals("1", answer.headers().firstValue("x-ratelimit-after").orElse(null));
                assertEquals("1", answer.headers().firstValue("retry-after").orElse(null));
                assertEquals("50", answer.headers().firstValue("x-ratelimit-limit").orElse(null));
            }
            else
            {
                refused(answer, 400, "MALFORMED");
            }
        }
        // a burst of 20, then 10 a second: with the clock standing still, the last 10 of the 30 are refused at the edge
        assertEquals(10, limited, "limited");
        // the journal gets the first refusal at once and the rest as one count, written with the next request a second
        // on (or by the gateway's once-a-second flush of held counts, whichever comes first)
        edgeClock.addAndGet(TimeUnit.MILLISECONDS.toNanos(1_100));
        refused(http.post("/api/v1/trading/actions", "{}".getBytes(StandardCharsets.US_ASCII)), 400, "MALFORMED");
        appliance.close();
        appliance = null;
        final long[] edgeRecords = {0, 0};
        for (final String record : requestRejections(throttled, RequestRejectReason.EDGE_RATE_LIMITED))
        {
            edgeRecords[0]++;
            assertTrue(
                record.startsWith("EDGE_RATE_LIMITED: edge throttle: 127.0.0.1 above 10/s (burst 20): "), record);
            edgeRecords[1] += Long.parseLong(record.replaceAll(".*: (\\d+) requests? refused$", "$1"));
        }
        assertEquals(2, edgeRecords[0], "two records: the first refusal, then the count of the rest");
        assertEquals(limited, edgeRecords[1], "every request refused at the edge is counted in the command journal");
    }

    @Test
    void aClientThatTimedOutAsksWhatHappenedToItsAction() throws Exception
    {
        final byte[] body = VenueHttp.body(demo, demo.address(), 1, order(Side.BID, PRICE, QTY, TimeInForce.GTC),
            PreimageMode.RAW);
        final HttpResponse<String> first = http.post("/api/v1/trading/actions", body);
        ok(first);
        final String digest = field(first.body(), "digest");
        refused(http.post("/api/v1/trading/actions", body), 200, "nonce_replayed");

        final HttpResponse<String> status = http.get("/api/v1/trading/actions/" + digest);
        assertEquals(200, status.statusCode(), status.body());
        assertEquals("{\"ok\":true,\"found\":true,\"httpStatus\":200,\"answer\":" + first.body() + "}", status.body(),
            "the first answer is kept: the resubmission's refusal does not replace it");

        refused(http.get("/api/v1/trading/actions/0x" + "ab".repeat(32)), 404, "UNKNOWN_ACTION");
        refused(http.get("/api/v1/trading/actions/0xABC"), 400, "BAD_REQUEST");
        refused(http.post("/api/v1/trading/actions/" + digest, new byte[0]), 405, "METHOD_NOT_ALLOWED");
    }

    @Test
    void aClientThatLostCountAsksForItsNonceWindow() throws Exception
    {
        final String path = "/api/v1/trading/accounts/" + demo.address() + "/nonce";
        assertEquals("{\"ok\":true,\"account\":\"" + demo.address() + "\",\"nonceFloor\":0,\"nonceWindow\":256," +
            "\"nextUsableNonce\":0,\"seen\":false}", http.get(path).body(), "no nonce consumed yet");
        ok(http.submit(demo, 0, order(Side.BID, PRICE, QTY, TimeInForce.IOC)));
        final HttpResponse<String> afterTwo = http.submit(demo, 2, order(Side.BID, PRICE, QTY, TimeInForce.IOC));
        ok(afterTwo);
        final String window = http.get(path).body();
        assertTrue(window.startsWith("{\"ok\":true,\"account\":\"" + demo.address() +
            "\",\"nonceFloor\":1,\"nonceWindow\":256," +
            "\"nextUsableNonce\":3,\"seen\":true,\"asOfSequence\":" + field(afterTwo.body(), "sequence") + "}"),
            window);
        refused(http.get("/api/v1/trading/accounts/0xABC/nonce"), 400, "BAD_REQUEST");
        final HttpResponse<String> posted = http.post("/api/v1/trading/accounts/0xABC/nonce", new byte[0]);
        assertEquals(405, posted.statusCode(), "the method is checked first, as on every route: " + posted.body());
        assertEquals("GET, HEAD", posted.headers().firstValue("allow").orElse(null));

        appliance.close();
        appliance = null;
        open();
        assertEquals(window, http.get(path).body(), "rebuilt from the event journal at start");
    }

    @Test
    void aDemoSetUpCutShortIsFinishedAtTheNextStart() throws Exception
    {
        appliance.close();
        final Path cut = folder.resolve("cut");
        Files.createDirectories(cut.resolve("keys"));
        Files.copy(folder.resolve("keys").resolve("operator.key"), cut.resolve("keys").resolve("operator.key"));
        Files.copy(folder.resolve("keys").resolve("demo-account.key"), cut.resolve("keys").resolve("demo-account.key"));
        // as if the first start had died after two of the six set-up actions
        final ApplianceContext production = new ApplianceContext().dataDir(cut).httpPort(0).demo(false)
            .operator(operator.address()).chainId(ApplianceContext.DEMO_CHAIN_ID)
            .verifyingContract(ApplianceContext.DEMO_CONTRACT);
        appliance = Appliance.start(production, new PrintStream(logBytes, true, StandardCharsets.UTF_8));
        http = new VenueHttp(appliance.baseUrl());
        ok(http.operator(operator, 0, new CreateAsset(USDC, "USDC")));
        ok(http.operator(operator, 1, new CreateAsset(BTC, "BTC")));
        appliance.close();
        logBytes.reset();

        appliance = Appliance.start(new ApplianceContext().dataDir(cut).httpPort(0),
            new PrintStream(logBytes, true, StandardCharsets.UTF_8));
        http = new VenueHttp(appliance.baseUrl());
        assertTrue(log().contains("demo venue set up: 4 operator actions journaled"), log());
        final String info = http.get("/api/v1/public/exchange-info").body();
        assertTrue(info.contains("\"symbol\":\"BTC-USDC\"") && info.contains("\"kind\":\"OUTCOME\""), info);
        ok(http.submit(demo, 1, order(Side.BID, PRICE, QTY, TimeInForce.GTC)));
    }

    @Test
    void restartRecoversTheVenue() throws Exception
    {
        final HttpResponse<String> resting = http.submit(demo, 1, order(Side.BID, 49_000 * UNIT, QTY, TimeInForce.GTC));
        ok(resting);
        final String sequence = field(resting.body(), "sequence");
        appliance.close();
        appliance = null;

        open();
        assertTrue(log().contains("recovered: 0 commands replayed"), "the state was written at close: " + log());
        assertTrue(http.get("/api/v1/public/exchange-info").body().contains("BTC-USDC"),
            "listing rebuilt from the events");
        assertEquals("resting",
            field(http.get("/api/v1/trading/orders/" + field(resting.body(), "orderId")).body(), "status"),
            "order status rebuilt from the events");
        assertTrue(http.get("/api/v1/trading/actions/" + field(resting.body(), "digest")).body()
            .endsWith("\"answer\":" + resting.body() + "}"), "recent answers rebuilt from the journals");
        refused(http.submit(demo, 1, new Cancel(OrderId.of(field(resting.body(), "orderId")))), 200, "nonce_replayed");
        final HttpResponse<String> cancel = http.submit(demo, 2,
            new Cancel(OrderId.of(field(resting.body(), "orderId"))));
        ok(cancel);
        assertEquals(Long.parseLong(sequence) + 2, Long.parseLong(field(cancel.body(), "sequence")),
            "one sequence, no gap");
    }
}
