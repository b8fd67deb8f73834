package io.venue.scenario;

import io.venue.action.Action;
import io.venue.action.BatchLeg;
import io.venue.action.Side;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.auth.AgentKind;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.svc.SvcHeaders;
import io.venue.svc.SvcRequestSigner;
import io.venue.transport.bsl.CompactOrders;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The compact binary lane: {@code POST /api/v1/bsl/orders/compact}, an SBE body of signed orders (docs/API.md, "Compact
 * binary orders") encoded with the project's {@link CompactOrders}, with the SVC-* headers of an institutional agent's
 * credential holding {@code quote} that the trader's wallet creates over the agent route. Every request asks for the
 * detailed result mode, so each order's own answer is read. It carries places, cancels, amends and cancels by client
 * order id only; several of them in one request are its batch.
 */
final class CompactLane implements LaneClient, MachineAuthProbes
{
    static final String ROUTE = "/api/v1/bsl/orders/compact";
    private static final Map<String, String> DETAILED = Map.of("x-bsl-result-mode", "detailed", "Content-Type",
        "application/octet-stream");

    /** A machine credential and the next SVC-Nonce of its key. */
    private record Credential(SvcRequestSigner signer, AtomicLong nonce)
    {
    }

    private final Venue venue;

    CompactLane(final Venue venue)
    {
        this.venue = venue;
    }

    @Override
    public String name()
    {
        return "compact";
    }

    @Override
    public Venue venue()
    {
        return venue;
    }

    @Override
    public Set<Capability> capabilities()
    {
        return EnumSet.of(Capability.PLACE, Capability.AMEND, Capability.CANCEL, Capability.CANCEL_BY_CLIENT_ORDER_ID,
            Capability.BATCH, Capability.LANE_WINDOWS, Capability.MACHINE_AUTH, Capability.FILLABLE_QUEUE,
            Capability.FILLS_IN_ANSWER, Capability.HTTP_ANSWERS);
    }

    @Override
    public String lacks(final Capability capability)
    {
        return switch (capability)
        {
            case CANCEL_ALL, SPLIT_MERGE,
                OPERATOR_ACTIONS -> "the compact body carries only place, cancel, amend and cancel " +
                "by client order id (kinds 0 to 3 of venue-bsl.xml)";
            case ACCOUNT_LIMITER ->
                "the engine's per-account limiter does not count the MM lane's orders: the lane's own " +
                "windows do (docs/API.md, Compact binary orders), walked as LANE_RATE_LIMITED";
            default -> "(the compact lane carries it)";
        };
    }

    /** The trader's machine credentials, made on first use; the lane keeps them with the trader. */
    private List<Credential> credentials(final Trader trader, final int atLeast) throws Exception
    {
        final List<Credential> credentials = trader.laneState("compact.credentials", () -> Collections.synchronizedList(
            new ArrayList<>()));
        while (credentials.size() < atLeast)
        {
            credentials.add(
                new Credential(venue.newCredential(trader, AgentKind.INSTITUTIONAL, Scope.QUOTE), new AtomicLong(1)));
        }
        return credentials;
    }

    @Override
    public void enrol(final Trader trader) throws Exception
    {
        credentials(trader, 1);
    }

    /** The request's market: a place's own, otherwise any listed market (the demo's spot market). */
    private static long marketOf(final List<SignedAction> orders)
    {
        for (final SignedAction order : orders)
        {
            if (order.payload().action() instanceof SpotPlaceOrder place)
            {
                return place.market();
            }
        }
        return Venue.DEMO_SPOT_MARKET;
    }

    private HttpRequest request(final Credential credential, final long svcNonce, final long timestampMs,
        final byte[] body)
    {
        final Map<String, String> headers = new LinkedHashMap<>(DETAILED);
        headers.putAll(credential.signer().sign(svcNonce, timestampMs, "POST", ROUTE, null, body));
        return venue.postRequest(ROUTE, body, headers);
    }

    private HttpResponse<String> post(final Trader trader, final byte[] body) throws Exception
    {
        final Credential credential = credentials(trader, 1).get(0);
        return venue.http.send(
            request(credential, credential.nonce().getAndIncrement(), System.currentTimeMillis(), body),
            HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public Result send(final Trader trader, final SignedAction signed) throws Exception
    {
        return single(post(trader, CompactOrders.encode(marketOf(List.of(signed)), List.of(signed))));
    }

    @Override
    public Result batch(final Trader trader, final List<BatchLeg> legs) throws Exception
    {
        final List<SignedAction> orders = new ArrayList<>();
        for (final BatchLeg leg : legs)
        {
            orders.add(trader.sign(leg));
        }
        return several(post(trader, CompactOrders.encode(marketOf(orders), orders)));
    }

    /** The answer of a request of one order: the order's own result, or the request's refusal. */
    private static Result single(final HttpResponse<String> response)
    {
        final List<Map<String, Object>> results = results(response);
        if (results == null)
        {
            return Result.of(response);
        }
        final Map<String, Object> only = results.get(0);
        return Result.of(((Long)only.get("status")).intValue(), answer(only), response.body(),
            response.headers().map());
    }

    /** The answer of a request of several orders: accepted as a request, each refused order named by its index. */
    private static Result several(final HttpResponse<String> response)
    {
        final List<Map<String, Object>> results = results(response);
        if (results == null)
        {
            return Result.of(response);
        }
        final List<String> orderIds = new ArrayList<>();
        final Map<Integer, String> refused = new LinkedHashMap<>();
        long sequence = -1;
        long trades = 0;
        for (final Map<String, Object> result : results)
        {
            final Result order = Result.of(((Long)result.get("status")).intValue(), answer(result), "", Map.of());
            if (order.accepted())
            {
                orderIds.addAll(order.orderIds());
                sequence = sequence < 0 ? order.sequence() : sequence;
                trades += order.trades();
            }
            else
            {
                refused.put(((Long)result.get("index")).intValue(), order.code());
            }
        }
        final Map<String, Object> whole = Result.parse(response.body());
        return new Result(200, true, null, null, List.copyOf(orderIds), sequence, null, trades,
            Collections.unmodifiableMap(refused), whole, response.body(), Map.of());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> answer(final Map<String, Object> result)
    {
        return (Map<String, Object>)result.get("answer");
    }

    /** Each order's result of a request the lane took, or null when it refused the request whole. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> results(final HttpResponse<String> response)
    {
        final Map<String, Object> json = Result.parse(response.body());
        if (response.statusCode() != 200 || !Boolean.TRUE.equals(json.get("ok")))
        {
            return null;
        }
        return (List<Map<String, Object>>)json.get("results");
    }

    // ---- refusals ----

    @Override
    public Refusal refusal(final RejectCode code)
    {
        if (code == RejectCode.UNKNOWN_MARKET)
        {
            return new Refusal(400, "BAD_REQUEST",
                "a request on an unlisted market is refused before the engine, field market");
        }
        return LaneClient.super.refusal(code);
    }

    @Override
    public Refusal refusal(final RequestRejectReason reason)
    {
        return switch (reason)
        {
            case MALFORMED -> new Refusal(400, "BAD_REQUEST", "a body that is not the layout, naming the field");
            case BAD_SIGNATURE -> new Refusal(401, "BAD_SIGNATURE", "the order's own result");
            case BODY_TOO_LARGE -> new Refusal(413, "BODY_TOO_LARGE");
            case EDGE_RATE_LIMITED -> new Refusal(429, null,
                "the edge throttle counts only the lane's failed authentications");
            case SHARD_BUSY -> new Refusal(503, "SHARD_BUSY");
            case QUEUE_LIMIT -> new Refusal(503, "QUEUE_LIMIT", "the pre-batched backlog is full");
            case TRANSPORT_AUTH_FAILED -> new Refusal(401, "UNAUTHENTICATED");
            case MACHINE_NONCE_REPLAYED -> new Refusal(409, "NONCE_REPLAYED");
            case TIMESTAMP_SKEW -> new Refusal(401, "SKEW");
            case LANE_RATE_LIMITED -> new Refusal(429, "account max_actions_per_window",
                "spec 2.5's body names the window");
            default -> null;
        };
    }

    @Override
    public String neverMeets(final RequestRejectReason reason)
    {
        return reason == RequestRejectReason.OWNER_SIGNATURE_INVALID ?
            "an owner intent is not an order: the agent routes answer it, whatever the lane" : "(the compact lane " +
            "meets it)";
    }

    // ---- gateway probes ----

    @Override
    public Result sendTruncated(final Trader trader, final Action action) throws Exception
    {
        final SignedAction signed = trader.sign(action);
        final byte[] body = CompactOrders.encode(marketOf(List.of(signed)), List.of(signed));
        return Result.of(post(trader, Arrays.copyOf(body, body.length - 1)));
    }

    @Override
    public Result sendOversized(final Trader trader) throws Exception
    {
        return Result.of(post(trader, new byte[600 * 1024]));
    }

    @Override
    public List<Result> sendUnverifiable(final int n) throws Exception
    {
        final Trader stranger = Trader.fresh();
        final byte[] body = CompactOrders.encode(Venue.DEMO_SPOT_MARKET, List.of(stranger.sign(oneLotIoc())));
        final Credential unknown = unknownCredential();
        final List<HttpRequest> requests = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            requests.add(request(unknown, unknown.nonce().getAndIncrement(), System.currentTimeMillis(), body));
        }
        final List<Result> results = new ArrayList<>();
        venue.postAll(requests).forEach(response -> results.add(Result.of(response)));
        return results;
    }

    @Override
    public List<Result> sendHeaviest(final Trader trader, final int n) throws Exception
    {
        // one signed order a thousand times: each copy is verified in full, and the engine refuses the replays
        final byte[] body = CompactOrders.encode(Venue.DEMO_SPOT_MARKET,
            Collections.nCopies(CompactOrders.MAX_ORDERS, trader.sign(oneLotIoc())));
        final List<Credential> credentials = credentials(trader, n);
        final List<HttpRequest> requests = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            // a credential per request: requests sent at once arrive in any order, and one key's SVC-Nonces must rise
            final Credential credential = credentials.get(i);
            requests.add(request(credential, credential.nonce().getAndIncrement(), System.currentTimeMillis(), body));
        }
        final List<Result> results = new ArrayList<>();
        venue.postAll(requests).forEach(response -> results.add(several(response)));
        return results;
    }

    private static SpotPlaceOrder oneLotIoc()
    {
        return new SpotPlaceOrder(Venue.DEMO_SPOT_MARKET, null, Side.BID, Venue.SPOT_TICK, Venue.SPOT_LOT, null,
            TimeInForce.IOC, false, false, -1);
    }

    private static Credential unknownCredential()
    {
        final byte[] id = new byte[8];
        new SecureRandom().nextBytes(id);
        return new Credential(SvcRequestSigner.hmac("spk_" + Hex.toHex(id), "sps_" + "0".repeat(64),
            "spp_" + "0".repeat(32)), new AtomicLong(1));
    }

    @Override
    public Optional<MachineAuthProbes> machineAuth()
    {
        return Optional.of(this);
    }

    @Override
    public Result sendWithUnknownCredential(final Trader trader, final Action action) throws Exception
    {
        final SignedAction signed = trader.sign(action);
        final byte[] body = CompactOrders.encode(marketOf(List.of(signed)), List.of(signed));
        return Result.of(venue.http.send(request(unknownCredential(), 1, System.currentTimeMillis(), body),
            HttpResponse.BodyHandlers.ofString()));
    }

    @Override
    public Result sendWithBadMachineSignature(final Trader trader, final Action action) throws Exception
    {
        final Credential credential = credentials(trader, 1).get(0);
        final SignedAction signed = trader.sign(action);
        final byte[] body = CompactOrders.encode(marketOf(List.of(signed)), List.of(signed));
        final long svcNonce = credential.nonce().getAndIncrement();
        final long now = System.currentTimeMillis();
        // the key's own signature, of another request: well formed, and not this request's
        final String other = credential.signer().sign(svcNonce + 1, now, "POST", ROUTE, null, body)
            .get(SvcHeaders.SIGNATURE);
        final Map<String, String> headers = new LinkedHashMap<>(DETAILED);
        headers.putAll(credential.signer().sign(svcNonce, now, "POST", ROUTE, null, body));
        headers.put(SvcHeaders.SIGNATURE, other);
        return Result.of(venue.http.send(venue.postRequest(ROUTE, body, headers),
            HttpResponse.BodyHandlers.ofString()));
    }

    @Override
    public Result sendWithReplayedMachineNonce(final Trader trader, final Action first, final Action second)
        throws Exception
    {
        final Credential credential = credentials(trader, 1).get(0);
        final long svcNonce = credential.nonce().getAndIncrement();
        final SignedAction one = trader.sign(first);
        final Result accepted = single(venue.http.send(request(credential, svcNonce, System.currentTimeMillis(),
            CompactOrders.encode(marketOf(List.of(one)), List.of(one))), HttpResponse.BodyHandlers.ofString()));
        if (!accepted.accepted())
        {
            throw new AssertionError("the first request must pass: " + accepted);
        }
        final SignedAction two = trader.sign(second);
        return Result.of(venue.http.send(request(credential, svcNonce, System.currentTimeMillis(),
            CompactOrders.encode(marketOf(List.of(two)), List.of(two))), HttpResponse.BodyHandlers.ofString()));
    }

    @Override
    public Result sendWithStaleMachineTimestamp(final Trader trader, final Action action) throws Exception
    {
        final Credential credential = credentials(trader, 1).get(0);
        final SignedAction signed = trader.sign(action);
        return Result.of(venue.http.send(request(credential, credential.nonce().getAndIncrement(),
            System.currentTimeMillis() - 60_000, CompactOrders.encode(marketOf(List.of(signed)), List.of(signed))),
            HttpResponse.BodyHandlers.ofString()));
    }
}
