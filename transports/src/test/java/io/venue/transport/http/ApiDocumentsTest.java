package io.venue.transport.http;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The OpenAPI document names exactly the routes the handler serves; the AsyncAPI document, the two streams. */
class ApiDocumentsTest
{
    @Test
    void documentsEveryRouteServedAndNoOther()
    {
        final String text = ApiDocuments.OPENAPI;
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

    @Test
    @SuppressWarnings("unchecked")
    void theAsyncApiDocumentDescribesBothStreamsAndEveryReferenceResolves() throws Exception
    {
        final Map<String, Object> document =
            (Map<String, Object>)JsonReader.read(ApiDocuments.ASYNCAPI.getBytes(StandardCharsets.UTF_8));
        assertEquals("2.6.0", document.get("asyncapi"));
        assertEquals(Set.of(Routes.WS_PUBLIC, Routes.WS_PRIVATE),
            ((Map<String, Object>)document.get("channels")).keySet());
        final Map<String, Object> messages =
            (Map<String, Object>)((Map<String, Object>)document.get("components")).get("messages");
        final Matcher references =
            Pattern.compile("\"#/components/messages/([A-Za-z]+)\"").matcher(ApiDocuments.ASYNCAPI);
        int count = 0;
        while (references.find())
        {
            assertTrue(messages.containsKey(references.group(1)), references.group(1));
            count++;
        }
        assertTrue(count > messages.size(), count + " references");
    }
}
