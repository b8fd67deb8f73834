package io.venue.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The checked-in OpenAPI document of the routes served (resource {@code openapi.json}), served as it is. */
final class OpenApiDocument
{
    static final String TEXT = load();

    private OpenApiDocument()
    {
    }

    private static String load()
    {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream("openapi.json"))
        {
            if (in == null)
            {
                throw new IllegalStateException("missing resource io/venue/transport/http/openapi.json");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
