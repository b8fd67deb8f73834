package io.venue.scenario;

import io.venue.action.Action;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.BatchLeg;
import io.venue.action.Cancel;
import io.venue.action.OrderId;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.RequestRejectReason;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A client of one order-entry lane of a running venue, in lane-neutral terms: the scenarios ({@link LaneScenariosTest},
 * {@link RejectCodeWalkTest}) are written once against this interface and run over every lane of {@link Lanes#ALL}.
 *
 * <p>A lane sends signed actions (signed by {@link Trader}, the same signatures whatever the lane) and answers each
 * with a {@link Result}. What a lane cannot carry it leaves out of {@link #capabilities()} and explains in
 * {@link #lacks}; the scenarios that need it are then skipped for that lane with that reason. The reads (order status,
 * nonce window) are the venue's HTTP read routes, the same for every lane.
 *
 * <p>To add a lane (WebSocket, FIX 4.4, BSL Direct TCP...): implement this interface (its gateway probes included:
 * each is how that lane's own requests meet a refusal before the engine), declare its capabilities and how it answers
 * each refusal ({@link #refusal(RequestRejectReason)}, and {@link #refusal(RejectCode)} where it differs from the
 * trading route), and add it to {@link Lanes#ALL}. Every scenario then runs on it.
 */
public interface LaneClient
{
    String name();

    /** The venue this client sends to. */
    Venue venue();

    Set<Capability> capabilities();

    /** Why this lane lacks {@code capability}: the reason a scenario that needs it is skipped with. */
    String lacks(Capability capability);

    default boolean can(final Capability capability)
    {
        return capabilities().contains(capability);
    }

    /** Makes the lane ready to send for {@code trader} (a session, a transport credential); idempotent. */
    void enrol(Trader trader) throws Exception;

    /** Sends one action the trader signed (any nonce, time or signer) as this lane carries it. */
    Result send(Trader trader, SignedAction signed) throws Exception;

    /**
     * Several orders of one account in one request ({@link Capability#BATCH}), applied in order and refused leg by leg:
     * the result is accepted when the request was, {@link Result#legRejects()} names each refused leg by index and
     * {@link Result#orderIds()} holds the ids of the orders the venue accepted, in leg order.
     */
    Result batch(Trader trader, List<BatchLeg> legs) throws Exception;

    /** Signs {@code action} with the trader's next nonce and sends it. */
    default Result submit(final Trader trader, final Action action) throws Exception
    {
        return send(trader, trader.sign(action));
    }

    default Result place(final Trader trader, final SpotPlaceOrder order) throws Exception
    {
        return submit(trader, order);
    }

    default Result amend(final Trader trader, final String orderId, final long price, final long qty) throws Exception
    {
        return submit(trader, new Amend(OrderId.of(orderId), price, qty));
    }

    default Result cancel(final Trader trader, final String orderId) throws Exception
    {
        return submit(trader, new Cancel(OrderId.of(orderId)));
    }

    // ---- the reads: the venue's HTTP read routes, the same whatever lane the actions came in on ----

    /** Where an order stands: {@code GET /api/v1/trading/orders/{orderId}}. */
    default Venue.OrderView orderStatus(final String orderId) throws Exception
    {
        return venue().order(orderId);
    }

    /** The account's nonce window: {@code GET /api/v1/trading/accounts/{account}/nonce}. */
    default Venue.NonceView nonceWindow(final Address account) throws Exception
    {
        return venue().nonceWindow(account);
    }

    // ---- how this lane answers refusals ----

    /**
     * How this lane answers an action the engine refused with {@code code}: by default as the trading route documents
     * it (docs/API.md's status, docs/JOURNAL-SCHEMA.md's wire code). A lane that refuses the same request before the
     * engine overrides this for that code, with a note saying why.
     */
    default Refusal refusal(final RejectCode code)
    {
        return Docs.documentedRefusal(code);
    }

    /**
     * How this lane's gateway answers a refusal for {@code reason}, or null when no request of this lane can meet it.
     */
    Refusal refusal(RequestRejectReason reason);

    /**
     * Why no request of this lane meets a gateway refusal for {@code reason} (when
     * {@link #refusal(RequestRejectReason)} is null).
     */
    String neverMeets(RequestRejectReason reason);

    /** How this lane answers a request the draining node no longer takes. */
    default Refusal shuttingDown()
    {
        return new Refusal(503, "SHUTTING_DOWN");
    }

    /** How this lane answers an order the node decided nothing about in time (answer.timeout.ms). */
    default Refusal timedOut()
    {
        return new Refusal(504, "TIMEOUT");
    }

    // ---- gateway probes: this lane's own requests that meet a refusal before the engine ----

    /** The trader's request with its body cut short by one byte. */
    Result sendTruncated(Trader trader, Action action) throws Exception;

    /** A request of this lane whose body is larger than the gateway takes. */
    Result sendOversized(Trader trader) throws Exception;

    /**
     * {@code n} requests at once that the gateway refuses before any account is involved (what the edge throttle counts
     * on this lane); each is a write the shard's backlog check admits first.
     */
    List<Result> sendUnverifiable(int n) throws Exception;

    /** The heaviest requests this lane takes (the most orders one request may carry), {@code n} at once. */
    List<Result> sendHeaviest(Trader trader, int n) throws Exception;

    /** The probes of this lane's machine credentials; empty for a lane whose requests carry none. */
    default Optional<MachineAuthProbes> machineAuth()
    {
        return Optional.empty();
    }
}
