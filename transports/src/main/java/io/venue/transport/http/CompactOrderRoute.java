package io.venue.transport.http;

import io.venue.action.typed.TypedOrder;
import io.venue.codec.JsonWriter;
import io.venue.entry.Answer;
import io.venue.entry.mm.MmWindows;
import io.venue.transport.bsl.CompactOrders;

import java.util.List;
import io.venue.action.Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.function.Function;

/**
 * The compact binary order routes of the MM/BSL lane (spec 4, 4.1, 8.2), up to the pool: an institutional agent's
 * machine headers holding quote, the result and response modes, the body ({@link CompactOrders}), the account the
 * credential acts for, every order's timestamp, and the MM windows. Each admitted order goes to the verifier pool as
 * the typed order it is (its bytes in the body, {@link TypedOrder}: no JSON submit), marked as the MM lane's; the
 * engine's answers come back as one response
 * ({@link #answer}). One instance per connection (its {@link MachineAuth} is).
 */
final class CompactOrderRoute
{
    static final String RESULT_MODE = "x-bsl-result-mode";
    static final String RESPONSE_MODE = "x-service-response-mode";
    /** An order's ts may be at most this far from the server's clock either way (spec 8.2's maxActionTsSkewMs). */
    static final long MAX_ACTION_TS_SKEW_MS = 15_000;

    /** What an order that is a cancel charges in {@link Admitted#markets}: no market window counts it. */
    private static final long CANCEL = -1;

    /**
     * An admitted request, its windows charged at {@code chargedAtMs}: {@code bodies} are the orders, typed, in order
     * (a view over the request's body, each offered as it is); {@code markets[i]} is the market whose window order i
     * was charged to as an action, or {@link #CANCEL}, to refund what the pool does not take.
     */
    record Admitted(String account, CompactOrders.Request bodies, long[] markets, boolean detailed, String apiKeyId,
        String address, long chargedAtMs)
    {
    }

    private final HttpGateway.Context context;
    private final MachineAuth machineAuth;

    CompactOrderRoute(final HttpGateway.Context context, final MachineAuth machineAuth)
    {
        this.context = context;
        this.machineAuth = machineAuth;
    }

    MmRoute.Decision<Admitted> decide(final Function<String, String> headers, final String method,
        final String uri, final String path, final byte[] body, final InetAddress remote)
    {
        final MmRoute.Authorization authorization = MmRoute.authorize(context, machineAuth, headers, method, uri,
            body, remote);
        if (authorization.refusal() != null)
        {
            return authorization.refusal().as();
        }
        final String resultMode = headers.apply(RESULT_MODE);
        if (resultMode != null && !resultMode.equals("ack") && !resultMode.equals("detailed"))
        {
            return MmRoute.Decision.refuse(TokenRoute.badRequest(RESULT_MODE, "ack (the default) or detailed"));
        }
        final String responseMode = headers.apply(RESPONSE_MODE);
        if (responseMode != null && !responseMode.equals("detailed"))
        {
            return MmRoute.Decision.refuse(
                TokenRoute.badRequest(RESPONSE_MODE, "only detailed (the default) is served"));
        }
        final CompactOrders.Request request;
        try
        {
            request = CompactOrders.decode(body);
        }
        catch (final CompactOrders.Malformed bad)
        {
            return MmRoute.Decision.refuse(TokenRoute.badRequest(bad.field(), bad.getMessage()));
        }
        if (context.marketListed != null && !context.marketListed.test(request.market()))
        {
            // the request's market carries the per-market window's charge: it must be one the venue lists
            return MmRoute.Decision.refuse(
                TokenRoute.badRequest("market", "market " + Long.toUnsignedString(request.market()) +
                " is not listed"));
        }
        final String account = authorization.key().key().account();
        final byte[] accountBytes = Address.of(account).toBytes();
        final long now = System.currentTimeMillis();
        final long[] markets = new long[request.size()];
        for (int i = 0; i < request.size(); i++)
        {
            if (!request.isOf(i, accountBytes))
            {
                return MmRoute.Decision.refuse(
                    new SubmitResponse(403, new JsonWriter().field("ok", false).field("code", "FORBIDDEN")
                    .field("field", "orders[" + i + "].account").field("message", "the credential acts for " + account +
                        ", not for " + request.account(i)).toJson()));
            }
            final long ts = request.ts(i);
            final long skew = context.mmActionTsSkewMs;
            if (ts < now - skew || ts > now + skew)
            {
                return MmRoute.Decision.refuse(TokenRoute.badRequest("orders[" + i + "].ts", "must be within " + skew +
                    " ms of the server's clock (" + now + ")"));
            }
            markets[i] = chargedMarket(request, i);
        }
        final String address = MmRoute.ipWindow(remote);
        final long chargedAtMs = context.entry.context().mmWindows().nowMs();
        final MmWindows windows = context.entry.context().mmWindows();
        final MmWindows.Refusal full = windows.charge(chargedAtMs, account, authorization.key().apiKeyId(), address,
            cost(markets, 0));
        if (full != null)
        {
            return MmRoute.windowFull(context, full, account, path);
        }
        return MmRoute.Decision.admit(new Admitted(account, request, markets,
            "detailed".equals(resultMode), authorization.key().apiKeyId(), address, chargedAtMs));
    }

