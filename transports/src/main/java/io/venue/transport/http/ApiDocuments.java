package io.venue.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The checked-in API documents, served as they are: the OpenAPI document of the routes (resource
 * {@code openapi.json}) and the AsyncAPI document of the WebSocket streams ({@code asyncapi.json}).
 */
final class ApiDocuments
{
    static final String OPENAPI = load("openapi.json");
    static final String ASYNCAPI = load("asyncapi.json");

    private ApiDocuments()
    {
    }

    private static String load(final String name)
    {
        try (InputStream in = ApiDocuments.class.getResourceAsStream(name))
        {
            if (in == null)
            {
                throw new IllegalStateException("missing resource io/venue/transport/http/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
