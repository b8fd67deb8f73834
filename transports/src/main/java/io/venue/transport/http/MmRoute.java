package io.venue.transport.http;

import io.venue.codec.JsonWriter;
import io.venue.entry.admission.EdgeThrottle;
import io.venue.entry.mm.MmWindows;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.auth.Scope;
import java.net.InetAddress;
import java.util.function.Function;

import static io.venue.transport.http.HttpResponses.error;

/**
 * POST /api/v1/mm/orders/replace (and /cancel-replace), up to the pool (spec 5.3, 5.4, 8.2): the machine headers of an
 * institutional agent's credential holding quote, the body, the trader the credential acts for, and the MM windows.
 * Decides; the caller answers, journals and offers. One instance per connection (its {@link MachineAuth} is).
 */
final class MmRoute
{
    /**
     * What to do with one request of the MM lane: refuse it at the edge ({@code edgeWaitSeconds} above 0: the
     * plain-text 429), refuse it with {@code refusal} (journaled when it names a reason), or offer {@code admitted}.
     */
    record Decision<A>(long edgeWaitSeconds, TokenRoute.Outcome refusal, A admitted)
    {
        static <A> Decision<A> refuse(final SubmitResponse response)
        {
            return new Decision<>(0, TokenRoute.Outcome.answer(response), null);
        }

        static <A> Decision<A> admit(final A admitted)
        {
            return new Decision<>(0, null, admitted);
        }

        /** The same refusal for a request of another kind. */
        <B> Decision<B> as()
        {
            return new Decision<>(edgeWaitSeconds, refusal, null);
        }
    }

    /** An admitted request, its windows charged at {@code chargedAtMs}: refund them if the pool does not take it. */
    record Admitted(CancelReplaceRequests.Request replace, String apiKeyId, String address, long chargedAtMs)
    {
    }

    private final HttpGateway.Context context;
    private final MachineAuth machineAuth;

    MmRoute(final HttpGateway.Context context, final MachineAuth machineAuth)
    {
        this.context = context;
        this.machineAuth = machineAuth;
    }

    /** Checks one request that passed the lane's admission. */
    Decision<Admitted> decide(final Function<String, String> headers, final String method, final String uri,
        final String path, final byte[] body, final InetAddress remote)
    {
        final Authorization authorization = authorize(context, machineAuth, headers, method, uri, body, remote);
        if (authorization.refusal() != null)
        {
            return authorization.refusal().as();
        }
        final MachineAuth.Authenticated key = authorization.key();
        final CancelReplaceRequests.Request replace;
        try
        {
            replace = context.cancelReplaces.parse(body);
        }
        catch (final OwnerIntents.BadIntent bad)
        {
            return Decision.refuse(TokenRoute.badRequest(bad.field(), bad.getMessage()));
        }
        if (!replace.trader().equals(key.key().account()))
        {
            return Decision.refuse(
                new SubmitResponse(403, error("FORBIDDEN", "the credential acts for " + key.key().account() +
                ", not for the trader " + replace.trader())));
        }
        if (context.marketListed != null && !context.marketListed.test(replace.market()))
        {
            // the new order's market carries the per-market window's charge: it must be one the venue lists
            return Decision.refuse(
                TokenRoute.badRequest("place.marketId", "market " + replace.market() + " is not listed"));
        }
        final String address = ipWindow(remote);
        final long chargedAtMs = context.entry.context().mmWindows().nowMs();
        final MmWindows.Refusal full = context.entry.context().mmWindows()
            .charge(chargedAtMs, replace.trader(), key.apiKeyId(), address,
            replace.market(), 1, 1);
        if (full != null)
        {
            return windowFull(context, full, replace.trader(), path);
        }
        return Decision.admit(new Admitted(replace, key.apiKeyId(), address, chargedAtMs));
    }

    /** The key of the per-address MM window: the address, or its /64 for IPv6, as the edge throttle counts. */
    static String ipWindow(final InetAddress remote)
    {
        return EdgeThrottle.describe(EdgeThrottle.key(remote));
    }

    /** The credential a request of the MM lane authenticated with, or the decision that refuses the request. */
    record Authorization(MachineAuth.Authenticated key, Decision<?> refusal)
    {
    }