    /** The result of an order the pool did not take: the verifier queue was full when it came to it. */
    private static final SubmitResponse NOT_VERIFIED = new SubmitResponse(503, HttpResponses.error("QUEUE_LIMIT",
        "the verifier queue was full: this order was not verified, send it again"), 1);

    /** Gives back the charge of the orders from {@code from} on: the pool did not take them. */
    void refund(final Admitted admitted, final int from)
    {
        context.entry.context().mmWindows()
            .refund(admitted.chargedAtMs(), admitted.account(), admitted.apiKeyId(), admitted.address(),
            cost(admitted.markets(), from));
    }

    /**
     * The one answer of a request whose every order was answered ({@code answers[i]} for order i): 200 with a result
     * per order in detailed mode, or only those not accepted in ack mode, and the account's MM budget.
     */
    SubmitResponse answer(final Admitted admitted, final Answer[] answers)
    {
        final List<String> results = new ArrayList<>();
        int accepted = 0;
        for (int i = 0; i < answers.length; i++)
        {
            final boolean ok = answers[i] != null && answers[i].accepted();
            accepted += ok ? 1 : 0;
            if (admitted.detailed() || !ok)
            {
                final SubmitResponse answer = answers[i] == null ? NOT_VERIFIED : HttpAnswers.render(answers[i]);
                results.add(new JsonWriter().field("index", i).field("status", answer.status())
                    .raw("answer", answer.body()).toJson());
            }
        }
        final JsonWriter body = new JsonWriter().field("ok", true)
            .field("resultMode", admitted.detailed() ? "detailed" : "ack")
            .field("orders", answers.length).field("accepted", accepted).field("refused", answers.length - accepted)
            .raw("results", JsonWriter.array(results));
        return new SubmitResponse(200, JsonWriter.extend(body.toJson(), MmRoute.budget(context, admitted.account())));
    }

    /**
     * The market whose window an order counts in as an action (spec 8.2: cancels cost nothing against the action budget
     * and count in their own scope): a place's is the request's; an amend's is its order's, when the node knows the
     * order, else the request's (an order not yet journaled, or gone, which the engine will refuse).
     */
    private long chargedMarket(final CompactOrders.Request request, final int index)
    {
        final int kind = request.kind(index);
        if (kind == TypedOrder.PLACE)
        {
            return request.market();
        }
        if (kind == TypedOrder.AMEND)
        {
            final long known = context.orderMarket == null ? -1 :
                context.orderMarket.applyAsLong(request.orderId(index).toString());
            return known < 0 ? request.market() : known;
        }
        return CANCEL;
    }

    /** What the orders from {@code from} on cost in the MM windows. */
    private static MmWindows.Cost cost(final long[] markets, final int from)
    {
        final MmWindows.Cost cost = new MmWindows.Cost();
        for (int i = from; i < markets.length; i++)
        {
            if (markets[i] == CANCEL)
            {
                cost.cancels(1);
            }
            else
            {
                cost.action(markets[i]);
            }
        }
        return cost;
    }
}
