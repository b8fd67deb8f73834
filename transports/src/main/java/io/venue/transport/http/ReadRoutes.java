package io.venue.transport.http;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.venue.codec.Hex;
import io.venue.codec.JsonWriter;
import io.venue.codec.MetricsText;
import io.venue.entry.Answer;
import io.venue.entry.ExecutionPages;
import io.venue.entry.mm.MmWindows;
import io.venue.transport.bsl.CompactOrders;

import java.net.InetAddress;
import java.util.List;
import java.util.function.Supplier;

import static io.venue.transport.http.HttpResponses.error;
import static io.venue.transport.http.HttpResponses.json;
import static io.venue.transport.http.Routes.DIGEST;

/**
 * The routes that only read what the node knows (docs/API.md): what happened to an action, an order's status, an
 * account's nonce window, the limits, the readiness routes, the operator's metrics. Each answers at once, on the
 * I/O thread that asks; none writes anything.
 */
final class ReadRoutes
{
    private final HttpGateway.Context context;

    ReadRoutes(final HttpGateway.Context context)
    {
        this.context = context;
    }

    /** The methods of a read: HEAD answers as GET does, without the body (Netty's codec leaves it out). */
    static final String READ_METHODS = "GET, HEAD";

    static boolean isRead(final HttpMethod method)
    {
        return method.equals(HttpMethod.GET) || method.equals(HttpMethod.HEAD);
    }

    /** A GET (or HEAD) whose body comes from {@code body}; 405 for another method. */
    static FullHttpResponse read(final HttpMethod method, final Supplier<String> body)
    {
        return isRead(method) ? json(new SubmitResponse(200, body.get())) : HttpResponses.notAllowed(READ_METHODS);
    }

    /** GET /api/v1/trading/actions/{digest}: the answer that says what happened to the action. */
    FullHttpResponse actionStatus(final HttpMethod method, final String digest)
    {
        if (!isRead(method))
        {
            return HttpResponses.notAllowed(READ_METHODS);
        }
        if (!DIGEST.matcher(digest).matches())
        {
            return HttpResponses.badRequest("the action digest is 0x and 64 lowercase hex digits");
        }
        final Answer found = context.actionStatus.apply(Hex.fromHex(digest.substring(2)));
        final SubmitResponse answer = found == null ? null : HttpAnswers.render(found);
        if (answer == null)
        {
            return json(new SubmitResponse(404, error("UNKNOWN_ACTION", "no action with this digest among the recent " +
                "ones: it may never have reached the journal; resend the same signed body (a duplicate is refused " +
                "nonce_replayed)")));
        }
        return json(new SubmitResponse(200, new JsonWriter().field("ok", true).field("found", true)
            .field("httpStatus", answer.status()).raw("answer", answer.body()).toJson()));
    }

    /** GET /api/v1/trading/orders/{orderId}. */
    FullHttpResponse orderStatus(final HttpMethod method, final String orderId)
    {
        if (!isRead(method))
        {
            return HttpResponses.notAllowed(READ_METHODS);
        }
        if (!DIGEST.matcher(orderId).matches())
        {
            return HttpResponses.badRequest("an order id is 0x and 64 lowercase hex digits");
        }
        final String status = context.orderStatus.apply(orderId);
        return json(status != null ? new SubmitResponse(200, status) : new SubmitResponse(404, error("UNKNOWN_ORDER",
            "no open order and none of the last 100,000 finished ones has this id: GET " +
            "/api/v1/trading/actions/{digest} " + "says what happened to the action that placed it")));
    }

    /** GET /api/v1/trading/accounts/{account}/nonce. */
    FullHttpResponse nonceWindow(final HttpMethod method, final String account)
    {
        // the method first, as on every other route
        if (!isRead(method))
        {
            return HttpResponses.notAllowed(READ_METHODS);
        }
        if (!Routes.ADDRESS.matcher(account).matches())
        {
            return HttpResponses.badRequest("the account is 0x and 40 lowercase hex digits");
        }
        return read(method, () -> context.nonceStatus.apply(account));
    }

    /** No quoting obligations are configured on this venue: a listed market has an empty list, another is 404. */
    FullHttpResponse quoteObligations(final HttpMethod method, final String market)
    {
        if (!isRead(method))
        {
            return HttpResponses.notAllowed(READ_METHODS);
        }
        final long marketId = market.matches("0|[1-9][0-9]{0,9}") ? Long.parseLong(market) : -1;
        if (marketId < 0 || marketId > 0xFFFF_FFFFL)
        {
            return HttpResponses.badRequest("a market id is an integer from 0 to 4294967295");
        }
        if (context.marketListed == null || !context.marketListed.test(marketId))
        {
            return json(new SubmitResponse(404, error("UNKNOWN_MARKET", "no market " + marketId + " is listed")));
        }
        return json(new SubmitResponse(200, new JsonWriter().field("ok", true).field("marketId", marketId)
            .raw("obligations", "[]").toJson()));
    }

