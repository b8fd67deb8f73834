package io.venue.appliance;

import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.auth.AgentKind;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.crypto.CancelByIdText;
import io.venue.crypto.Eip191;
import io.venue.crypto.Eip712Order;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.CancelReplaceDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.SignerMatch;
import io.venue.sequencer.SignatureAudit;
import io.venue.svc.SvcRequestSigner;
import io.venue.codec.JsonWriter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Random;

import static io.venue.appliance.ApplianceContext.DEMO_CHAIN_ID;
import static io.venue.appliance.ApplianceContext.DEMO_CONTRACT;
import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static io.venue.appliance.VenueHttp.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MM cancel-replace over HTTP (spec 5.3, 5.9, 8.2): an institutional agent's SVC-* headers, the place leg signed
 * as an EIP-712 Order and the cancel leg as an EIP-191 CancelById text by the trader, the lane's windows and their
 * limits route, and the journal audit that verifies both legs again.
 */
class CancelReplaceTest
{
    private static final String ROUTE = "/api/v1/mm/orders/replace";

    @TempDir
    Path folder;

    private Appliance appliance;
    private VenueHttp http;
    private Secp256k1KeyPair trader;
    private long nonce;
    private long svcNonce;

    private void start(final String accountActions) throws Exception
    {
        start(accountActions, null);
    }

    private void start(final String accountActions, final String basicPlanAccount) throws Exception
    {
        final ApplianceContext context = new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1");
        ApplianceConfigFile.apply(context, "mm.account.actions", accountActions, folder);
        if (basicPlanAccount != null)
        {
            ApplianceConfigFile.apply(context, "mm.builder.basic", basicPlanAccount, folder);
            ApplianceConfigFile.apply(context, "mm.builder.basic.per.minute", "1", folder);
        }
        appliance = Appliance.start(context, new PrintStream(OutputStream.nullOutputStream()));
        http = new VenueHttp(appliance.baseUrl());
        trader = VenueHttp.key(appliance.demoAccountKeyFile());
    }

    @AfterEach
    void stop()
    {
        if (appliance != null)
        {
            appliance.close();
        }
    }

    /** An HMAC credential of a new agent of the trader, of this kind and scopes. */
    private SvcRequestSigner agent(final AgentKind kind, final Scope... scopes) throws Exception
    {
        return http.agentCredential(trader, nonce++, kind, scopes);
    }

    private static String sign(final byte[] hash, final Secp256k1KeyPair key)
    {
        return Hex.to0x(new Secp256k1Signer(key).sign(hash, PreimageMode.RAW));
    }

