package io.venue.appliance;

import io.venue.action.Action;
import io.venue.action.Book;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.HaltMarket;
import io.venue.action.KillScope;
import io.venue.action.ResumeMarket;
import io.venue.action.SetKillSwitch;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.auth.AgentAuthorizationText;
import io.venue.auth.CredentialDelivery;
import io.venue.auth.AgentKey;
import io.venue.auth.AgentKind;
import io.venue.auth.AgentRevocationText;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.crypto.Eip191;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.codec.JsonWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;

import static io.venue.appliance.ApplianceContext.DEMO_CHAIN_ID;
import static io.venue.appliance.ApplianceContext.DEMO_CONTRACT;
import static io.venue.appliance.DemoVenue.BTC;
import static io.venue.appliance.DemoVenue.OUTCOME_MARKET;
import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static io.venue.appliance.DemoVenue.USDC;
import static io.venue.appliance.VenueHttp.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each engine reject code that the trading, operator and agent routes can produce, one request each, over HTTP with
 * real signatures against a running appliance: the status and the code of docs/API.md. (The nonce, rate, signer,
 * scope, credit, balance, price and order codes are in ApplianceTest and AgentRoutesTest; SHARD_BUSY and
 * QUEUE_LIMIT are refused by the HTTP lane before the engine, in HttpGatewayTest.)
 */
class RejectCodesOverHttpTest
{
    private static final long PRICE = 50_000 * UNIT;
    private static final long QTY = 10_000;

    @TempDir
    Path folder;

    private Appliance appliance;
    private VenueHttp http;
    private Secp256k1KeyPair operator;
    private Secp256k1KeyPair demo;
    private long operatorNonce = 6; // after the demo set-up's 0 to 5
    private long demoNonce;

    @BeforeEach
    void start() throws Exception
    {
        final ApplianceContext context = new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1");
        ApplianceConfigFile.apply(context, "limits.open.orders.account.market", "2", folder);
        ApplianceConfigFile.apply(context, "limits.accounts", "4", folder);
        appliance = Appliance.start(context, new PrintStream(OutputStream.nullOutputStream()));
        http = new VenueHttp(appliance.baseUrl());
        operator = VenueHttp.key(appliance.operatorKeyFile());
        demo = VenueHttp.key(appliance.demoAccountKeyFile());
    }

    @AfterEach
    void stop()
    {
        appliance.close();
    }

    private static SpotPlaceOrder order(final long market, final Book book, final Side side, final long price,
        final long qty, final StpMode stp, final TimeInForce tif, final boolean reduceOnly)
    {
        return new SpotPlaceOrder(market, book, side, price, qty, stp, tif, false, reduceOnly, -1);
    }

    private static SpotPlaceOrder bid(final long price, final TimeInForce tif)
    {
        return order(SPOT_MARKET, null, Side.BID, price, QTY, null, tif, false);
    }

    private HttpResponse<String> trade(final Action action) throws Exception
    {
        return http.submit(demo, demoNonce++, action);
    }

    private HttpResponse<String> admin(final Action action) throws Exception
    {
        return http.operator(operator, operatorNonce++, action);
    }

