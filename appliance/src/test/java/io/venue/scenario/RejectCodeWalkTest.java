package io.venue.scenario;

import io.venue.action.ActionPayload;
import io.venue.action.BatchLeg;
import io.venue.action.Book;
import io.venue.action.CancelAll;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Merge;
import io.venue.action.Side;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.auth.AgentKey;
import io.venue.auth.AgentKind;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.RequestRejectReason;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every refusal the venue can answer, each provoked by a real request on every lane and its HTTP status and wire code
 * asserted: every {@link RejectCode} of the engine, every {@link RequestRejectReason} of the gateways, and every code
 * of docs/API.md's table of submit answers. The expected answers are the documents' (docs/JOURNAL-SCHEMA.md's wire
 * codes, docs/API.md's statuses) unless the lane declares it answers otherwise ({@link LaneClient#refusal}).
 *
 * <p>Each code is in exactly one catalogue below: walked on every lane, walked once on a route no lane carries (the
 * agent routes, an unknown route), or listed as not provokable from a client with the reason. A code an enum or the
 * table gains that is in none makes {@code every...IsWalkedOrListed} fail; the listed ones show as skipped with their
 * reason.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RejectCodeWalkTest extends ScenarioSupport
{
    /** A provocation on one lane. */
    @FunctionalInterface
    interface LaneWalk
    {
        void walk(RejectCodeWalkTest test, Lanes.Lane on) throws Exception;
    }

    /** A provocation on a route no order-entry lane carries (the same whatever the lane). */
    @FunctionalInterface
    interface VenueWalk
    {
        void walk(RejectCodeWalkTest test) throws Exception;
    }

    // ---- the catalogues ----

    static final Map<RejectCode, LaneWalk> ENGINE_ON_LANES = new EnumMap<>(RejectCode.class);
    static final Map<RejectCode, VenueWalk> ENGINE_ON_VENUE_ROUTES = new EnumMap<>(RejectCode.class);
    static final Map<RejectCode, String> ENGINE_NOT_PROVOKABLE = new EnumMap<>(RejectCode.class);
    static final Map<RequestRejectReason, LaneWalk> GATEWAY_ON_LANES = new EnumMap<>(RequestRejectReason.class);
    static final Map<RequestRejectReason, VenueWalk> GATEWAY_ON_VENUE_ROUTES = new EnumMap<>(RequestRejectReason.class);
    static final Map<RequestRejectReason, String> GATEWAY_NOT_PROVOKABLE = new EnumMap<>(RequestRejectReason.class);
    /** docs/API.md's codes that are neither an engine code nor a gateway reason's. */
    static final Map<String, LaneWalk> API_ON_LANES = new LinkedHashMap<>();
    static final Map<String, VenueWalk> API_ON_VENUE_ROUTES = new LinkedHashMap<>();
    static final Map<String, String> API_NOT_PROVOKABLE = new LinkedHashMap<>();

    static
    {
        ENGINE_ON_LANES.put(RejectCode.NONCE_BELOW_FLOOR, RejectCodeWalkTest::nonceBelowFloor);
        ENGINE_ON_LANES.put(RejectCode.NONCE_OUTSIDE_WINDOW, RejectCodeWalkTest::nonceOutsideWindow);
        ENGINE_ON_LANES.put(RejectCode.NONCE_REPLAYED, RejectCodeWalkTest::nonceReplayed);
        ENGINE_ON_LANES.put(RejectCode.RATE_LIMITED, RejectCodeWalkTest::rateLimited);
        ENGINE_ON_LANES.put(RejectCode.RISK_CREDIT_LIMIT, RejectCodeWalkTest::riskCreditLimit);
        ENGINE_ON_LANES.put(RejectCode.KILL_SWITCH, RejectCodeWalkTest::killSwitch);
        ENGINE_ON_LANES.put(RejectCode.MARKET_HALTED, RejectCodeWalkTest::marketHalted);
        ENGINE_ON_LANES.put(RejectCode.UNAUTHORIZED_SIGNER, RejectCodeWalkTest::unauthorizedSigner);
        ENGINE_ON_LANES.put(RejectCode.SCOPE_DENIED, RejectCodeWalkTest::scopeDenied);
        ENGINE_ON_LANES.put(RejectCode.UNKNOWN_MARKET, RejectCodeWalkTest::unknownMarket);
        ENGINE_ON_LANES.put(RejectCode.UNKNOWN_ORDER, RejectCodeWalkTest::unknownOrder);
        ENGINE_ON_LANES.put(RejectCode.INVALID_PRICE, RejectCodeWalkTest::invalidPrice);
        ENGINE_ON_LANES.put(RejectCode.INVALID_QTY, RejectCodeWalkTest::invalidQty);
        ENGINE_ON_LANES.put(RejectCode.POST_ONLY_WOULD_CROSS, RejectCodeWalkTest::postOnlyWouldCross);
        ENGINE_ON_LANES.put(RejectCode.FOK_NOT_FILLED, RejectCodeWalkTest::fokNotFilled);
        ENGINE_ON_LANES.put(RejectCode.STP_REJECTED, RejectCodeWalkTest::stpRejected);
        ENGINE_ON_LANES.put(RejectCode.OPEN_ORDER_LIMIT, RejectCodeWalkTest::openOrderLimit);
        ENGINE_ON_LANES.put(RejectCode.INVALID_ACTION, RejectCodeWalkTest::invalidAction);
        ENGINE_ON_LANES.put(RejectCode.BOOK_MISMATCH, RejectCodeWalkTest::bookMismatch);
        ENGINE_ON_LANES.put(RejectCode.NOT_OPERATOR, RejectCodeWalkTest::notOperator);
        ENGINE_ON_LANES.put(RejectCode.REDUCE_ONLY_VIOLATION, RejectCodeWalkTest::reduceOnlyViolation);
        ENGINE_ON_LANES.put(RejectCode.MARKET_EXISTS, RejectCodeWalkTest::marketExists);
        ENGINE_ON_LANES.put(RejectCode.ASSET_EXISTS, RejectCodeWalkTest::assetExists);
        ENGINE_ON_LANES.put(RejectCode.UNKNOWN_ASSET, RejectCodeWalkTest::unknownAsset);
        ENGINE_ON_LANES.put(RejectCode.INSUFFICIENT_BALANCE, RejectCodeWalkTest::insufficientBalance);
        ENGINE_ON_LANES.put(RejectCode.CROSS_SHARD_CREDIT_KILL_SWITCH, RejectCodeWalkTest::crossShardKillSwitch);
        ENGINE_ON_LANES.put(RejectCode.CROSS_SHARD_CREDIT_HAIRCUT, RejectCodeWalkTest::crossShardHaircut);
        ENGINE_ON_LANES.put(RejectCode.CROSS_SHARD_CREDIT_ACCOUNT_CAP, RejectCodeWalkTest::crossShardAccountCap);
        ENGINE_ON_LANES.put(RejectCode.CROSS_SHARD_CREDIT_MARKET_CAP, RejectCodeWalkTest::crossShardMarketCap);

        ENGINE_ON_VENUE_ROUTES.put(RejectCode.UNKNOWN_AGENT, RejectCodeWalkTest::unknownAgent);
        ENGINE_ON_VENUE_ROUTES.put(RejectCode.AGENT_EXISTS, RejectCodeWalkTest::agentExists);
        ENGINE_ON_VENUE_ROUTES.put(RejectCode.CAPACITY_LIMIT, RejectCodeWalkTest::capacityLimit);
        ENGINE_ON_VENUE_ROUTES.put(RejectCode.ACCOUNT_NOT_FUNDED, RejectCodeWalkTest::accountNotFunded);

        ENGINE_NOT_PROVOKABLE.put(RejectCode.SHARD_BUSY,
            "no engine path writes it: the gateway refuses a busy shard's " +
            "requests before the engine, with the same wire code (walked as RequestRejectReason.SHARD_BUSY)");
        ENGINE_NOT_PROVOKABLE.put(RejectCode.QUEUE_LIMIT, "no engine path writes it: the gateway refuses with a full " +
            "queue before the engine, with the same wire code (walked as RequestRejectReason.QUEUE_LIMIT)");
        ENGINE_NOT_PROVOKABLE.put(RejectCode.MARKET_NOT_ALLOWED, "only a FIX session's order (SESSION_CREDENTIAL, " +
            "journal version 16) passes the onboarding record, and FIX is not among these lanes: walked over " +
            "QuickFIX/J by FixOrderEntryTest.theOnboardingRecordsAllowedMarketsAndRateTierApply, in the engine by " +
            "FixOnboardingTest");
        ENGINE_NOT_PROVOKABLE.put(RejectCode.FIX_NOT_ENABLED, "only a FIX session's order (SESSION_CREDENTIAL, " +
            "journal version 16) passes the onboarding record, and a session whose record lacks FIX is refused at " +
            "its Logon (FixLaneTest); a record changed under a live session: FixOnboardingTest");
        ENGINE_NOT_PROVOKABLE.put(RejectCode.NULL_VAL,
            "SBE's null value (255): never written (docs/JOURNAL-SCHEMA.md)");

        GATEWAY_ON_LANES.put(RequestRejectReason.MALFORMED, RejectCodeWalkTest::malformed);
        GATEWAY_ON_LANES.put(RequestRejectReason.BAD_SIGNATURE, RejectCodeWalkTest::badSignature);
        GATEWAY_ON_LANES.put(RequestRejectReason.BODY_TOO_LARGE, RejectCodeWalkTest::bodyTooLarge);
        GATEWAY_ON_LANES.put(RequestRejectReason.EDGE_RATE_LIMITED, RejectCodeWalkTest::edgeRateLimited);
        GATEWAY_ON_LANES.put(RequestRejectReason.SHARD_BUSY, RejectCodeWalkTest::shardBusy);
        GATEWAY_ON_LANES.put(RequestRejectReason.QUEUE_LIMIT, RejectCodeWalkTest::queueLimit);
        GATEWAY_ON_LANES.put(RequestRejectReason.TRANSPORT_AUTH_FAILED, RejectCodeWalkTest::transportAuthFailed);
        GATEWAY_ON_LANES.put(RequestRejectReason.MACHINE_NONCE_REPLAYED, RejectCodeWalkTest::machineNonceReplayed);
        GATEWAY_ON_LANES.put(RequestRejectReason.TIMESTAMP_SKEW, RejectCodeWalkTest::timestampSkew);
        GATEWAY_ON_LANES.put(RequestRejectReason.LANE_RATE_LIMITED, RejectCodeWalkTest::laneRateLimited);
        GATEWAY_ON_VENUE_ROUTES.put(RequestRejectReason.OWNER_SIGNATURE_INVALID,
            RejectCodeWalkTest::ownerSignatureInvalid);
        GATEWAY_NOT_PROVOKABLE.put(RequestRejectReason.NULL_VAL, "SBE's null value (255): never written");

        API_ON_LANES.put("SHUTTING_DOWN", RejectCodeWalkTest::shuttingDown);
        API_ON_LANES.put("TIMEOUT", RejectCodeWalkTest::timeout);
        API_ON_VENUE_ROUTES.put("NOT_FOUND", RejectCodeWalkTest::notFound);
        API_ON_VENUE_ROUTES.put("METHOD_NOT_ALLOWED", RejectCodeWalkTest::methodNotAllowed);
        API_NOT_PROVOKABLE.put("INTERNAL",
            "only when the engine cannot read a journaled command record, a defect: every " +
            "record is encoded by the sequencer from a verified action, so no request makes one (EngineFuzzTest " +
            "damages records)");
    }

    // ---- the venues, started on first use and closed after the class ----

    private final Map<Venue.Profile, Venue> venues = new EnumMap<>(Venue.Profile.class);

    private Venue venue(final Venue.Profile profile) throws Exception
    {
        Venue venue = venues.get(profile);
        if (venue == null)
        {
            venue = Venue.start(profile);
            venues.put(profile, venue);
        }
        return venue;
    }

    @AfterAll
    void stop() throws Exception
    {
        for (final Venue venue : venues.values())
        {
            venue.close();
        }
    }

    private LaneClient lane(final Lanes.Lane on, final Venue.Profile profile) throws Exception
    {
        return connect(on, venue(profile));
    }

    private LaneClient lane(final Lanes.Lane on) throws Exception
    {
        return lane(on, Venue.Profile.MAIN);
    }

    private Venue main() throws Exception
    {
        return venue(Venue.Profile.MAIN);
    }

    // ---- the walks ----

    static Stream<Arguments> engineCodesOnLanes()
    {
        return crossed(ENGINE_ON_LANES.keySet().stream().map(Object.class::cast).toList());
    }

    static Stream<Arguments> gatewayReasonsOnLanes()
    {
        return crossed(GATEWAY_ON_LANES.keySet().stream().map(Object.class::cast).toList());
    }

    static Stream<Arguments> apiCodesOnLanes()
    {
        return crossed(List.copyOf(API_ON_LANES.keySet()));
    }

    private static Stream<Arguments> crossed(final List<Object> codes)
    {
        final List<Arguments> arguments = new ArrayList<>();
        for (final Object code : codes)
        {
            for (final Lanes.Lane lane : Lanes.ALL)
            {
                arguments.add(Arguments.of(lane, code));
            }
        }
        return arguments.stream();
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("engineCodesOnLanes")
    void engineCodeOnEveryLane(final Lanes.Lane on, final RejectCode code) throws Exception
    {
        ENGINE_ON_LANES.get(code).walk(this, on);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engineCodesOnVenueRoutes")
    void engineCodeOnAVenueRoute(final RejectCode code) throws Exception
    {
        ENGINE_ON_VENUE_ROUTES.get(code).walk(this);
    }

    static Stream<RejectCode> engineCodesOnVenueRoutes()
    {
        return ENGINE_ON_VENUE_ROUTES.keySet().stream();
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("gatewayReasonsOnLanes")
    void gatewayRefusalOnEveryLane(final Lanes.Lane on, final RequestRejectReason reason) throws Exception
    {
        final LaneClient lane = lane(on);
        Assumptions.assumeTrue(lane.refusal(reason) != null,
            () -> "no request of the " + lane.name() + " lane meets " + reason + ": " + lane.neverMeets(reason));
        GATEWAY_ON_LANES.get(reason).walk(this, on);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("gatewayReasonsOnVenueRoutes")
    void gatewayRefusalOnAVenueRoute(final RequestRejectReason reason) throws Exception
    {
        GATEWAY_ON_VENUE_ROUTES.get(reason).walk(this);
    }

    static Stream<RequestRejectReason> gatewayReasonsOnVenueRoutes()
    {
        return GATEWAY_ON_VENUE_ROUTES.keySet().stream();
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("apiCodesOnLanes")
    void apiCodeOnEveryLane(final Lanes.Lane on, final String code) throws Exception
    {
        API_ON_LANES.get(code).walk(this, on);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("apiCodesOnVenueRoutes")
    void apiCodeOnAVenueRoute(final String code) throws Exception
    {
        API_ON_VENUE_ROUTES.get(code).walk(this);
    }

    static Stream<String> apiCodesOnVenueRoutes()
    {
        return API_ON_VENUE_ROUTES.keySet().stream();
    }

    // ---- completeness: every code walked or listed, once ----

    @ParameterizedTest(name = "{0}")
    @EnumSource(RejectCode.class)
    void everyEngineCodeIsWalkedOrListed(final RejectCode code)
    {
        final int places = (ENGINE_ON_LANES.containsKey(code) ? 1 : 0) +
            (ENGINE_ON_VENUE_ROUTES.containsKey(code) ? 1 : 0) +
            (ENGINE_NOT_PROVOKABLE.containsKey(code) ? 1 : 0);
        assertEquals(1, places,
            "RejectCode." + code + " must be walked (ENGINE_ON_LANES or ENGINE_ON_VENUE_ROUTES) or " +
            "listed with its reason (ENGINE_NOT_PROVOKABLE), once");
        if (code != RejectCode.NULL_VAL)
        {
            assertNotNull(Docs.wire(code), "documented in docs/JOURNAL-SCHEMA.md section 7");
        }
        final String reason = ENGINE_NOT_PROVOKABLE.get(code);
        Assumptions.assumeTrue(reason == null, () -> "not provokable from a client: " + reason);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(RequestRejectReason.class)
    void everyGatewayReasonIsWalkedOrListed(final RequestRejectReason reason)
    {
        final int places = (GATEWAY_ON_LANES.containsKey(reason) ? 1 : 0) +
            (GATEWAY_ON_VENUE_ROUTES.containsKey(reason) ? 1 : 0) +
            (GATEWAY_NOT_PROVOKABLE.containsKey(reason) ? 1 : 0);
        assertEquals(1, places, "RequestRejectReason." + reason + " must be walked (GATEWAY_ON_LANES or " +
            "GATEWAY_ON_VENUE_ROUTES) or listed with its reason (GATEWAY_NOT_PROVOKABLE), once");
        if (reason != RequestRejectReason.NULL_VAL)
        {
            assertTrue(Docs.schemaRequestRejectReasons().contains(reason.name()),
                "documented in docs/JOURNAL-SCHEMA.md section 5");
        }
        final String why = GATEWAY_NOT_PROVOKABLE.get(reason);
        Assumptions.assumeTrue(why == null, () -> "not provokable from a client: " + why);
    }

    static Stream<String> apiCodes()
    {
        return Docs.apiCodes().stream();
    }

    /**
     * Each code of docs/API.md's table, and the status the table gives it where a lane's answer is compared with it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("apiCodes")
    void everyApiTableCodeIsWalkedOrListed(final String code)
    {
        final List<String> walkedAs = new ArrayList<>();
        Docs.schemaWireCodes().forEach((name, wire) ->
        {
            if (wire.equals(code))
            {
                walkedAs.add("RejectCode." + name);
            }
        });
        final JsonLane json = new JsonLane(null);
        for (final RequestRejectReason reason : RequestRejectReason.values())
        {
            final Refusal refusal = json.refusal(reason);
            if (refusal != null && Objects.equals(refusal.code() == null ? Docs.PLAIN_TEXT : refusal.code(), code))
            {
                walkedAs.add("RequestRejectReason." + reason);
                assertEquals(Docs.apiStatus(code), refusal.status(),
                    "the JSON lane answers " + reason + " with the table's status");
            }
        }
        walkedAs.addAll(API_ON_LANES.containsKey(code) ? List.of("API_ON_LANES") : List.of());
        walkedAs.addAll(API_ON_VENUE_ROUTES.containsKey(code) ? List.of("API_ON_VENUE_ROUTES") : List.of());
        walkedAs.addAll(API_NOT_PROVOKABLE.containsKey(code) ? List.of("API_NOT_PROVOKABLE") : List.of());
        // an engine code and the gateway reason of the same wire code (SHARD_BUSY, QUEUE_LIMIT) are one code of
        // the table
        final long apiOwn = walkedAs.stream().filter(place -> place.startsWith("API_")).count();
        assertTrue(apiOwn == 0 ? !walkedAs.isEmpty() : walkedAs.size() == 1,
            () -> "docs/API.md's " + code + " must be the wire " +
            "code of a walked RejectCode or RequestRejectReason, or be walked or listed once in API_*: " + walkedAs);
        final String why = API_NOT_PROVOKABLE.get(code);
        Assumptions.assumeTrue(why == null, () -> "not provokable from a client: " + why);
    }

    // ---- the engine's codes, on every lane ----

    private SpotPlaceOrder ioc(final long market)
    {
        return order(market, Side.BID, PRICE, 1, TimeInForce.IOC);
    }

    void nonceBelowFloor(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        final long market = main().newSpotMarket();
        final long nonce = trader.peekNonce();
        accepted(lane.send(trader, trader.sign(ioc(market))));
        // the window's floor has passed the nonce: another action under it can never be used
        final Result below = lane.send(trader, trader.sign(nonce, bid(market, PRICE, 1)));
        refused(lane, RejectCode.NONCE_BELOW_FLOOR, below);
        if (lane.can(Capability.HTTP_ANSWERS))
        {
            assertEquals(nonce + 1, Result.number(below.answer(), "nonceFloor"), below::toString);
            assertEquals(256, Result.number(below.answer(), "nonceWindow"), below::toString);
            assertEquals(nonce + 1, Result.number(below.answer(), "nextUsableNonce"), below::toString);
        }
    }

    void nonceReplayed(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        final long market = main().newSpotMarket();
        final long nonce = trader.peekNonce();
        // the nonce after the next, used: the next stays below it, so the floor stays where it is
        final SignedAction used = trader.sign(nonce + 1, ioc(market));
        accepted(lane.send(trader, used));
        final Result replayed = lane.send(trader, used);
        refused(lane, RejectCode.NONCE_REPLAYED, replayed);
        if (lane.can(Capability.HTTP_ANSWERS))
        {
            assertEquals(nonce, Result.number(replayed.answer(), "nonceFloor"), replayed::toString);
            assertEquals(nonce + 2, Result.number(replayed.answer(), "nextUsableNonce"), replayed::toString);
        }
    }

    void nonceOutsideWindow(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        final long market = main().newSpotMarket();
        final long floor = lane.nonceWindow(trader.account()).floor();
        final Result outside = lane.send(trader, trader.sign(floor + 256, bid(market, PRICE, 1)));
        refused(lane, RejectCode.NONCE_OUTSIDE_WINDOW, outside);
        if (lane.can(Capability.HTTP_ANSWERS))
        {
            assertEquals(floor, Result.number(outside.answer(), "nonceFloor"), outside::toString);
        }
        // refused before the nonce step: the action can still be sent under a nonce inside the window
        accepted(lane.send(trader, trader.sign(floor + 255, bid(market, PRICE, 1))));
    }

    void rateLimited(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        requires(lane, Capability.ACCOUNT_LIMITER);
        final Trader trader = trader(lane, main());
        final long market = main().newSpotMarket();
        // the main venue's limiter holds 20 actions an account and refills 20 a minute
        Result last = null;
        for (int sent = 0; sent < 40 && (last == null || last.accepted()); sent++)
        {
            last = lane.submit(trader, ioc(market));
        }
        refused(lane, RejectCode.RATE_LIMITED, last);
        assertEquals("20", last.header("x-ratelimit-limit"), last::toString);
        assertEquals("0", last.header("x-ratelimit-remaining"), last::toString);
        assertTrue(Long.parseLong(last.header("retry-after")) >= 1, last::toString);
    }

    void riskCreditLimit(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        // 100 BTC at 50,000 USDC: 5,000,000 USDC to reserve, 100,000 held
        refused(lane, RejectCode.RISK_CREDIT_LIMIT, lane.place(trader, bid(main().newSpotMarket(), PRICE, 100_000)));
    }

    void killSwitch(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        final long market = main().newSpotMarket();
        main().killSwitch(trader.account(), true);
        refused(lane, RejectCode.KILL_SWITCH, lane.place(trader, bid(market, PRICE, 1)));
    }

    void marketHalted(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        final long market = main().newSpotMarket();
        main().halt(market);
        refused(lane, RejectCode.MARKET_HALTED, lane.place(trader, bid(market, PRICE, 1)));
    }

    void unauthorizedSigner(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        final Secp256k1KeyPair stranger = Secp256k1KeyPair.generate(new SecureRandom());
        final Result forged = lane.place(trader.signedBy(stranger), bid(main().newSpotMarket(), PRICE, 1));
        refused(lane, RejectCode.UNAUTHORIZED_SIGNER, forged);
        if (lane.can(Capability.HTTP_ANSWERS))
        {
            assertEquals(trader.account().toString(), forged.answer().get("expectedSigner"), forged::toString);
        }
    }

    void scopeDenied(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        // an agent that may cancel, not trade
        final Secp256k1KeyPair canceller = main().newAgentKey(trader, Scope.CANCEL);
        refused(lane, RejectCode.SCOPE_DENIED,
            lane.place(trader.signedBy(canceller), bid(main().newSpotMarket(), PRICE, 1)));
    }

    void unknownMarket(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        refused(lane, RejectCode.UNKNOWN_MARKET, lane.place(trader, bid(999_999, PRICE, 1)));
    }

    void unknownOrder(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        requires(lane, Capability.CANCEL);
        final Trader trader = trader(lane, main());
        final byte[] id = new byte[32];
        new SecureRandom().nextBytes(id);
        refused(lane, RejectCode.UNKNOWN_ORDER, lane.cancel(trader, Hex.to0x(id)));
    }

    void invalidPrice(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        refused(lane, RejectCode.INVALID_PRICE, lane.place(trader, bid(main().newSpotMarket(), PRICE + 1, 1)));
    }

    void invalidQty(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        refused(lane, RejectCode.INVALID_QTY,
            lane.place(trader, new SpotPlaceOrder(main().newSpotMarket(), null, Side.BID, PRICE,
            LOT + 1, null, TimeInForce.GTC, false, false, -1)));
    }

    void postOnlyWouldCross(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        final long market = main().newSpotMarket();
        accepted(lane.place(trader, ask(market, PRICE, 1)));
        refused(lane, RejectCode.POST_ONLY_WOULD_CROSS,
            lane.place(trader, order(market, Side.BID, PRICE, 1, TimeInForce.POST_ONLY)));
    }

    void fokNotFilled(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        refused(lane, RejectCode.FOK_NOT_FILLED,
            lane.place(trader, order(main().newSpotMarket(), Side.BID, PRICE, 1, TimeInForce.FOK)));
    }

    void stpRejected(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        final long market = main().newSpotMarket();
        accepted(lane.place(trader, ask(market, PRICE, 1)));
        refused(lane, RejectCode.STP_REJECTED, lane.place(trader, withStp(bid(market, PRICE, 1), StpMode.REJECT)));
    }

    void openOrderLimit(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        final long market = main().newSpotMarket();
        // the main venue allows 5 open orders per account and market
        for (int i = 0; i < 5; i++)
        {
            accepted(lane.place(trader, bid(market, PRICE - i * TICK, 1)));
        }
        refused(lane, RejectCode.OPEN_ORDER_LIMIT, lane.place(trader, bid(market, PRICE - 5 * TICK, 1)));
    }

    void invalidAction(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        // post-only and a market order at once
        refused(lane, RejectCode.INVALID_ACTION,
            lane.place(trader, new SpotPlaceOrder(main().newSpotMarket(), null, Side.BID, PRICE,
            LOT, null, TimeInForce.POST_ONLY, true, false, -1)));
    }

    void bookMismatch(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        refused(lane, RejectCode.BOOK_MISMATCH,
            lane.place(trader, new SpotPlaceOrder(main().newSpotMarket(), Book.YES, Side.BID,
            PRICE, LOT, null, TimeInForce.GTC, false, false, -1)));
    }

    void reduceOnlyViolation(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        // a reduce-only bid would raise the holding
        refused(lane, RejectCode.REDUCE_ONLY_VIOLATION,
            lane.place(trader, new SpotPlaceOrder(main().newSpotMarket(), null, Side.BID,
            PRICE, LOT, null, TimeInForce.GTC, false, true, -1)));
    }

    void notOperator(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        requires(lane, Capability.OPERATOR_ACTIONS);
        final Trader trader = trader(lane, main());
        refused(lane, RejectCode.NOT_OPERATOR, lane.submit(trader, new CreateAsset(99, "NOPE")));
    }

    void marketExists(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        requires(lane, Capability.OPERATOR_ACTIONS);
        refused(lane, RejectCode.MARKET_EXISTS,
            lane.submit(main().operator, new CreateSpotMarket(Venue.DEMO_SPOT_MARKET,
            Venue.BTC, Venue.USDC, TICK, LOT, LOT)));
    }

    void assetExists(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        requires(lane, Capability.OPERATOR_ACTIONS);
        refused(lane, RejectCode.ASSET_EXISTS, lane.submit(main().operator, new CreateAsset(Venue.USDC, "USDX")));
    }

    void unknownAsset(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        requires(lane, Capability.OPERATOR_ACTIONS);
        refused(lane, RejectCode.UNKNOWN_ASSET,
            lane.submit(main().operator, new CreateSpotMarket(9_999, 99, Venue.USDC, TICK, LOT,
            LOT)));
    }

    void insufficientBalance(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        requires(lane, Capability.SPLIT_MERGE);
        final Trader trader = trader(lane, main());
        // no shares to merge
        refused(lane, RejectCode.INSUFFICIENT_BALANCE, lane.submit(trader, new Merge(main().newOutcomeMarket(), UNIT)));
    }

    /**
     * A bid of one BTC at {@code usdc} USDC on a fresh market of a cross-shard venue, by a trader holding 100,000 USDC.
     */
    private Result crossShardBid(final Lanes.Lane on, final Venue.Profile profile, final long usdc) throws Exception
    {
        final Venue venue = venue(profile);
        final LaneClient lane = lane(on, profile);
        final Trader trader = trader(lane, venue);
        return lane.place(trader, bid(venue.newSpotMarket(), usdc * UNIT, UNIT / LOT));
    }

    void crossShardKillSwitch(final Lanes.Lane on) throws Exception
    {
        refused(lane(on, Venue.Profile.CROSS_SHARD_KILL_SWITCH), RejectCode.CROSS_SHARD_CREDIT_KILL_SWITCH,
            crossShardBid(on, Venue.Profile.CROSS_SHARD_KILL_SWITCH, 1_000));
    }

    void crossShardHaircut(final Lanes.Lane on) throws Exception
    {
        // 95,000 of 100,000 available: within the credit, not within it less the 10% haircut
        refused(lane(on, Venue.Profile.CROSS_SHARD), RejectCode.CROSS_SHARD_CREDIT_HAIRCUT,
            crossShardBid(on, Venue.Profile.CROSS_SHARD, 95_000));
    }

    void crossShardAccountCap(final Lanes.Lane on) throws Exception
    {
        // 60,000: within the haircut, above the 50,000 an account may lock
        refused(lane(on, Venue.Profile.CROSS_SHARD), RejectCode.CROSS_SHARD_CREDIT_ACCOUNT_CAP,
            crossShardBid(on, Venue.Profile.CROSS_SHARD, 60_000));
    }

    void crossShardMarketCap(final Lanes.Lane on) throws Exception
    {
        // 30,000: within the account's cap, above the 20,000 a market's orders may hold
        refused(lane(on, Venue.Profile.CROSS_SHARD), RejectCode.CROSS_SHARD_CREDIT_MARKET_CAP,
            crossShardBid(on, Venue.Profile.CROSS_SHARD, 30_000));
        // and 10,000 is admitted
        accepted(crossShardBid(on, Venue.Profile.CROSS_SHARD, 10_000));
    }

    // ---- the engine's codes on the agent routes (docs/API.md, Agents) ----

    private static void refusedOnRoute(final RejectCode code, final Result result)
    {
        refused(Docs.documentedRefusal(code), result);
        assertTrue(result.sequence() > 0, () -> "the engine's refusal names its command's sequence: " + result);
    }

    void unknownAgent() throws Exception
    {
        final Trader owner = main().newTrader();
        refusedOnRoute(RejectCode.UNKNOWN_AGENT, main().revokeAgent(owner, "spk_0123456789abcdef"));
    }

    void agentExists() throws Exception
    {
        final Trader owner = main().newTrader();
        final AgentKey agent = AgentKey.secp256k1(Secp256k1KeyPair.generate(new SecureRandom()).address());
        accepted(main().createAgent(owner, owner.wallet, agent, AgentKind.API, Scope.TRADE));
        refusedOnRoute(RejectCode.AGENT_EXISTS,
            main().createAgent(owner, owner.wallet, agent, AgentKind.API, Scope.TRADE));
    }

    void capacityLimit() throws Exception
    {
        final Trader owner = main().newTrader();
        // an owner holds at most 64 unrevoked agents
        for (int i = 0; i < 64; i++)
        {
            accepted(main()
                .createAgent(owner, owner.wallet,
                    AgentKey.secp256k1(Secp256k1KeyPair.generate(new SecureRandom()).address()),
                AgentKind.API, Scope.READ));
        }
        refusedOnRoute(RejectCode.CAPACITY_LIMIT, main().createAgent(owner, owner.wallet,
            AgentKey.secp256k1(Secp256k1KeyPair.generate(new SecureRandom()).address()), AgentKind.API, Scope.READ));
    }

    void accountNotFunded() throws Exception
    {
        final Trader owner = Trader.fresh();
        refusedOnRoute(RejectCode.ACCOUNT_NOT_FUNDED, main().createAgent(owner, owner.wallet,
            AgentKey.secp256k1(Secp256k1KeyPair.generate(new SecureRandom()).address()), AgentKind.API, Scope.TRADE));
    }

    void ownerSignatureInvalid() throws Exception
    {
        final Trader owner = main().newTrader();
        final Result forged = main().createAgent(owner, Secp256k1KeyPair.generate(new SecureRandom()),
            AgentKey.secp256k1(Secp256k1KeyPair.generate(new SecureRandom()).address()), AgentKind.API, Scope.TRADE);
        refused(new Refusal(401, "OWNER_SIGNATURE_INVALID"), forged);
    }

    // ---- the gateways' refusals, on every lane ----

    /** Asserts some of {@code results} are the lane's refusal for {@code reason}; returns how many. */
    private static long someRefused(final LaneClient lane, final RequestRejectReason reason, final List<Result> results)
    {
        final Refusal refusal = lane.refusal(reason);
        final long matching = results.stream().filter(refusal::matches).count();
        assertTrue(matching > 0, () -> "none of " + results.size() + " answered " + refusal + ": " + results);
        return matching;
    }

    void malformed(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        final long market = main().newSpotMarket();
        final long nonce = trader.peekNonce();
        refused(lane.refusal(RequestRejectReason.MALFORMED), lane.sendTruncated(trader, bid(market, PRICE, 1)));
        // nothing reached the engine: the nonce is still free
        accepted(lane.send(trader, trader.sign(nonce, bid(market, PRICE, 1))));
    }

    void badSignature(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        final byte[] zeros = new byte[65];
        zeros[64] = 27; // r = s = 0: no point on the curve has it
        final SignedAction unsigned = new SignedAction(new ActionPayload(trader.account(), trader.nextNonce(), null,
            System.currentTimeMillis(), bid(main().newSpotMarket(), PRICE, 1)), new Signature65(zeros));
        refused(lane.refusal(RequestRejectReason.BAD_SIGNATURE), lane.send(trader, unsigned));
    }

    void bodyTooLarge(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        final Trader trader = trader(lane, main());
        refused(lane.refusal(RequestRejectReason.BODY_TOO_LARGE), lane.sendOversized(trader));
    }

    void edgeRateLimited(final Lanes.Lane on) throws Exception
    {
        // a burst of 5, one more a second: 12 at once leave several refused at the edge
        final LaneClient lane = lane(on, Venue.Profile.EDGE);
        final List<Result> answers = lane.sendUnverifiable(12);
        someRefused(lane, RequestRejectReason.EDGE_RATE_LIMITED, answers);
        for (final Result answer : answers.stream().filter(Result::accepted).toList())
        {
            fail("nothing of this is accepted: " + answer);
        }
        final Result throttled = answers.stream()
            .filter(lane.refusal(RequestRejectReason.EDGE_RATE_LIMITED)::matches).findFirst()
            .orElseThrow();
        assertEquals("Too Many Requests! Wait for 1s", throttled.body());
        assertEquals("1", throttled.header("retry-after"));
    }

    void shardBusy(final Lanes.Lane on) throws Exception
    {
        // the shard is busy once one command behind the journal: a cancel of 9,000 resting orders keeps the engine on
        // one command for milliseconds, and requests sent meanwhile (in waves, until one is refused) find it behind
        final Venue venue = venue(Venue.Profile.BUSY);
        final LaneClient lane = lane(on, Venue.Profile.BUSY);
        final Refusal busy = lane.refusal(RequestRejectReason.SHARD_BUSY);
        final Trader maker = venue.newTrader();
        final long market = venue.newSpotMarket();
        Result refused = null;
        for (int round = 0; round < 5 && refused == null; round++)
        {
            venue.rest(maker, market, 9_000);
            final CompletableFuture<HttpResponse<String>> cancelAll =
                venue.sendAsync(maker, new CancelAll(market));
            for (int wave = 0; wave < 10 && refused == null; wave++)
            {
                refused = lane.sendUnverifiable(10).stream().filter(busy::matches).findFirst().orElse(null);
            }
            if (!Result.of(cancelAll.get(60, TimeUnit.SECONDS)).accepted())
            {
                // the cancel itself found the shard behind the waves' refusals: the book is cleared for the next round
                venue.setUp(maker, new CancelAll(market));
            }
        }
        assertNotNull(refused, "no request met a busy shard in 5 rounds");
        assertEquals("1", refused.header("retry-after"), refused::toString);
    }

    void queueLimit(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on, Venue.Profile.BACKLOG);
        requires(lane, Capability.FILLABLE_QUEUE);
        final Trader trader = trader(lane, venue(Venue.Profile.BACKLOG));
        // the lane's queue holds so much: the heaviest requests at once, more each round, until some find it full
        final Refusal full = lane.refusal(RequestRejectReason.QUEUE_LIMIT);
        List<Result> answers = List.of();
        for (final int n : new int[] {6, 100, 200})
        {
            answers = lane.sendHeaviest(trader, n);
            if (answers.stream().anyMatch(full::matches))
            {
                break;
            }
        }
        final List<Result> last = answers;
        final long refused = someRefused(lane, RequestRejectReason.QUEUE_LIMIT, last);
        assertTrue(refused < last.size(), () -> "the first is taken: " + last);
        last.stream().filter(lane.refusal(RequestRejectReason.QUEUE_LIMIT)::matches)
            .forEach(answer -> assertEquals("1", answer.header("retry-after"), answer::toString));
    }

    void transportAuthFailed(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        requires(lane, Capability.MACHINE_AUTH);
        final Trader trader = trader(lane, main());
        final Result unknown = machineAuth(lane).sendWithUnknownCredential(trader,
            bid(main().newSpotMarket(), PRICE, 1));
        refused(lane.refusal(RequestRejectReason.TRANSPORT_AUTH_FAILED), unknown);
        // a known key's bad signature is answered alike: a stranger cannot tell which key ids exist
        final Result badSignature = machineAuth(lane).sendWithBadMachineSignature(trader,
            bid(main().newSpotMarket(), PRICE, 1));
        refused(lane.refusal(RequestRejectReason.TRANSPORT_AUTH_FAILED), badSignature);
        assertEquals(unknown.body().replaceAll("\"serverTimeMs\":[0-9]+", ""),
            badSignature.body().replaceAll("\"serverTimeMs\":[0-9]+", ""));
    }

    void machineNonceReplayed(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        requires(lane, Capability.MACHINE_AUTH);
        final Trader trader = trader(lane, main());
        final long market = main().newSpotMarket();
        refused(lane.refusal(RequestRejectReason.MACHINE_NONCE_REPLAYED),
            machineAuth(lane)
            .sendWithReplayedMachineNonce(trader, bid(market, PRICE, 1), bid(market, PRICE - TICK, 1)));
    }

    void timestampSkew(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        requires(lane, Capability.MACHINE_AUTH);
        final Trader trader = trader(lane, main());
        refused(lane.refusal(RequestRejectReason.TIMESTAMP_SKEW),
            machineAuth(lane).sendWithStaleMachineTimestamp(trader, bid(main().newSpotMarket(), PRICE, 1)));
    }

    void laneRateLimited(final Lanes.Lane on) throws Exception
    {
        final LaneClient lane = lane(on);
        requires(lane, Capability.LANE_WINDOWS, Capability.BATCH);
        final Trader trader = trader(lane, main());
        final long market = main().newSpotMarket();
        // the main venue's MM window holds 30 actions an account a second: 20 fit, 20 more do not
        final List<BatchLeg> twenty = new ArrayList<>();
        for (int i = 0; i < 20; i++)
        {
            twenty.add(ioc(market));
        }
        accepted(lane.batch(trader, twenty));
        final Result full = lane.batch(trader, twenty);
        refused(lane.refusal(RequestRejectReason.LANE_RATE_LIMITED), full);
        if (lane.can(Capability.HTTP_ANSWERS))
        {
            assertNotNull(full.header("retry-after"), full::toString);
        }
    }

    // ---- docs/API.md's own codes ----

    void notFound() throws Exception
    {
        refused(new Refusal(404, "NOT_FOUND"), Result.of(main().get("/api/v1/trading/nothing-here")));
    }

    void methodNotAllowed() throws Exception
    {
        final Result wrongMethod = Result.of(main().get(JsonLane.ROUTE));
        refused(new Refusal(405, "METHOD_NOT_ALLOWED"), wrongMethod);
        assertEquals("POST", wrongMethod.header("allow"), wrongMethod::toString);
    }

    void timeout(final Lanes.Lane on) throws Exception
    {
        // answers time out after 1 ms: of the heaviest requests sent at once, those still unanswered at the lane's
        // first sweep for late answers (100 ms after each was taken) are 504; more of them each round until one is.
        // A request of several orders may instead be answered by the pending requests' own expiry, order by order:
        // each of its orders then is 504 TIMEOUT in its answer
        final Venue venue = venue(Venue.Profile.IMPATIENT);
        final LaneClient lane = lane(on, Venue.Profile.IMPATIENT);
        final Trader trader = trader(lane, venue);
        List<Result> answers = List.of();
        for (final int n : new int[] {8, 24, 48})
        {
            answers = lane.sendHeaviest(trader, n);
            if (answers.stream().anyMatch(answer -> lane.timedOut().matches(answer) ||
                answer.body().contains("\"status\":504,\"answer\":{\"ok\":false,\"code\":\"TIMEOUT\"")))
            {
                return;
            }
        }
        fail("no answer timed out: " + answers);
    }

    void shuttingDown(final Lanes.Lane on) throws Exception
    {
        // a venue of its own, stopped while the client holds a kept-alive connection to it
        final Venue venue = Venue.start(Venue.Profile.MAIN);
        final LaneClient lane = on.connect().apply(venue);
        final Trader trader = trader(lane, venue);
        final long market = venue.newSpotMarket();
        accepted(lane.place(trader, bid(market, PRICE, 1)));
        final Thread stopping = new Thread(() ->
        {
            try
            {
                venue.close();
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }, "stopping-venue");
        stopping.start();
        try
        {
            // the venue drains: it takes no new connection, and answers the ones it has 503 SHUTTING_DOWN
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (accepts(venue.appliance.httpPort()))
            {
                assertTrue(System.nanoTime() < deadline, "the venue never stopped taking connections");
                Thread.sleep(1);
            }
            final Result answer = lane.place(trader, bid(market, PRICE - TICK, 1));
            refused(lane.shuttingDown(), answer);
            if (lane.can(Capability.HTTP_ANSWERS))
            {
                assertEquals("1", answer.header("retry-after"), answer::toString);
            }
        }
        finally
        {
            stopping.join(60_000);
        }
        assertFalse(stopping.isAlive());
    }

    private static boolean accepts(final int port) throws Exception
    {
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
            return true;
        }
        catch (final SocketException refusedOrReset)
        {
            // refused, or reset by a listening socket closing while it connected: either way no longer taken
            return false;
        }
    }

    /** The lane's machine-credential probes; the test is skipped for a lane without machine credentials. */
    private static MachineAuthProbes machineAuth(final LaneClient lane)
    {
        requires(lane, Capability.MACHINE_AUTH);
        return lane.machineAuth().orElseThrow(() -> new AssertionError(
            "the " + lane.name() + " lane declares " + Capability.MACHINE_AUTH + " but has no probes for it"));
    }
}
