package io.venue.transport.http;

import io.venue.transport.ws.WsGateway;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** The HTTP lane's routes (docs/API.md) and the forms their path parameters take. */
final class Routes
{
    private Routes()
    {
    }

    static final String SUBMIT = "/api/v1/trading/actions";
    static final String EXCHANGE_INFO = "/api/v1/public/exchange-info";
    static final String BSL_CONNECTIVITY = "/api/v1/bsl/connectivity";
    static final String FIX_CONNECTIVITY = "/api/v1/fix/connectivity";
    static final String OPENAPI = "/api/v1/public/openapi.json";
    static final String ACCOUNTS = "/api/v1/trading/accounts/";
    static final String NONCE = "/nonce";
    static final String ORDERS = "/api/v1/trading/orders/";
    static final String AGENTS = "/api/agents/";
    static final String AGENTS_CREATE = AGENTS + "create";
    static final String AGENTS_REVOKE = AGENTS + "revoke";
    static final String ROTATE = "/rotate";
    static final String OWNER_REVOKE = ACCOUNTS + "owner-revoke";
    static final String WS_TOKEN = "/api/v1/ws/token";
    /** The WebSocket upgrades, served when the lane has a WebSocket gateway. */
    static final String WS_PUBLIC = WsGateway.PUBLIC_PATH;
    static final String WS_PRIVATE = WsGateway.PRIVATE_PATH;
    static final String BSL_EXECUTIONS = "/api/v1/bsl/executions";
    static final String ADMIN_ACTIONS = "/api/v1/admin/actions";
    static final String METRICS = "/api/v1/admin/metrics";
    /** The operator's read of a credential's FIX onboarding record: {@code /api/v1/admin/fix/onboarding/spk_...}. */
    static final String FIX_ONBOARDING = "/api/v1/admin/fix/onboarding/";
    /** A credential's own read of its FIX onboarding record, by its SVC-* headers. */
    static final String FIX_ONBOARDING_OWN = "/api/v1/fix/onboarding";
    static final String MM_REPLACE = "/api/v1/mm/orders/replace";
    static final String MM_CANCEL_REPLACE = "/api/v1/mm/orders/cancel-replace";
    /**
     * The compact binary order routes (spec 4): the beta alias, the direct compatibility route and the canonical one.
     */
    static final String ORDER_ENTRY_BINARY = "/api/order-entry/binary";
    static final String MM_BATCH_BIN = "/api/v1/mm/orders/batch.bin";
    static final String BSL_ORDERS_COMPACT = "/api/v1/bsl/orders/compact";
    static final String BSL_LIMITS = "/api/v1/bsl/limits";
    static final String MM_LIMITS = "/api/v1/mm/limits";
    static final String BSL_SESSIONS = "/api/v1/bsl/sessions";
    static final String BSL_MARKETS = "/api/v1/bsl/markets/";
    static final String QUOTE_OBLIGATIONS = "/quote-obligations";
    static final String BSL_ACCOUNTS = "/api/v1/bsl/accounts/";
    static final String EXECUTIONS = "/executions";
    /** The feed's reads: a market's book and trades, an account's open orders, balances and positions. */
    static final String MARKETS = "/api/v1/public/markets/";
    static final String BOOK = "/book";
    static final String TRADES = "/trades";
    static final Map<String, String> ACCOUNT_READS = orderedMap("/open-orders", "orders", "/balances", "balances",
        "/positions", "positions");
    static final String ASYNCAPI = "/api/v1/public/asyncapi.json";
    /** Cancel-all as a route of its own (spec 4.2): a signed CancelAll, answered with the count it cancelled. */
    static final String CANCEL_ALL = "/api/v1/trading/cancel-all";
    static final String DEAD_MAN = ProtectionRoute.DEAD_MAN;
    static final String CANCEL_ON_DISCONNECT = ProtectionRoute.CANCEL_ON_DISCONNECT;
    /** Every route served, for the OpenAPI document's test. */
    static final List<String> ROUTES = List.of(SUBMIT, SUBMIT + "/{digest}", EXCHANGE_INFO, BSL_CONNECTIVITY,
        FIX_CONNECTIVITY, OPENAPI, ACCOUNTS + "{account}" + NONCE, AGENTS_CREATE, AGENTS + "{id}" + ROTATE,
        AGENTS_REVOKE, OWNER_REVOKE, WS_TOKEN, BSL_ACCOUNTS + "{account}" + EXECUTIONS, ORDERS + "{orderId}",
        BSL_EXECUTIONS, BSL_SESSIONS,
        BSL_MARKETS + "{marketId}" + QUOTE_OBLIGATIONS, MM_REPLACE, MM_CANCEL_REPLACE, ORDER_ENTRY_BINARY, MM_BATCH_BIN,
        BSL_ORDERS_COMPACT, BSL_LIMITS, MM_LIMITS, ADMIN_ACTIONS, METRICS, MARKETS + "{marketId}" + BOOK,
        MARKETS + "{marketId}" + TRADES, ACCOUNTS + "{account}/open-orders", ACCOUNTS + "{account}/balances",
        ACCOUNTS + "{account}/positions", ASYNCAPI, SchemaRoutes.SCHEMAS, SchemaRoutes.SCHEMAS + "/{name}",
        CANCEL_ALL, DEAD_MAN, CANCEL_ON_DISCONNECT, FIX_ONBOARDING + "{apiKeyId}",
        FIX_ONBOARDING_OWN);
    static final Pattern DIGEST = Pattern.compile("0x[0-9a-f]{64}");
    static final Pattern ADDRESS = Pattern.compile("0x[0-9a-f]{40}");
    static final Pattern API_KEY_ID = Pattern.compile("spk_[0-9a-f]{16}");

    /** What a route's head is asked before its body is read: nothing, the edge throttle, or the MM lane's count. */
    enum HeadThrottle
    {
        NONE, EDGE, MM
    }

    /**
     * Which throttle a POST to {@code path} (origin form, query removed) passes: the write routes the edge throttle,
     * the MM lane's routes its count of failed authentications; the reads neither.
     */
    static HeadThrottle headThrottle(final String path)
    {
        return switch (path)
        {
            case SUBMIT, ADMIN_ACTIONS, AGENTS_CREATE, AGENTS_REVOKE, OWNER_REVOKE, WS_TOKEN, CANCEL_ALL ->
                HeadThrottle.EDGE;
            case MM_REPLACE, MM_CANCEL_REPLACE, ORDER_ENTRY_BINARY, MM_BATCH_BIN, BSL_ORDERS_COMPACT, DEAD_MAN,
                CANCEL_ON_DISCONNECT -> HeadThrottle.MM;
            default -> path.startsWith(AGENTS) && path.endsWith(ROTATE) ? HeadThrottle.EDGE : HeadThrottle.NONE;
        };
    }

    /** The path and query of a request target in absolute form ({@code http://host/path?query}); any other as it is. */
    static String originForm(final String target)
    {
        final int authority = target.regionMatches(true, 0, "http://", 0, 7) ? 7 :
            target.regionMatches(true, 0, "https://", 0, 8) ? 8 : -1;
        if (authority < 0)
        {
            return target;
        }
        int end = authority;
        while (end < target.length() && target.charAt(end) != '/' && target.charAt(end) != '?')
        {
            end++;
        }
        return end == target.length() ? "/" : target.charAt(end) == '/' ? target.substring(end) :
            "/" + target.substring(end);
    }

    private static Map<String, String> orderedMap(final String... pairs)
    {
        final Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2)
        {
            map.put(pairs[i], pairs[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }
}
