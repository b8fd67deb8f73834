package io.venue.scenario;

import io.venue.action.Action;
import io.venue.action.BatchLeg;
import io.venue.action.Side;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.crypto.Secp256k1Signer;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.transport.bsl.CompactOrders;
import io.venue.transport.bsltcp.BslTcpClient;
import io.venue.transport.bsltcp.ClientMessages;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.venue.appliance.ApplianceContext.DEMO_CHAIN_ID;
import static io.venue.appliance.ApplianceContext.DEMO_CONTRACT;

/**
 * The BSL Direct TCP lane (docs/BSL-TCP.md): the compact orders of {@link CompactLane}, each request an {@code Orders}
 * message on a long-lived session of the trader's, answered by {@code OrderAnswers} (detailed) or refused whole by
 * {@code RequestRefused}. Each trader has a wallet-signed session (its own key signs the login), so that a session the
 * client opens again does not sweep the trader's resting orders as a session key's cancel-on-disconnect would.
 *
 * <p>A TCP answer is not HTTP: an accepted order is {@link #ACCEPTED} (200, as the scenarios' accepted results), a
 * refused one {@link #REFUSED} with the wire code the HTTP answers carry, and it carries neither the action's digest
 * nor the fills it caused ({@link Capability#FILLS_IN_ANSWER}): the scenarios read those from the status route.
 */
final class TcpLane implements LaneClient
{
    /** The status the scenarios' accepted results have: the order's outcome ACCEPTED. */
    static final int ACCEPTED = 200;
    /** A refusal over TCP has no HTTP status: an order's outcome REJECTED, or a RequestRefused. */
    static final int REFUSED = 0;
    private static final int WAIT_MS = 30_000;
    private static final String NO_ORDER = "0x" + "0".repeat(64);

    /** A trader's open session and its next request seq. */
    private static final class Session
    {
        BslTcpClient client;
        long seq;
    }

    private final Venue venue;

    TcpLane(final Venue venue)
    {
        this.venue = venue;
    }