    private String restingBid(final long price) throws Exception
    {
        final HttpResponse<String> bid = http.submit(trader, nonce++,
            new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, price, 10_000,
            null, TimeInForce.GTC, false, false, -1));
        assertEquals(200, bid.statusCode(), bid.body());
        return field(bid.body(), "orderId");
    }

    /**
     * The body of a replace: cancel {@code cancel}, place a bid at {@code price}; legs signed by the two keys given.
     */
    private String replaceBody(final String cancel, final long price, final Secp256k1KeyPair placeSigner,
        final Secp256k1KeyPair cancelSigner)
    {
        return replaceBody(cancel, SPOT_MARKET, price, placeSigner, cancelSigner);
    }

    /** As above, the bid on {@code market}. */
    private String replaceBody(final String cancel, final long market, final long price,
        final Secp256k1KeyPair placeSigner, final Secp256k1KeyPair cancelSigner)
    {
        final byte[] hash = new byte[32];
        new Eip712Order(DEMO_CHAIN_ID, DEMO_CONTRACT)
            .hash(market, trader.address(), Eip712Order.YES_BID, price, 10_000, 0,
            nonce, hash, 0);
        final String body = new JsonWriter()
            .raw("cancel", new JsonWriter().field("orderId", cancel).field("signature",
                sign(Eip191.personalHash(CancelByIdText.text(OrderId.of(cancel), trader.address())), cancelSigner))
                .toJson())
            .raw("place", new JsonWriter().field("marketId", market).field("trader", trader.address().toString())
                .field("side", 0).field("price", price).field("qty", 10_000).field("expiry", 0).field("nonce", nonce)
                .field("signature", sign(hash, placeSigner)).toJson())
            .toJson();
        nonce++;
        return body;
    }

    private HttpResponse<String> replace(final SvcRequestSigner signer, final String body) throws Exception
    {
        return http.svcPost(signer, ++svcNonce, ROUTE, body.getBytes(StandardCharsets.UTF_8), Map.of());
    }

    @Test
    void anInstitutionalAgentReplacesTheTradersOrder() throws Exception
    {
        start("4000");
        final SvcRequestSigner mm = agent(AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final String old = restingBid(48_000 * UNIT);

        final HttpResponse<String> replaced = replace(mm, replaceBody(old, 48_500 * UNIT, trader, trader));
        assertEquals(200, replaced.statusCode(), replaced.body());
        assertTrue(replaced.body().startsWith("{\"ok\":true"), replaced.body());
        final String newId = field(replaced.body(), "orderId");
        assertEquals("1", field(replaced.body(), "usedActions"), replaced.body());
        assertEquals("3999", field(replaced.body(), "remainingActions"), replaced.body());
        assertEquals("cancelled", field(http.get("/api/v1/trading/orders/" + old).body(), "status"));
        final String placed = http.get("/api/v1/trading/orders/" + newId).body();
        assertEquals("resting", field(placed, "status"), placed);
        assertEquals(Long.toString(48_500 * UNIT), field(placed, "price"));

        // the order named is gone: the cancel leg is refused, the place leg still goes ahead
        final HttpResponse<String> again = replace(mm, replaceBody(old, 48_600 * UNIT, trader, trader));
        assertEquals(200, again.statusCode(), again.body());
        assertTrue(again.body().contains("\"legRejects\":[{\"leg\":0,\"code\":\"UNKNOWN_ORDER\"}]"), again.body());

        // both legs need the trader's (one) signer
        final Secp256k1KeyPair stranger = Secp256k1KeyPair.generate(new SecureRandom());
        final HttpResponse<String> forged = replace(mm, replaceBody(newId, 48_700 * UNIT, trader, stranger));
        assertEquals(401, forged.statusCode(), forged.body());
        assertEquals("BAD_SIGNATURE", field(forged.body(), "code"), forged.body());
        assertTrue(forged.body().contains("both legs need the same signer"), forged.body());

        // only an institutional agent's credential holding quote enters MM orders
        final SvcRequestSigner api = agent(AgentKind.API, Scope.QUOTE);
        assertEquals(403, replace(api, replaceBody(newId, 48_700 * UNIT, trader, trader)).statusCode());
        final SvcRequestSigner trading = agent(AgentKind.INSTITUTIONAL, Scope.TRADE, Scope.CANCEL);
        assertEquals(403, replace(trading, replaceBody(newId, 48_700 * UNIT, trader, trader)).statusCode());
        final HttpResponse<String> anonymous = http.post(ROUTE, "{}".getBytes(StandardCharsets.UTF_8));
        assertEquals(400, anonymous.statusCode(), anonymous.body());
        assertEquals("MISSING_HEADER", field(anonymous.body(), "code"), "no machine headers");

        for (final String route : new String[]{"/api/v1/bsl/limits", "/api/v1/mm/limits"})
        {
            final HttpResponse<String> limits = http.get(route);
            assertEquals(200, limits.statusCode());
            assertTrue(limits.body().contains("\"windowMs\":1000,\"maxActionsPerWindow\":4000"), limits.body());
            assertTrue(limits.body().contains("\"builderPlans\":{\"windowMs\":60000,\"basic\":600,\"pro\":3000}"),
                limits.body());
            assertTrue(limits.body()
                .contains("\"tradingLimits\":{\"accountLimiter\":{\"maxActionsPerWindow\":50,\"windowMs\":1000," +
                "\"burst\":50},\"edgeThrottle\":{\"requestsPerSecond\":10,\"burst\":20}," +
                "\"maxOpenOrdersPerAccount\":50000," +
                "\"maxOpenOrdersPerAccountAndMarket\":10000,\"maxPriceLevelsPerSide\":1000,\"maxLegsPerBatch\":1000," +
                "\"matchingShards\":1,\"groupCommands\":64,\"crossShardCredit\":{\"active\":false,\"haircutPpm\":0," +
                "\"maxAccountLocked\":9223372036854775807,\"maxMarketLocked\":9223372036854775807," +
                "\"killSwitch\":false}}"), limits.body());
        }

        // the journal holds both legs' signatures: the audit verifies them again from the record
        appliance.close();
        appliance = null;
        int verified = 0;
        final SignatureAudit audit = new SignatureAudit(DEMO_CHAIN_ID, DEMO_CONTRACT, false);
        try (Journal commands = Journal.openReadOnly(folder.resolve("journal").resolve("commands"));
            JournalTailer tailer = commands.tailer())
        {
            final int[] counts = new int[2];
            while (tailer.read((buffer, offset, length, index) ->
            {
                final SignatureAudit.Verdict verdict = audit.check(buffer, offset, length);
                assertTrue(verdict != SignatureAudit.Verdict.FAILED, audit.failure());
                if (verdict == SignatureAudit.Verdict.VERIFIED &&
                    (buffer.getShort(offset + 2, ByteOrder.LITTLE_ENDIAN) & 0xFFFF) ==
                        CancelReplaceDecoder.TEMPLATE_ID)
                {
                    counts[0]++;
                }
            }))
            {
                verified = counts[0];
            }
        }
        assertEquals(2, verified, "both journaled replaces verify again");

        // a record whose signer fields were edited after the fact no longer passes
        try (Journal commands = Journal.openReadOnly(folder.resolve("journal").resolve("commands"));
            JournalTailer tailer = commands.tailer())
        {
            final boolean[] checked = {false};
            while (tailer.read((buffer, offset, length, index) ->
            {
                if ((buffer.getShort(offset + 2, ByteOrder.LITTLE_ENDIAN) & 0xFFFF) ==
                    CancelReplaceDecoder.TEMPLATE_ID && !checked[0])
                {
                    final UnsafeBuffer copy = new UnsafeBuffer(new byte[length]);
                    copy.putBytes(0, buffer, offset, length);
                    final int match = MessageHeaderDecoder.ENCODED_LENGTH +
                        CancelReplaceDecoder.envelopeEncodingOffset() +
                        ActionEnvelopeDecoder.signerMatchEncodingOffset();
                    copy.putByte(match, (byte)SignerMatch.OTHER.value());
                    assertEquals(SignatureAudit.Verdict.FAILED, audit.check(copy, 0, length));
                    checked[0] = true;
                }
            }))
            {
                // to the end
            }
            assertTrue(checked[0]);
        }
    }

    @Test
    void aBuilderPlanLimitsTheTraderPerMinute() throws Exception
    {
        final Path keyFile = folder.resolve("keys").resolve("demo-account.key");
        final Secp256k1KeyPair demo = Secp256k1KeyPair.generate(new SecureRandom());
        KeyFiles.writePrivate(keyFile, Hex.to0x(demo.privateKey()) + "\n");
        start("4000", demo.address().toString());
        final SvcRequestSigner mm = agent(AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final String order = restingBid(47_000 * UNIT);
        final HttpResponse<String> first = replace(mm, replaceBody(order, 47_100 * UNIT, trader, trader));
        assertEquals(200, first.statusCode(), first.body());
        final HttpResponse<String> second = replace(mm,
            replaceBody(field(first.body(), "orderId"), 47_200 * UNIT, trader, trader));
        assertEquals(429, second.statusCode(), second.body());
        assertEquals("builder_plan max_actions_per_window", field(second.body(), "error"));
        assertTrue(second.body().contains("\"windowMs\":60000,\"maxActionsPerWindow\":1"), second.body());
    }

    @Test
    void theAccountWindowRefusesWithTheBodyOfSpec25() throws Exception
    {
        start("2");
        final SvcRequestSigner mm = agent(AgentKind.INSTITUTIONAL, Scope.QUOTE);
        String order = restingBid(47_000 * UNIT);
        for (int i = 0; i < 2; i++)
        {
            final HttpResponse<String> ok = replace(mm, replaceBody(order, (47_100 + i) * UNIT, trader, trader));
            assertEquals(200, ok.statusCode(), ok.body());
            order = field(ok.body(), "orderId");
        }
        final HttpResponse<String> full = replace(mm, replaceBody(order, 47_500 * UNIT, trader, trader));
        assertEquals(429, full.statusCode(), full.body());
        assertEquals("account max_actions_per_window", field(full.body(), "error"));
        assertTrue(full.body().contains("\"rateLimit\":{\"account\":\"" + trader.address() + "\",\"windowMs\":1000," +
            "\"maxActionsPerWindow\":2,\"usedActions\":2,\"remainingActions\":0,\"resetInMs\":"), full.body());
        assertTrue(full.headers().firstValue("retry-after").isPresent());
        assertEquals("resting", field(http.get("/api/v1/trading/orders/" + order).body(), "status"),
            "a refused replace changes nothing");
    }

    @Test
    void aReplaceOnAnUnlistedMarketIsRefusedBeforeAnyWindowOrLeg() throws Exception
    {
        start("4000");
        final SvcRequestSigner mm = agent(AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final String order = restingBid(47_000 * UNIT);
        final HttpResponse<String> unlisted = replace(mm, replaceBody(order, 900_000, 47_100 * UNIT, trader, trader));
        assertEquals(400, unlisted.statusCode(), unlisted.body());
        assertEquals("place.marketId", field(unlisted.body(), "field"), unlisted.body());
        assertEquals("resting", field(http.get("/api/v1/trading/orders/" + order).body(), "status"),
            "the cancel leg did not run");
        final HttpResponse<String> listed = replace(mm, replaceBody(order, 47_100 * UNIT, trader, trader));
        assertEquals(200, listed.statusCode(), listed.body());
        assertEquals("1", field(listed.body(), "usedActions"),
            "the refused replace charged no window: " + listed.body());
    }

    /**
     * Mutated bodies, each with valid machine headers over its own bytes: a clear 4xx or a decided answer, never a 5xx.
     */
    @Test
    void mutatedBodiesWithValidHeadersGetClearAnswers() throws Exception
    {
        start("100000");
        final SvcRequestSigner mm = agent(AgentKind.INSTITUTIONAL, Scope.QUOTE);
        final String valid = replaceBody(restingBid(46_000 * UNIT), 46_100 * UNIT, trader, trader);
        final Random random = new Random(20261122L);
        for (int i = 0; i < 150; i++)
        {
            final byte[] body = valid.getBytes(StandardCharsets.UTF_8);
            for (int j = random.nextInt(3); j >= 0; j--)
            {
                body[random.nextInt(body.length)] = (byte)(0x20 + random.nextInt(0x5f));
            }
            final HttpResponse<String> answer = replace(mm, new String(body, StandardCharsets.UTF_8));
            final String context = "case " + i + ": " + new String(body, StandardCharsets.UTF_8);
            assertTrue(answer.statusCode() < 500, answer.statusCode() + " " + answer.body() + " " + context);
            assertTrue(answer.body().startsWith("{\"ok\":"), answer.body() + " " + context);
        }
        assertEquals(200, http.get("/api/v1/public/exchange-info").statusCode(), "still serving");
    }
}
