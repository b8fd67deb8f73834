package io.venue.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/** Sends a signed body to POST /api/v1/trading/actions (or another route) and prints the appliance's answer. */
final class Submit
{
    static final String ROUTE = "/api/v1/trading/actions";

    private Submit()
    {
    }

    /**
     * @return 0 when the answer is 200 with ok true, 1 for any other answer or when the appliance cannot be reached.
     */
    static int post(final String baseUrl, final byte[] body, final PrintWriter out, final PrintWriter err)
    {
        return post(baseUrl, ROUTE, body, out, err);
    }

    /** The same, to another route of the appliance. */
    static int post(final String baseUrl, final String route, final byte[] body, final PrintWriter out,
        final PrintWriter err)
    {
        return post(baseUrl, route, body, Map.of(), out, err);
    }

    /** The same, with extra request headers (the SVC-* machine headers; a Content-Type among them replaces JSON's). */
    static int post(final String baseUrl, final String route, final byte[] body, final Map<String, String> headers,
        final PrintWriter out, final PrintWriter err)
    {
        return accepted(send(baseUrl, route, body, headers, out, err)) ? 0 : 1;
    }

    /** Whether an answer of {@link #send} is 200 with ok true. */
    static boolean accepted(final HttpResponse<String> response)
    {
        return response != null && response.statusCode() == 200 && response.body().startsWith("{\"ok\":true");
    }

    /** Sends and prints as {@link #post}; returns the answer, or null when the appliance could not be reached. */
    static HttpResponse<String> send(final String baseUrl, final String route, final byte[] body,
        final Map<String, String> headers, final PrintWriter out, final PrintWriter err)
    {
        final String url = baseUrl.replaceAll("/+$", "") + route;
        try
        {
            final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
            if (!headers.containsKey("Content-Type"))
            {
                request.header("Content-Type", "application/json");
            }
            headers.forEach(request::header);
            final HttpResponse<String> response = client.send(request.build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            err.println("HTTP " + response.statusCode());
            err.flush();
            out.println(response.body());
            out.flush();
            return response;
        }
        catch (final IOException | IllegalArgumentException ex)
        {
            err.println("could not submit to " + url + ": " + ex);
            err.flush();
            return null;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
