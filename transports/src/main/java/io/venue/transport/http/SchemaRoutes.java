package io.venue.transport.http;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.venue.codec.JsonWriter;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GET /api/v1/public/schemas (the index) and GET /api/v1/public/schemas/{name}.xml: every binary schema the venue
 * speaks, as checked in and compiled into this build (so what is served is what the lanes decode), with its id and
 * version read from the file. Read once when the class loads.
 */
final class SchemaRoutes
{
    static final String SCHEMAS = "/api/v1/public/schemas";
    /** The schemas served: their file names under the build's {@code sbe/} resources, and what each carries. */
    private static final String[][] SCHEMA_FILES = {
        {"venue-bsl.xml", "the compact order body of the HTTP compact routes and of the BSL TCP Orders message"},
        {"venue-bsl-session.xml", "the BSL TCP lane's session messages (docs/BSL-TCP.md)"}};
    private static final Pattern ATTRIBUTE = Pattern.compile("<sbe:messageSchema[^>]*?\\s(id|version)=\"([0-9]+)\"" +
        "[^>]*?\\s(id|version)=\"([0-9]+)\"", Pattern.DOTALL);
    private static final Map<String, String> TEXTS = new LinkedHashMap<>();
    private static final String INDEX;

    static
    {
        final List<String> entries = new ArrayList<>();
        for (final String[] schema : SCHEMA_FILES)
        {
            final String text = load(schema[0]);
            final Matcher matcher = ATTRIBUTE.matcher(text);
            if (!matcher.find())
            {
                throw new IllegalStateException(schema[0] + " names no schema id and version");
            }
            final String id = matcher.group(1).equals("id") ? matcher.group(2) : matcher.group(4);
            final String version = matcher.group(1).equals("version") ? matcher.group(2) : matcher.group(4);
            TEXTS.put(schema[0], text);
            entries.add(new JsonWriter().field("name", schema[0]).field("schemaId", Long.parseLong(id))
                .field("version", Long.parseLong(version)).field("route", SCHEMAS + "/" + schema[0])
                .field("carries", schema[1]).toJson());
        }
        INDEX = new JsonWriter().field("ok", true).field("byteOrder", "littleEndian")
            .raw("schemas", JsonWriter.array(entries)).toJson();
    }

    private SchemaRoutes()
    {
    }

    /** Whether {@code path} is one of these routes. */
    static boolean serves(final String path)
    {
        return path.equals(SCHEMAS) || path.startsWith(SCHEMAS + "/");
    }

    static FullHttpResponse read(final HttpMethod method, final String path)
    {
        if (!ReadRoutes.isRead(method))
        {
            return HttpResponses.notAllowed(ReadRoutes.READ_METHODS);
        }
        if (path.equals(SCHEMAS))
        {
            return HttpResponses.json(new SubmitResponse(200, INDEX));
        }
        final String text = TEXTS.get(path.substring(SCHEMAS.length() + 1));
        if (text == null)
        {
            return HttpResponses.json(new SubmitResponse(404, HttpResponses.error("NOT_FOUND", "no schema of that " +
                "name; GET " + SCHEMAS + " lists them")));
        }
        return HttpResponses.response(HttpResponseStatus.OK, "application/xml; charset=utf-8", text);
    }

    private static String load(final String name)
    {
        try (InputStream in = SchemaRoutes.class.getClassLoader().getResourceAsStream("sbe/" + name))
        {
            if (in == null)
            {
                throw new IllegalStateException("the build holds no sbe/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
