package io.venue.transport.http;

import org.junit.jupiter.api.Test;

import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The OpenAPI document names exactly the routes the handler serves. */
class OpenApiDocumentTest
{
    @Test
    void documentsEveryRouteServedAndNoOther()
    {
        final String text = OpenApiDocument.TEXT;
        assertTrue(text.startsWith("{\n  \"openapi\": \"3.0.3\""), text.substring(0, 40));
        final Matcher paths = Pattern.compile("\n    \"(/api/[^\"]+)\": \\{").matcher(text);
        final TreeSet<String> documented = new TreeSet<>();
        while (paths.find())
        {
            documented.add(paths.group(1));
        }
        assertEquals(new TreeSet<>(Routes.ROUTES), documented);
        // a response's headers are a map from header name to header: a reference in place of the map names no header
        assertTrue(!Pattern.compile("\"headers\": \\{\\s*\"\\$ref\"").matcher(text).find(),
            "a headers map that is a reference");
    }
}
