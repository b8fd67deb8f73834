package io.venue.transport.http;

import io.venue.action.Address;
import io.venue.auth.Scope;
import io.venue.codec.JsonWriter;
import io.venue.entry.Answer;
import io.venue.entry.protect.ProtectionCommands;
import io.venue.entry.protect.SessionProtection;

import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The protection routes (docs/API.md, "Protections"): POST {@value #DEAD_MAN} arms, renews or disarms an account's
 * dead-man timer, POST {@value #CANCEL_ON_DISCONNECT} arms or disarms its explicit cancel-on-disconnect (for wallet
 * sessions, which have no automatic sweep). Both take an agent's SVC-* machine headers (a credential of the account
 * holding cancel or quote) and a small JSON body; the account is the credential's. One instance per connection.
 */
final class ProtectionRoute
{
    static final String DEAD_MAN = "/api/v1/protection/dead-man";
    static final String CANCEL_ON_DISCONNECT = "/api/v1/protection/cancel-on-disconnect";

    /** An authenticated, well-formed request: the account's 20 bytes, the market (or all) and the value asked. */
    record Request(byte[] account, String accountText, long market, long countdownMs, boolean armed)
    {
    }

    private final MachineAuth machineAuth;
    private final SessionProtection protection;

    ProtectionRoute(final MachineAuth machineAuth, final SessionProtection protection)
    {
        this.machineAuth = machineAuth;
        this.protection = protection;
    }

    boolean served()
    {
        return protection != null;
    }

    /** Authenticates and reads the request; a decision to refuse, or the request. */
    MmRoute.Decision<Request> decide(final Function<String, String> headers, final String method, final String uri,
        final String path, final byte[] body)
    {
        final MachineAuth.Authenticated auth = machineAuth.authenticate(headers, method, uri, body,
            System.currentTimeMillis());
        if (auth.refusal() != null)
        {
            return new MmRoute.Decision<>(0, auth.refusal(), null);
        }
        if (!auth.key().holds(Scope.CANCEL) && !auth.key().holds(Scope.QUOTE))
        {
            return MmRoute.Decision.refuse(new SubmitResponse(403, HttpResponses.error("SCOPE_DENIED",
                "a protection needs a credential of the account holding the cancel or the quote scope")));
        }
        final boolean deadMan = path.equals(DEAD_MAN);
        final Map<?, ?> fields;
        try
        {
            if (!(JsonReader.read(body) instanceof Map<?, ?> map))
            {
                throw new JsonReader.JsonException("the body is a JSON object");
            }
            fields = map;
        }
        catch (final JsonReader.JsonException ex)
        {
            return MmRoute.Decision.refuse(TokenRoute.badRequest("", ex.getMessage()));
        }
        final Set<String> allowed = deadMan ? Set.of("countdownMs", "market") : Set.of("armed", "market");
        for (final Object key : fields.keySet())
        {
            if (!allowed.contains(key))
            {
                return MmRoute.Decision.refuse(TokenRoute.badRequest(String.valueOf(key), "unknown field; the body " +
                    "holds " + (deadMan ? "countdownMs and optionally market" : "armed and optionally market")));
            }
        }
        long market = ProtectionCommands.ALL_MARKETS;
        final Object marketValue = fields.get("market");
        if (marketValue != null)
        {
            if (!(marketValue instanceof Long id) || id < 0 || id > 0xFFFF_FFFFL)
            {
                return MmRoute.Decision.refuse(TokenRoute.badRequest("market", "a market id, 0 to 4294967295, or " +
                    "absent (or null) for every market"));
            }
            market = id;
        }
        final String account = auth.key().account();
        final byte[] accountBytes = Address.of(account).toBytes();
        if (deadMan)
        {
            if (!(fields.get("countdownMs") instanceof Long countdown))
            {
                return MmRoute.Decision.refuse(TokenRoute.badRequest("countdownMs", "an integer of milliseconds; 0 " +
                    "disarms"));
            }
            final String refused = protection.deadManRefusal(countdown);
            if (refused != null)
            {
                return MmRoute.Decision.refuse(TokenRoute.badRequest("countdownMs", refused));
            }
            return MmRoute.Decision.admit(new Request(accountBytes, account, market, countdown, countdown > 0));
        }
        if (!(fields.get("armed") instanceof Boolean armed))
        {
            return MmRoute.Decision.refuse(TokenRoute.badRequest("armed", "true or false"));
        }
        return MmRoute.Decision.admit(new Request(accountBytes, account, market, 0, armed));
    }

    /**
     * The engine's outcome as the route answers it: 200 when armed, renewed or disarmed; 404 NOT_ARMED for a disarm of
     * nothing; 503 PROTECTION_TABLE_FULL; 400 for a duration the engine refuses.
     */
    static SubmitResponse answer(final Request request, final Answer answer)
    {
        if (answer.kind != Answer.Kind.ACCEPTED || answer.protectionAction == null)
        {
            return HttpAnswers.render(answer);
        }
        final String action = answer.protectionAction;
        final int status = switch (action)
        {
            case "ARMED", "RENEWED", "DISARMED" -> 200;
            case "REFUSED_UNKNOWN" -> 404;
            case "REFUSED_FULL" -> 503;
            default -> 400;
        };
        final JsonWriter body = new JsonWriter().field("ok", status == 200);
        if (status != 200)
        {
            body.field("code", switch (action)
            {
                case "REFUSED_UNKNOWN" -> "NOT_ARMED";
                case "REFUSED_FULL" -> "PROTECTION_TABLE_FULL";
                default -> "OUT_OF_BOUNDS";
            });
        }
        body.field("action", action).field("account", request.accountText());
        if (request.market() == ProtectionCommands.ALL_MARKETS)
        {
            body.raw("market", "null");
        }
        else
        {
            body.field("market", request.market());
        }
        if (answer.protectionDeadlineMs > 0)
        {
            body.field("deadlineMs", answer.protectionDeadlineMs);
        }
        body.field("sequence", answer.sequence).field("serverTimeMs", answer.serverTimeMs);
        return new SubmitResponse(status, body.toJson());
    }
}
