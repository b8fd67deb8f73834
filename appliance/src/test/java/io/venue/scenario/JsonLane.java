package io.venue.scenario;

import io.venue.action.Action;
import io.venue.action.Batch;
import io.venue.action.BatchLeg;
import io.venue.action.Side;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.journal.sbe.RequestRejectReason;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JSON lane: {@code POST /api/v1/trading/actions} with one {@code SignedAction} body (docs/API.md, "Submitting an
 * action"), sent with Java's HttpClient. It carries every action, a batch as one {@code Batch} action (one signature,
 * one nonce), and the operator's actions.
 */
final class JsonLane implements LaneClient
{
    static final String ROUTE = "/api/v1/trading/actions";
    /** docs/API.md: a batch of up to 1,000 legs. */
    private static final int MAX_LEGS = 1_000;

    private final Venue venue;

    JsonLane(final Venue venue)
    {
        this.venue = venue;
    }

    @Override
    public String name()
    {
        return "json";
    }

    @Override
    public Venue venue()
    {
        return venue;
    }

    @Override
    public Set<Capability> capabilities()
    {
        return EnumSet.complementOf(EnumSet.of(Capability.LANE_WINDOWS, Capability.MACHINE_AUTH));
    }

    @Override
    public String lacks(final Capability capability)
    {
        return switch (capability)
        {
            case LANE_WINDOWS ->
                "the trading route has no windows of its own: the engine's per-account limiter counts it";
            case MACHINE_AUTH ->
                "the trading route takes no transport credential: the action's signature is the only one";
            default -> "(the JSON lane carries it)";
        };
    }

    @Override
    public void enrol(final Trader trader)
    {
        // nothing: the signed action is the whole request
    }

    @Override
    public Result send(final Trader trader, final SignedAction signed) throws Exception
    {
        return Result.of(venue.post(ROUTE, CanonicalJson.signedActionBody(signed), Map.of()));
    }

    @Override
    public Result batch(final Trader trader, final List<BatchLeg> legs) throws Exception
    {
        return submit(trader, new Batch(legs));
    }

    @Override
    public Refusal refusal(final RequestRejectReason reason)
    {
        return switch (reason)
        {
            case MALFORMED -> new Refusal(400, "MALFORMED");
            case BAD_SIGNATURE -> new Refusal(401, "BAD_SIGNATURE");
            case BODY_TOO_LARGE -> new Refusal(413, "BODY_TOO_LARGE");
            case EDGE_RATE_LIMITED -> new Refusal(429, null);
            case SHARD_BUSY -> new Refusal(503, "SHARD_BUSY");
            case QUEUE_LIMIT -> new Refusal(503, "QUEUE_LIMIT", "the verifier's 8 MiB request ring is full");
            default -> null;
        };
    }

    @Override
    public String neverMeets(final RequestRejectReason reason)
    {
        return switch (reason)
        {
            case TRANSPORT_AUTH_FAILED, MACHINE_NONCE_REPLAYED, TIMESTAMP_SKEW -> lacks(Capability.MACHINE_AUTH);
            case LANE_RATE_LIMITED -> lacks(Capability.LANE_WINDOWS);
            case OWNER_SIGNATURE_INVALID ->
                "an owner intent is not an action: the agent routes answer it, whatever the lane";
            default -> "(the JSON lane meets it)";
        };
    }

    @Override
    public Result sendTruncated(final Trader trader, final Action action) throws Exception
    {
        final byte[] body = CanonicalJson.signedActionBody(trader.sign(action));
        return Result.of(venue.post(ROUTE, Arrays.copyOf(body, body.length - 1), Map.of()));
    }

    @Override
    public Result sendOversized(final Trader trader) throws Exception
    {
        final byte[] body = new byte[600 * 1024];
        Arrays.fill(body, (byte)' ');
        body[0] = '{';
        body[body.length - 1] = '}';
        return Result.of(venue.post(ROUTE, body, Map.of()));
    }

    @Override
    public List<Result> sendUnverifiable(final int n) throws Exception
    {
        final List<HttpRequest> requests = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            requests.add(venue.postRequest(ROUTE, "{}".getBytes(StandardCharsets.US_ASCII), Map.of()));
        }
        return results(venue.postAll(requests));
    }

    @Override
    public List<Result> sendHeaviest(final Trader trader, final int n) throws Exception
    {
        // a batch of the most legs (about 160 KB), each an IOC bid of one lot at one tick on the demo market: cheap for
        // the engine, a large body for the verifier
        final List<BatchLeg> legs = new ArrayList<>();
        for (int i = 0; i < MAX_LEGS; i++)
        {
            legs.add(new SpotPlaceOrder(Venue.DEMO_SPOT_MARKET, null, Side.BID, Venue.SPOT_TICK, Venue.SPOT_LOT, null,
                TimeInForce.IOC, false, false, -1));
        }
        // one signed batch n times: each copy is verified in full, and the engine refuses the replays
        final byte[] body = CanonicalJson.signedActionBody(trader.sign(new Batch(legs)));
        final List<HttpRequest> requests = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            requests.add(venue.postRequest(ROUTE, body, Map.of()));
        }
        return results(venue.postAll(requests));
    }

    private static List<Result> results(final List<HttpResponse<String>> responses)
    {
        final List<Result> results = new ArrayList<>();
        responses.forEach(response -> results.add(Result.of(response)));
        return results;
    }
}