    @Override
    public String name()
    {
        return "bsl-tcp";
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
            Capability.BATCH, Capability.LANE_WINDOWS);
    }

    @Override
    public String lacks(final Capability capability)
    {
        return switch (capability)
        {
            case CANCEL_ALL, SPLIT_MERGE, OPERATOR_ACTIONS -> "an Orders message carries a compact body, which holds " +
                "only place, cancel, amend and cancel by client order id (kinds 0 to 3 of venue-bsl.xml); cancel-all " +
                "has no session message (docs/BSL-TCP.md, Not built yet)";
            case ACCOUNT_LIMITER -> "the engine's per-account limiter does not count the MM lanes' orders: their " +
                "own windows do (spec 8.2)";
            case FILLS_IN_ANSWER -> "an OrderAnswers entry carries the outcome, the journal sequence, the order id " +
                "and the code, not the action's digest nor the fills it caused (docs/BSL-TCP.md)";
            case MACHINE_AUTH -> "a session authenticates once, at its Login (BslTcpLaneTest walks the login " +
                "refusals), not each request";
            case HTTP_ANSWERS -> "a TCP answer is a session message: no HTTP headers (RequestRefused has " +
                "retryAfterMs), and an order's entry carries its code and message, not the nonce window's fields";
            case FILLABLE_QUEUE -> "not walked over TCP: at most 64 requests of a session wait for their answers, " +
                "past that the session ends with TOO_MANY_IN_FLIGHT (BslTcpLaneTest)";
            default -> "(the bsl-tcp lane carries it)";
        };
    }

    private Session session(final Trader trader) throws IOException
    {
        final Session session = trader.laneState("bsltcp.session", Session::new);
        if (session.client == null)
        {
            final BslTcpClient client = BslTcpClient.connect("127.0.0.1", venue.appliance.bslTcpPort(), WAIT_MS);
            client.send(ClientMessages.walletLogin(new Secp256k1Signer(trader.wallet), trader.account(),
                System.nanoTime(), System.currentTimeMillis(), DEMO_CHAIN_ID, DEMO_CONTRACT, true));
            final BslTcpClient.Received accepted = client.readSkippingHeartbeats(WAIT_MS);
            if (!accepted.type().equals("LoginAccepted"))
            {
                client.close();
                throw new AssertionError("the wallet login of " + trader + " was refused: " + accepted);
            }
            session.client = client;
            session.seq = 0;
        }
        return session;
    }

    @Override
    public void enrol(final Trader trader) throws Exception
    {
        session(trader);
    }

    /** Sends one Orders request and reads its answer; the session is opened again if the server ended it. */
    private BslTcpClient.Received request(final Trader trader, final byte[] body) throws Exception
    {
        final Session session = session(trader);
        final long seq = ++session.seq;
        session.client.send(ClientMessages.orders(seq, body));
        while (true)
        {
            final BslTcpClient.Received received = session.client.readSkippingHeartbeats(WAIT_MS);
            if ((received.type().equals("OrderAnswers") || received.type().equals("RequestRefused")) &&
                Long.valueOf(seq).equals(received.get("seq")))
            {
                return received;
            }
            if (received.type().equals("Error"))
            {
                session.client.close();
                session.client = null;
                throw new AssertionError("the session of " + trader + " ended: " + received);
            }
        }
    }

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

    @Override
    public Result send(final Trader trader, final SignedAction signed) throws Exception
    {
        final BslTcpClient.Received answer = request(trader, CompactOrders.encode(marketOf(List.of(signed)),
            List.of(signed)));
        if (answer.type().equals("RequestRefused"))
        {
            return refusedWhole(answer);
        }
        return order(answer.results().get(0), answer);
    }

    @Override
    public Result batch(final Trader trader, final List<BatchLeg> legs) throws Exception
    {
        final List<SignedAction> orders = new ArrayList<>();
        for (final BatchLeg leg : legs)
        {
            orders.add(trader.sign(leg));
        }
        final BslTcpClient.Received answer = request(trader, CompactOrders.encode(marketOf(orders), orders));
        if (answer.type().equals("RequestRefused"))
        {
            return refusedWhole(answer);
        }
        final List<String> orderIds = new ArrayList<>();
        final Map<Integer, String> refused = new LinkedHashMap<>();
        long sequence = -1;
        for (final Map<String, Object> result : answer.results())
        {
            final Result one = order(result, answer);
            if (one.accepted())
            {
                orderIds.addAll(one.orderIds());
                sequence = sequence < 0 ? one.sequence() : sequence;
            }
            else
            {
                refused.put(((Number)result.get("index")).intValue(), one.code());
            }
        }
        return new Result(ACCEPTED, true, null, null, List.copyOf(orderIds), sequence, null, -1,
            Collections.unmodifiableMap(refused), Map.of(), answer.toString(), Map.of());
    }

    /** One order's entry of an OrderAnswers (detailed: every order has one). */
    private static Result order(final Map<String, Object> result, final BslTcpClient.Received whole)
    {
        final boolean accepted = "ACCEPTED".equals(result.get("outcome"));
        final String orderId = (String)result.get("orderId");
        final String code = (String)result.get("code");
        return new Result(accepted ? ACCEPTED : REFUSED, accepted, accepted ? null :
            code.isEmpty() ? (String)result.get("outcome") : code, (String)result.get("message"),
            accepted && !NO_ORDER.equals(orderId) ? List.of(orderId) : List.of(), (Long)result.get("sequence"),
            null, -1, Map.of(), Map.copyOf(result), whole.toString(), Map.of());
    }

    private static Result refusedWhole(final BslTcpClient.Received refused)
    {
        return new Result(REFUSED, false, (String)refused.get("code"), (String)refused.get("message"), List.of(), -1,
            null, -1, Map.of(), Map.of(), refused.toString(), Map.of());
    }

    // ---- refusals ----

    @Override
    public Refusal refusal(final RejectCode code)
    {
        if (code == RejectCode.UNKNOWN_MARKET)
        {
            return new Refusal(REFUSED, "BAD_REQUEST", "a request on an unlisted market is refused whole " +
                "(RequestRefused) before the engine");
        }
        return new Refusal(REFUSED, Docs.documentedRefusal(code).code(), "an OrderAnswers entry REJECTED with the " +
            "code; a TCP answer has no HTTP status");
    }

    @Override
    public Refusal refusal(final RequestRejectReason reason)
    {
        return switch (reason)
        {
            case MALFORMED -> new Refusal(REFUSED, "MALFORMED", "an Error that ends the session, nothing journaled");
            case BODY_TOO_LARGE -> new Refusal(REFUSED, "FRAME_TOO_LONG", "an Error judged on the length alone");
            case BAD_SIGNATURE -> new Refusal(REFUSED, "BAD_SIGNATURE", "the order's own entry");
            case TRANSPORT_AUTH_FAILED -> new Refusal(REFUSED, "UNAUTHENTICATED", "a LoginRejected");
            case LANE_RATE_LIMITED -> new Refusal(REFUSED, "RATE_LIMITED", "a RequestRefused naming the window " +
                "in its field");
            case QUEUE_LIMIT -> new Refusal(REFUSED, "QUEUE_LIMIT", "a RequestRefused");
            default -> null;
        };
    }

    @Override
    public String neverMeets(final RequestRejectReason reason)
    {
        return switch (reason)
        {
            case MACHINE_NONCE_REPLAYED, TIMESTAMP_SKEW -> "a session authenticates at its Login (BslTcpLaneTest " +
                "walks the login refusals); its requests carry no credential";
            case EDGE_RATE_LIMITED -> "the lane counts failed logins per address (LoginRejected THROTTLED), not " +
                "requests at the edge";
            case SHARD_BUSY -> "a session's Orders meets it (RequestRefused SHARD_BUSY), but the walk provokes it " +
                "with requests of no account (sendUnverifiable), which over TCP are logins: they never reach a shard";
            default -> "not met by a request of an open session";
        };
    }

    @Override
    public Refusal shuttingDown()
    {
        return new Refusal(REFUSED, "SHUTTING_DOWN", "a RequestRefused of the draining node");
    }

    @Override
    public Refusal timedOut()
    {
        return new Refusal(REFUSED, "TIMED_OUT", "an OrderAnswers entry's outcome TIMED_OUT");
    }

    // ---- gateway probes: over TCP a broken frame is a protocol error that ends the session ----

    /** Sends bytes that break the protocol and reads the Error the session ends with. */
    private Result protocolError(final Trader trader, final byte[] frame) throws Exception
    {
        final Session session = session(trader);
        session.client.send(frame);
        try
        {
            final BslTcpClient.Received error = session.client.readSkippingHeartbeats(WAIT_MS);
            return new Result(REFUSED, false, error.type().equals("Error") ? (String)error.get("code") : error.type(),
                (String)error.get("message"), List.of(), -1, null, -1, Map.of(), Map.of(), error.toString(), Map.of());
        }
        finally
        {
            session.client.close();
            session.client = null;
        }
    }

    @Override
    public Result sendTruncated(final Trader trader, final Action action) throws Exception
    {
        final SignedAction signed = trader.sign(action);
        final byte[] body = CompactOrders.encode(marketOf(List.of(signed)), List.of(signed));
        final Session session = session(trader);
        return protocolError(trader, ClientMessages.orders(session.seq + 1, Arrays.copyOf(body, body.length - 1)));
    }

    @Override
    public Result sendOversized(final Trader trader) throws Exception
    {
        // the length alone is judged: above the lane's maximum frame, before any of the message is read
        return protocolError(trader, new byte[] {0, 0, 0, 1});
    }

    @Override
    public List<Result> sendUnverifiable(final int n) throws Exception
    {
        // logins no account is behind (a stranger's key signing for another account): refused before any session
        final Trader stranger = Trader.fresh();
        final List<Result> results = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            try (BslTcpClient client = BslTcpClient.connect("127.0.0.1", venue.appliance.bslTcpPort(), WAIT_MS))
            {
                client.send(ClientMessages.walletLogin(new Secp256k1Signer(stranger.wallet), Trader.fresh().account(),
                    System.nanoTime(), System.currentTimeMillis(), DEMO_CHAIN_ID, DEMO_CONTRACT, true));
                final BslTcpClient.Received refused = client.readSkippingHeartbeats(WAIT_MS);
                results.add(new Result(REFUSED, false, String.valueOf(refused.get("reason")),
                    (String)refused.get("message"), List.of(), -1, null, -1, Map.of(), Map.of(), refused.toString(),
                    Map.of()));
            }
        }
        return results;
    }

    @Override
    public List<Result> sendHeaviest(final Trader trader, final int n) throws Exception
    {
        // one signed order a thousand times, one request after the other on the trader's session
        final byte[] body = CompactOrders.encode(Venue.DEMO_SPOT_MARKET, Collections.nCopies(CompactOrders.MAX_ORDERS,
            trader.sign(new SpotPlaceOrder(Venue.DEMO_SPOT_MARKET, null, Side.BID, Venue.SPOT_TICK, Venue.SPOT_LOT,
            null, TimeInForce.IOC, false, false, -1))));
        final List<Result> results = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            final BslTcpClient.Received answer = request(trader, body);
            final boolean timedOut = answer.results().stream().anyMatch(r -> "TIMED_OUT".equals(r.get("outcome")));
            results.add(answer.type().equals("RequestRefused") ? refusedWhole(answer) : timedOut ?
                new Result(REFUSED, false, "TIMED_OUT", "an order had no decision in time", List.of(), -1, null, -1,
                Map.of(), Map.of(), answer.toString(), Map.of()) :
                new Result(ACCEPTED, true, null, null, List.of(), -1, null, -1, Map.of(), Map.of(), answer.toString(),
                Map.of()));
        }
        return results;
    }
}
