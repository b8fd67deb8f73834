package io.venue.transport.http;

import io.venue.action.Address;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.codec.JsonWriter;
import io.venue.entry.Answer;
import io.venue.entry.protect.ProtectionCommands;
import io.venue.entry.protect.ProtectionText;
import io.venue.entry.protect.SessionProtection;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.svc.SvcHeaders;

import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The protection routes (docs/API.md, "Protections"): POST {@value #DEAD_MAN} arms, renews or disarms an account's
 * dead-man timer, POST {@value #CANCEL_ON_DISCONNECT} arms or disarms its explicit cancel-on-disconnect (for wallet
 * sessions, which have no automatic sweep). Both take an agent's SVC-* machine headers (a credential of the account
 * holding cancel or quote; the account is the credential's) or the account's own EIP-191 signature of the request's
 * {@link ProtectionText} in the body ({@link ProtectionSignatures}), and a small JSON body. One instance per
 * connection.
 */
final class ProtectionRoute
{
    static final String DEAD_MAN = "/api/v1/protection/dead-man";
    static final String CANCEL_ON_DISCONNECT = "/api/v1/protection/cancel-on-disconnect";

    /** An authenticated, well-formed request: the account's 20 bytes, the market (or all) and the value asked. */
    record Request(byte[] account, String accountText, long market, long countdownMs, boolean armed)
    {
    }

    private static final Set<String> WALLET_FIELDS = Set.of("account", "nonce", "timestampMs", "signature");
    private static final Pattern SIGNATURE = Pattern.compile("0x[0-9a-f]{130}");

    private final MachineAuth machineAuth;
    private final SessionProtection protection;
    /** Null: the node takes no wallet-signed protection requests (machine headers only). */
    private final ProtectionSignatures signatures;

    ProtectionRoute(final MachineAuth machineAuth, final SessionProtection protection,
        final ProtectionSignatures signatures)
    {
        this.machineAuth = machineAuth;
        this.protection = protection;
        this.signatures = signatures;
    }

    boolean served()
    {
        return protection != null;
    }

    /**
     * Authenticates and reads the request; a decision to refuse, or the request. Without SVC-* headers and with a
     * {@code signature} in the body, the account's own signature of its {@link ProtectionText} authenticates it
     * ({@link ProtectionSignatures}); otherwise an agent's machine headers do.
     */
    MmRoute.Decision<Request> decide(final Function<String, String> headers, final String method, final String uri,
        final String path, final byte[] body)
    {
        final boolean deadMan = path.equals(DEAD_MAN);
        if (signatures != null && headers.apply(SvcHeaders.AUTH_VERSION) == null &&
            headers.apply(SvcHeaders.KEY) == null)
        {
            final Map<?, ?> fields = object(body);
            if (fields != null && fields.containsKey("signature"))
            {
                return walletSigned(path, deadMan, fields);
            }
        }
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
        final Map<?, ?> fields = object(body);
        if (fields == null)
        {
            return MmRoute.Decision.refuse(TokenRoute.badRequest("", "the body is a JSON object"));
        }
        final String account = auth.key().account();
        return values(fields, deadMan, Set.of(), Address.of(account).toBytes(), account);
    }

    /** The wallet-signed form: the account, the nonce, the timestamp and the signature beside the request's values. */
    private MmRoute.Decision<Request> walletSigned(final String path, final boolean deadMan, final Map<?, ?> fields)
    {
        if (!(fields.get("account") instanceof String accountText) || !Routes.ADDRESS.matcher(accountText).matches())
        {
            return MmRoute.Decision.refuse(TokenRoute.badRequest("account", "the account, 0x and 40 lowercase hex " +
                "digits"));
        }
        if (!(fields.get("nonce") instanceof Long nonce) || nonce < 0)
        {
            return MmRoute.Decision.refuse(TokenRoute.badRequest("nonce", "an integer from 0 to " + Long.MAX_VALUE));
        }
        if (!(fields.get("timestampMs") instanceof Long timestampMs) || timestampMs < 0)
        {
            return MmRoute.Decision.refuse(TokenRoute.badRequest("timestampMs", "Unix milliseconds"));
        }
        if (!(fields.get("signature") instanceof String signatureText) ||
            !SIGNATURE.matcher(signatureText).matches())
        {
            return MmRoute.Decision.refuse(TokenRoute.badRequest("signature", "0x and 130 lowercase hex digits (r, " +
                "s, v)"));
        }
        final Address account = Address.of(accountText);
        final MmRoute.Decision<Request> read = values(fields, deadMan, WALLET_FIELDS, account.toBytes(), accountText);
        if (read.admitted() == null)
        {
            return read;
        }
        final Request request = read.admitted();
        final ProtectionSignatures.Failure failure = signatures.check(deadMan ? ProtectionText.DEAD_MAN :
            ProtectionText.CANCEL_ON_DISCONNECT, account, request.market(), request.countdownMs(), request.armed(),
            nonce, timestampMs, Hex.fromHex(signatureText));
        if (failure == null)
        {
            return read;
        }
        final String what = "POST " + path + ": wallet-signed protection of " + accountText;
        return new MmRoute.Decision<>(0, switch (failure)
        {
            case STALE -> new TokenRoute.Outcome(new SubmitResponse(401, new JsonWriter().field("ok", false)
                .field("code", "SKEW").field("field", "timestampMs").field("message", "timestampMs must be within " +
                    ProtectionSignatures.SKEW_MS + " ms of the server's clock (serverTimeMs) and not before the node " +
                    "started (acceptsTimestampsFromMs)").field("serverTimeMs", signatures.nowMs())
                .field("acceptsTimestampsFromMs", signatures.acceptsFromMs()).toJson()),
                RequestRejectReason.TIMESTAMP_SKEW, what + " dated " + timestampMs);
            case WRONG_SIGNER -> new TokenRoute.Outcome(new SubmitResponse(401, new JsonWriter().field("ok", false)
                .field("code", "UNAUTHENTICATED").field("field", "signature").field("message", "signature is not the " +
                    "account's own EIP-191 signature of the request's protection text (docs/API.md, Protections)")
                .toJson()), RequestRejectReason.TRANSPORT_AUTH_FAILED, what + ": not the account's signature");
            case REPLAYED -> new TokenRoute.Outcome(new SubmitResponse(409, new JsonWriter().field("ok", false)
                .field("code", "NONCE_REPLAYED").field("field", "nonce").field("message", "this signed text was " +
                    "used already: sign a new one (another nonce or timestamp)").toJson()),
                RequestRejectReason.MACHINE_NONCE_REPLAYED, what + ": text used already");
            case FULL -> TokenRoute.Outcome.answer(new SubmitResponse(503, HttpResponses.error("BUSY", "too many " +
                "wallet-signed protection requests in the last minute; retry after the delay"), 1));
        }, null);
    }

    /** The request's own values (market, countdownMs or armed), every other field refused but {@code extra}. */
    private MmRoute.Decision<Request> values(final Map<?, ?> fields, final boolean deadMan, final Set<String> extra,
        final byte[] accountBytes, final String account)
    {
        final Set<String> allowed = deadMan ? Set.of("countdownMs", "market") : Set.of("armed", "market");
        for (final Object key : fields.keySet())
        {
            if (!allowed.contains(key) && !extra.contains(key))
            {
                return MmRoute.Decision.refuse(TokenRoute.badRequest(String.valueOf(key), "unknown field; the body " +
                    "holds " + (deadMan ? "countdownMs and optionally market" : "armed and optionally market") +
                    (extra.isEmpty() ? "" : ", with account, nonce, timestampMs and signature when wallet-signed")));
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

    /** The body as a JSON object, or null when it is not one. */
    private static Map<?, ?> object(final byte[] body)
    {
        try
        {
            return JsonReader.read(body) instanceof Map<?, ?> map ? map : null;
        }
        catch (final JsonReader.JsonException ex)
        {
            return null;
        }
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
