package io.venue.transport.http;

import io.venue.codec.JsonWriter;
import io.venue.entry.Answer;
import io.venue.entry.mm.CompactAdmission;
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

    /**
     * An admitted request: {@code bodies} are the orders, typed, in order (a view over the request's body, each offered
     * as it is), {@code charge} what the core's admission charged to the MM windows.
     */
    record Admitted(CompactAdmission.Admitted charge, CompactOrders.Request bodies, boolean detailed)
    {
        String account()
        {
            return charge.account();
        }
    }

    private final HttpGateway.Context context;
    private final MachineAuth machineAuth;
    private final CompactAdmission admission;

    CompactOrderRoute(final HttpGateway.Context context, final MachineAuth machineAuth)
    {
        this.context = context;
        this.machineAuth = machineAuth;
        this.admission = context.entry.context().mmWindows() == null ? null :
            new CompactAdmission(context.entry.context().mmWindows(), context.mmActionTsSkewMs, context.marketListed,
            context.orderMarket);
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
        final String account = authorization.key().key().account();
        final CompactAdmission.Verdict verdict = admission.admit(request, account, Address.of(account).toBytes(),
            authorization.key().apiKeyId(), MmRoute.ipWindow(remote), System.currentTimeMillis());
        if (verdict.full() != null)
        {
            return MmRoute.windowFull(context, verdict.full(), account, path);
        }
        final CompactAdmission.Fault fault = verdict.fault();
        if (fault != null)
        {
            return MmRoute.Decision.refuse(fault.kind() == CompactAdmission.FaultKind.WRONG_ACCOUNT ?
                new SubmitResponse(403, new JsonWriter().field("ok", false).field("code", "FORBIDDEN")
                .field("field", fault.field()).field("message", fault.message()).toJson()) :
                TokenRoute.badRequest(fault.field(), fault.message()));
        }
        return MmRoute.Decision.admit(new Admitted(verdict.admitted(), request, "detailed".equals(resultMode)));
    }

    /** The result of an order the pool did not take: the verifier queue was full when it came to it. */
    private static final SubmitResponse NOT_VERIFIED = new SubmitResponse(503, HttpResponses.error("QUEUE_LIMIT",
        "the verifier queue was full: this order was not verified, send it again"), 1);

    /** Gives back the charge of the orders from {@code from} on: the pool did not take them. */
    void refund(final Admitted admitted, final int from)
    {
        admission.refund(admitted.charge(), from);
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
}
