package io.venue.scenario;

import io.venue.transport.http.JsonReader;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What one request on a lane came to, in the lane's own terms: the HTTP status the action (or the request, when it was
 * refused whole) was answered with, whether it was accepted, the wire code of a refusal, the order ids it placed, its
 * journal sequence and digest, the fills it caused, and for a request of several orders the refused ones by index.
 *
 * @param status     the action's HTTP status: the response's, or for an order of a request of several the status of
 *                   its own result
 * @param accepted   {@code ok:true}
 * @param code       the wire code of a refusal ({@code code}, or the MM windows' {@code error}); null when accepted or
 *                   when the answer is not JSON (the edge throttle's plain text)
 * @param orderIds   the ids of the orders placed, in leg order (one for a place)
 * @param sequence   the command's journal sequence (the first order's for a request of several), -1 when none
 * @param trades     fills the action caused (summed over the orders of a request of several)
 * @param legRejects refused legs or orders of a request of several: index to wire code
 * @param answer     the parsed JSON answer of the action (empty for plain text)
 * @param body       the response body as received
 */
public record Result(int status, boolean accepted, String code, String message, List<String> orderIds, long sequence,
    String digest, long trades, Map<Integer, String> legRejects, Map<String, Object> answer, String body,
    Map<String, List<String>> headers)
{
    /** The id of the one order placed. */
    public String orderId()
    {
        if (orderIds.size() != 1)
        {
            throw new AssertionError("expected one order id: " + this);
        }
        return orderIds.get(0);
    }

    /** A header of the response, or null. */
    public String header(final String name)
    {
        final List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** Whether this is the refusal {@code status} / {@code code}. */
    public boolean is(final int expectedStatus, final String expectedCode)
    {
        return status == expectedStatus && !accepted && Objects.equals(code, expectedCode);
    }

    @Override
    public String toString()
    {
        return status + " " + body;
    }

    /** The trading route's answer to one action (docs/API.md, "Submitting an action"). */
    static Result of(final HttpResponse<String> response)
    {
        return of(response.statusCode(), response.body(), response.headers().map());
    }

    static Result of(final int status, final String body, final Map<String, List<String>> headers)
    {
        return of(status, parse(body), body, headers);
    }

    static Result of(final int status, final Map<String, Object> answer, final String body,
        final Map<String, List<String>> headers)
    {
        final List<String> ids = new ArrayList<>();
        if (answer.get("orderId") instanceof String id)
        {
            ids.add(id);
        }
        if (answer.get("orderIds") instanceof List<?> list)
        {
            list.forEach(id -> ids.add((String)id));
        }
        final Map<Integer, String> legs = new LinkedHashMap<>();
        if (answer.get("legRejects") instanceof List<?> list)
        {
            for (final Object leg : list)
            {
                final Map<?, ?> reject = (Map<?, ?>)leg;
                legs.put(((Long)reject.get("leg")).intValue(), (String)reject.get("code"));
            }
        }
        final Object code = answer.containsKey("code") ? answer.get("code") : answer.get("error");
        return new Result(status, Boolean.TRUE.equals(answer.get("ok")), (String)code, (String)answer.get("message"),
            List.copyOf(ids), number(answer, "sequence"), (String)answer.get("digest"),
            Math.max(0, number(answer, "trades")), Collections.unmodifiableMap(legs), answer, body, lowerCase(headers));
    }

    static long number(final Map<String, Object> json, final String name)
    {
        return json.get(name) instanceof Long value ? value : -1;
    }

    /** The body as a JSON object, or an empty map when it is not one (the edge throttle answers plain text). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> parse(final String body)
    {
        if (body == null || !body.startsWith("{"))
        {
            return Map.of();
        }
        try
        {
            return (Map<String, Object>)JsonReader.read(body.getBytes(StandardCharsets.UTF_8));
        }
        catch (final JsonReader.JsonException ex)
        {
            throw new AssertionError(
                "the venue answered JSON that does not read (" + ex.getMessage() + "): " + body, ex);
        }
    }

    private static Map<String, List<String>> lowerCase(final Map<String, List<String>> headers)
    {
        final Map<String, List<String>> lower = new LinkedHashMap<>();
        headers.forEach((name, values) -> lower.put(name.toLowerCase(Locale.ROOT), values));
        return Collections.unmodifiableMap(lower);
    }
}