    /**
     * The machine headers of an institutional agent's credential holding quote. A failed authentication costs the
     * address a token of the edge throttle (the MM lane has its own limits otherwise), so an address that keeps failing
     * is refused before the checks and cannot flood the journal.
     */
    static Authorization authorize(final HttpGateway.Context context, final MachineAuth machineAuth,
        final Function<String, String> headers, final String method, final String uri, final byte[] body,
        final InetAddress remote)
    {
        final MachineAuth.Authenticated auth = machineAuth.authenticate(headers, method, uri, body,
            System.currentTimeMillis());
        if (auth.refusal() != null)
        {
            final long wait = context.entry.mmAuthThrottle() == null ? 0 :
                context.entry.mmAuthThrottle().acquire(remote);
            return new Authorization(null, new Decision<>(wait, wait > 0 ? null : auth.refusal(), null));
        }
        if (!auth.key().institutional() || !auth.key().holds(Scope.QUOTE))
        {
            return new Authorization(null,
                Decision.refuse(new SubmitResponse(403, error("SCOPE_DENIED", "MM order entry " +
                "needs an institutional agent's credential holding the quote scope"))));
        }
        return new Authorization(auth, null);
    }

    /**
     * The 429 of a full MM window (spec 2.5, 8.2), or the 400 {@code EXCEEDS_WINDOW} of a request larger than a
     * window's whole limit (no wait would let it through: it must be split), journaled as a lane refusal.
     */
    static <A>
        Decision<A> windowFull(final HttpGateway.Context context, final MmWindows.Refusal full, final String account,
        final String path)
    {
        context.counters.mmRefusal(full.scope());
        if (full.neverFits())
        {
            return new Decision<>(0, new TokenRoute.Outcome(new SubmitResponse(400, new JsonWriter().field("ok", false)
                .field("code", "EXCEEDS_WINDOW").field("field", "orders")
                .field("message", "the request charges more than " +
                    "the " + full.scope() + " window's whole limit of " + full.maxActionsPerWindow() + " per " +
                    full.windowMs() + " ms: split it into smaller requests").toJson()),
                RequestRejectReason.LANE_RATE_LIMITED,
                    "POST " + path + ": larger than the " + full.scope() + " window of " +
                account + " (" + full.maxActionsPerWindow() + ")"), null);
        }
        return new Decision<>(0, new TokenRoute.Outcome(new SubmitResponse(429, new JsonWriter().field("ok", false)
            .field("error", full.scope() + " max_actions_per_window").raw("rateLimit", new JsonWriter()
                .field("account", account).field("windowMs", full.windowMs())
                .field("maxActionsPerWindow", full.maxActionsPerWindow()).field("usedActions", full.usedActions())
                .field("remainingActions", Math.max(0, full.maxActionsPerWindow() - full.usedActions()))
                .field("resetInMs", full.resetInMs()).toJson()).toJson(), Math.max(1, (full.resetInMs() + 999) / 1000)),
            RequestRejectReason.LANE_RATE_LIMITED, "POST " + path + ": " + full.scope() + " window of " + account +
            " full (" + full.usedActions() + " of " + full.maxActionsPerWindow() + ")"), null);
    }

    /** Gives an admitted request's charge back: the pool did not take it. */
    void refund(final Admitted admitted)
    {
        final CancelReplaceRequests.Request replace = admitted.replace();
        context.entry.context().mmWindows()
            .refund(admitted.chargedAtMs(), replace.trader(), admitted.apiKeyId(), admitted.address(),
            replace.market(), 1, 1);
    }

    /** The engine's answer with the account's MM budget (spec 8.2), when it is an object. */
    SubmitResponse withBudget(final SubmitResponse response, final String trader)
    {
        final String body = response.body();
        if (!body.endsWith("}"))
        {
            return response;
        }
        return new SubmitResponse(response.status(), JsonWriter.extend(body, budget(context, trader)),
            response.retryAfterSeconds(), -1, 0, 0);
    }

    /** The budget fields every accepted answer of the MM lane carries (spec 8.2). */
    static JsonWriter budget(final HttpGateway.Context context, final String account)
    {
        final MmWindows.Budget budget = context.entry.context().mmWindows().budget(account);
        return new JsonWriter().field("windowMs", budget.windowMs()).field("usedActions", budget.usedActions())
            .field("remainingActions", budget.remainingActions()).field("resetInMs", budget.resetInMs());
    }
}
