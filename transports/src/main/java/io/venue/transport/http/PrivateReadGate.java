package io.venue.transport.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.venue.codec.JsonWriter;
import io.venue.entry.admission.EdgeThrottle;
import io.venue.entry.credential.WsTokens;
import io.venue.transport.http.OrderedAnswers.Slot;

import java.net.InetAddress;

import static io.venue.transport.http.HttpResponses.error;
import static io.venue.transport.http.HttpResponses.json;
import static io.venue.transport.http.Routes.ADDRESS;

/**
 * What every private read of an account passes before it is asked of anyone (spec 4.3: 401 without a token): the
 * address's throttle (every ask counts, with a token or without), a valid bearer token whose credential still holds,
 * the token's account being the path's, then the account's throttle. A refused read is answered here.
 */
final class PrivateReadGate
{
    private final HttpGateway.Context context;
    private final TokenRoute tokens;
    private final OrderedAnswers answers;

    PrivateReadGate(final HttpGateway.Context context, final TokenRoute tokens, final OrderedAnswers answers)
    {
        this.context = context;
        this.tokens = tokens;
        this.answers = answers;
    }

    /** Whether the read of {@code account} may go on; when not, the slot has its answer. */
    boolean admit(final ChannelHandlerContext ctx, final Slot slot, final FullHttpRequest request,
        final String account)
    {
        if (!ReadRoutes.isRead(request.method()))
        {
            answers.fill(ctx, slot, HttpResponses.notAllowed(ReadRoutes.READ_METHODS));
            return false;
        }
        if (context.wsTokens == null)
        {
            answers.fill(ctx, slot,
                json(new SubmitResponse(404, error("NOT_FOUND", "this gateway serves no private reads"))));
            return false;
        }
        if (!admitAddress(ctx, slot))
        {
            return false;
        }
        final String authorization = request.headers().get(HttpHeaderNames.AUTHORIZATION);
        final long now = System.currentTimeMillis();
        final WsTokens.Claims claims = authorization == null || !authorization.startsWith("Bearer ") ? null :
            context.wsTokens.verify(authorization.substring("Bearer ".length()), now);
        if (claims == null || !tokens.stillGranted(claims, now))
        {
            // the server's time, so a client whose clock drifts can tell an expired token from a revoked one
            final FullHttpResponse http = json(
                new SubmitResponse(401, JsonWriter.extend(error("UNAUTHORIZED", authorization == null ?
                "a private read needs Authorization: Bearer <token from POST /api/v1/ws/token>" :
                "the token is malformed, expired, or its credential was revoked: obtain a new one"),
                new JsonWriter().field("serverTimeMs", now))));
            http.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer");
            answers.fill(ctx, slot, http);
            return false;
        }
        if (!ADDRESS.matcher(account).matches())
        {
            answers.fill(ctx, slot, HttpResponses.badRequest("the account is 0x and 40 lowercase hex digits"));
            return false;
        }
        if (!account.equals(claims.account()))
        {
            answers.fill(ctx, slot,
                json(new SubmitResponse(403, error("FORBIDDEN", "the token is for account " + claims.account()))));
            return false;
        }
        // per account once it is known to be the token's: one account's flood waits for itself, not for the others
        final long accountWait = context.readsByAccount.acquire(account);
        if (accountWait > 0)
        {
            answers.fill(ctx, slot, limited("account", accountWait, context.readsByAccount.burst()));
            return false;
        }
        return true;
    }

    /**
     * The address's throttle of the reads that cost another thread's time (private reads, the feed's reads): every ask
     * counts, with a token or without; when refused, the slot has its 429.
     */
    boolean admitAddress(final ChannelHandlerContext ctx, final Slot slot)
    {
        final InetAddress remote = ClientAddress.of(ctx.channel());
        final long addressWait = context.connectionsExempt.contains(remote) ? 0 :
            context.readsByAddress.acquire(EdgeThrottle.key(remote));
        if (addressWait > 0)
        {
            answers.fill(ctx, slot, limited("address", addressWait, context.readsByAddress.burst()));
            return false;
        }
        return true;
    }

    /** The reads' 429: the limiter's code, its burst as the limit, nothing left, and when one is back. */
    private static FullHttpResponse limited(final String scope, final long waitSeconds, final long burst)
    {
        return json(new SubmitResponse(429, error("rate_limited", "too many reads from this " + scope +
            "; retry after the delay"), waitSeconds, burst, 0, waitSeconds * 1_000));
    }
}
