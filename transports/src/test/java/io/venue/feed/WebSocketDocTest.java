package io.venue.feed;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/WEBSOCKET.md documents every error code the feed answers, and every channel kind. */
class WebSocketDocTest
{
    @Test
    void everyErrorCodeAndChannelIsDocumented() throws IOException
    {
        final String doc = Files.readString(Path.of("").toAbsolutePath().getParent().resolve("docs/WEBSOCKET.md"));
        final String errors = doc.substring(doc.indexOf("## Errors"), doc.indexOf("## REST reconciliation reads"));
        for (final FeedError code : FeedError.values())
        {
            assertTrue(errors.contains("| `" + code.name() + "` |"), code.name());
        }
        final String channels = doc.substring(doc.indexOf("## Channels"), doc.indexOf("## Frames"));
        for (final ChannelName.Kind kind : ChannelName.Kind.values())
        {
            assertTrue(channels.contains("| `" + kind.prefix()), kind.name());
        }
    }
}