    private static void ok(final HttpResponse<String> response)
    {
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().startsWith("{\"ok\":true"), response.body());
    }

    private static void refused(final HttpResponse<String> response, final String code)
    {
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().startsWith("{\"ok\":false"), response.body());
        assertEquals(code, field(response.body(), "code"), response.body());
        assertTrue(field(response.body(), "message").length() > 10, "every refusal says why: " + response.body());
    }

    @Test
    void orderRefusals() throws Exception
    {
        refused(trade(order(99, null, Side.BID, PRICE, QTY, null, TimeInForce.GTC, false)), "UNKNOWN_MARKET");
        refused(trade(order(SPOT_MARKET, null, Side.BID, PRICE, QTY + 1, null, TimeInForce.GTC, false)), "INVALID_QTY");
        refused(trade(order(SPOT_MARKET, Book.YES, Side.BID, PRICE, QTY, null, TimeInForce.GTC, false)),
            "BOOK_MISMATCH");
        refused(trade(order(OUTCOME_MARKET, null, Side.BID, 500_000, UNIT, null, TimeInForce.GTC, false)),
            "BOOK_MISMATCH");
        refused(trade(order(SPOT_MARKET, null, Side.BID, PRICE, QTY, null, TimeInForce.GTC, true)),
            "REDUCE_ONLY_VIOLATION");
        refused(trade(bid(PRICE, TimeInForce.FOK)), "FOK_NOT_FILLED");

        // a resting ask of the demo account itself: crossing it
        ok(trade(order(SPOT_MARKET, null, Side.ASK, PRICE, QTY, null, TimeInForce.GTC, false)));
        refused(trade(bid(PRICE, TimeInForce.POST_ONLY)), "POST_ONLY_WOULD_CROSS");
        refused(trade(order(SPOT_MARKET, null, Side.BID, PRICE, QTY, StpMode.REJECT, TimeInForce.GTC, false)),
            "STP_REJECTED");

        // two open orders per account and market in this test's configuration
        ok(trade(bid(40_000 * UNIT, TimeInForce.GTC)));
        refused(trade(bid(40_000 * UNIT, TimeInForce.GTC)), "OPEN_ORDER_LIMIT");
    }

    @Test
    void gatesOfTheOperator() throws Exception
    {
        ok(admin(new HaltMarket(SPOT_MARKET)));
        refused(trade(bid(PRICE, TimeInForce.GTC)), "MARKET_HALTED");
        ok(admin(new ResumeMarket(SPOT_MARKET)));
        ok(admin(new SetKillSwitch(KillScope.ACCOUNT, demo.address(), SetKillSwitch.NO_MARKET, true)));
        refused(trade(bid(PRICE, TimeInForce.GTC)), "KILL_SWITCH");
        ok(admin(new SetKillSwitch(KillScope.ACCOUNT, demo.address(), SetKillSwitch.NO_MARKET, false)));
        ok(trade(bid(40_000 * UNIT, TimeInForce.GTC)));

        refused(admin(new CreateAsset(USDC, "USDX")), "ASSET_EXISTS");
        refused(admin(new CreateSpotMarket(SPOT_MARKET, BTC, USDC, 10_000, 1_000, 1_000)), "MARKET_EXISTS");
        refused(admin(new CreateSpotMarket(9, 99, USDC, 10_000, 1_000, 1_000)), "UNKNOWN_ASSET");
        refused(admin(new CreateSpotMarket(9, USDC, USDC, 10_000, 1_000, 1_000)), "INVALID_ACTION");

        // the state holds 4 accounts in this configuration (the operator and the demo account among them): new ones
        // are funded until one finds no room
        HttpResponse<String> deposit;
        int funded = 0;
        do
        {
            deposit = admin(new Deposit(Secp256k1KeyPair.generate(new SecureRandom()).address(), USDC, UNIT));
            funded++;
        }
        while (deposit.body().startsWith("{\"ok\":true") && funded < 10);
        refused(deposit, "CAPACITY_LIMIT");
    }

    @Test
    void agentRefusals() throws Exception
    {
        final long now = System.currentTimeMillis();
        final Secp256k1KeyPair agent = Secp256k1KeyPair.generate(new SecureRandom());
        ok(createAgent(demo, demoNonce++, agent, now));
        refused(createAgent(demo, demoNonce++, agent, now), "AGENT_EXISTS"); // the key already signs for an agent
        // a wallet the venue holds nothing for cannot fill the venue's agent records
        refused(createAgent(Secp256k1KeyPair.generate(new SecureRandom()), 1, agent, now), "ACCOUNT_NOT_FUNDED");

        final AgentRevocationText revocation = AgentRevocationText.builder().owner(demo.address())
            .agentId("spk_0123456789abcdef")
            .nonce(demoNonce++).issuedAtMs(now).chainId(DEMO_CHAIN_ID).verifyingContract(DEMO_CONTRACT).build();
        refused(http.post("/api/agents/revoke", new JsonWriter().field("userWalletAddress", demo.address().toString())
            .field("agentId", "spk_0123456789abcdef").field("nonce", revocation.nonce()).field("issuedAtMs", now)
            .field("signature", sign(demo, revocation.text())).toJson().getBytes(StandardCharsets.UTF_8)),
            "UNKNOWN_AGENT");
    }

    /** The delivery key of this test's agent creates: their secrets are never read here. */
    private static final CredentialDelivery.Requester DELIVERY_KEY =
        new CredentialDelivery.Requester(new SecureRandom());

    private HttpResponse<String> createAgent(
        final Secp256k1KeyPair owner, final long nonce, final Secp256k1KeyPair agent, final long now) throws Exception
    {
        final AgentAuthorizationText text = AgentAuthorizationText.builder().owner(owner.address())
            .agent(AgentKey.secp256k1(agent.address())).kind(AgentKind.API).scopes(Scope.TRADE).policy("")
            .deliveryKey(DELIVERY_KEY.keyText()).nonce(nonce).issuedAtMs(now).expiresAtMs(now + AgentKind.DAY_MS)
            .chainId(DEMO_CHAIN_ID)
            .verifyingContract(DEMO_CONTRACT).build();
        return http.post("/api/agents/create", new JsonWriter().field("userWalletAddress", owner.address().toString())
            .field("agent", text.agent().text()).field("agentKind", "api").raw("scopes", "[\"trade\"]")
            .field("policy", "").field("deliveryKey", text.deliveryKey())
            .field("nonce", text.nonce()).field("issuedAtMs", now).field("expiresAtMs", text.expiresAtMs())
            .raw("authorization", new JsonWriter().field("signature", sign(owner, text.text())).toJson()).toJson()
            .getBytes(StandardCharsets.UTF_8));
    }

    private static String sign(final Secp256k1KeyPair owner, final String text)
    {
        return Hex.to0x(new Secp256k1Signer(owner).sign(Eip191.personalHash(text), PreimageMode.RAW));
    }
}