    /** What execution streams this node serves, and how to page through them (spec 4: stream and replay metadata). */
    static String executionStreams()
    {
        return new JsonWriter().field("ok", true).raw("streams", JsonWriter.array(List.of(new JsonWriter()
            .field("name", "account-executions").field("route", Routes.BSL_ACCOUNTS + "{account}" + Routes.EXECUTIONS)
            .field("auth", "Authorization: Bearer <token from POST " + Routes.WS_TOKEN + ">")
            .field("cursor", "a command sequence: 0 for the first page, then each page's nextCursor")
            .field("replay", "from the first command the venue journaled")
            .field("pageExecutions", ExecutionPages.EXECUTIONS)
            .field("pageCommandsScanned", ExecutionPages.COMMANDS_SCANNED).toJson()))).toJson();
    }

    /** GET /api/v1/bsl/limits and /api/v1/mm/limits: the limits in force (spec 8.2's envelope, live values). */
    FullHttpResponse limits(final HttpMethod method)
    {
        final MmWindows windows = context.entry.context().mmWindows();
        if (windows == null)
        {
            return json(new SubmitResponse(404, error("NOT_FOUND", "this gateway takes no MM orders")));
        }
        final MmWindows.Limits l = windows.limits();
        // the compact order routes' limits, when they are served (spec 8.2's actions.* and ingress.*)
        final String actions = !context.compactOrders ? null : new JsonWriter()
            .field("maxPerBatch", CompactOrders.MAX_ORDERS)
            .field("lowLatencyMaxActions", context.entry.context().lowLatencyMaxActions())
            .field("maxActionTsSkewMs", context.mmActionTsSkewMs).toJson();
        final String ingress = !context.compactOrders ? null : new JsonWriter()
            .field("binaryMaxBodyBytes", context.maxBodyBytes).toJson();
        final String backlog = !context.compactOrders ? null : new JsonWriter()
            .field("prebatchedMaxBatches", context.entry.context().prebatchedMaxBatches()).toJson();
        return read(method, () -> addCompact(new JsonWriter().field("ok", true), actions, ingress, backlog)
            .raw("rateLimits", new JsonWriter()
            .field("windowMs", l.windowMs()).field("maxActionsPerWindow", l.accountActions())
            .field("maxCancelsPerWindow", l.accountCancels()).field("maxActionsPerApiKeyWindow", l.keyActions())
            .field("maxActionsPerIpWindow", l.ipActions()).field("maxActionsPerMarketWindow", l.marketActions())
            .field("maxActionsPerShardWindow", l.shardActions()).toJson())
            .raw("builderPlans", new JsonWriter().field("windowMs", MmWindows.Plans.MINUTE_MS)
                .field("basic", windows.plans().basicPerMinute()).field("pro", windows.plans().proPerMinute()).toJson())
            .raw("tradingLimits", context.tradingLimits == null ? "{}" : context.tradingLimits).toJson());
    }

    private static JsonWriter addCompact(final JsonWriter writer, final String actions, final String ingress,
        final String backlog)
    {
        return actions == null ? writer :
            writer.raw("actions", actions).raw("ingress", ingress).raw("backlog", backlog);
    }

    /**
     * GET /api/v1/admin/fix/onboarding/{apiKeyId}: a credential's FIX onboarding record as the events tell it, only to
     * the operator's addresses (those of the metrics route); to anyone else the route does not exist. 404
     * {@code NOT_ONBOARDED} for a credential without one.
     */
    FullHttpResponse fixOnboarding(final HttpMethod method, final InetAddress remote, final String apiKeyId)
    {
        if (context.fixOnboarding == null || !context.metricsAllowed.contains(remote))
        {
            return json(new SubmitResponse(404, error("NOT_FOUND", "no route " + Routes.FIX_ONBOARDING + apiKeyId)));
        }
        if (!isRead(method))
        {
            return HttpResponses.notAllowed(READ_METHODS);
        }
        if (!Routes.API_KEY_ID.matcher(apiKeyId).matches())
        {
            return HttpResponses.badRequest("the credential id is spk_ and 16 lowercase hex digits");
        }
        final String record = context.fixOnboarding.apply(apiKeyId);
        if (record == null)
        {
            return json(new SubmitResponse(404, error("NOT_ONBOARDED", "no FIX onboarding record for " + apiKeyId +
                ": the operator sets one with the SetFixOnboarding admin action")));
        }
        return read(method, () -> record);
    }

    /** GET /api/v1/admin/metrics: only to the operator's addresses; to anyone else the route does not exist. */
    FullHttpResponse metrics(final HttpMethod method, final InetAddress remote)
    {
        if (context.metrics == null || !context.metricsAllowed.contains(remote))
        {
            return json(new SubmitResponse(404, error("NOT_FOUND", "no route " + Routes.METRICS)));
        }
        if (!isRead(method))
        {
            return HttpResponses.notAllowed(READ_METHODS);
        }
        return HttpResponses.response(HttpResponseStatus.OK, MetricsText.CONTENT_TYPE, context.metrics.get());
    }

}
