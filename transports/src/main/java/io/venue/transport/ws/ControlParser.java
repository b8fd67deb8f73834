package io.venue.transport.ws;

import io.venue.feed.Feed;
import io.venue.transport.http.JsonReader;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A client message to a {@link Control}, strictly (docs/WEBSOCKET.md, "Control messages"): a JSON object with a
 * known {@code method}, an integer {@code id} from 0 to 2^53 - 1 (what a JavaScript client can hold exactly), the
 * method's fields of the right types and nothing else. Anything else is a {@link BadControl} carrying the id when it
 * was read, so the error frame names the request. Pure: no state, any thread.
 */
final class ControlParser
{
    static final long MAX_ID = (1L << 53) - 1;
    /** Longer channel names and epochs are refused: none is near this long. */
    static final int MAX_NAME_LENGTH = 64;
    private static final Pattern CHANNEL = Pattern.compile("[A-Za-z0-9_.:-]{1," + MAX_NAME_LENGTH + "}");

    enum Method
    {
        AUTH, SUBSCRIBE, UNSUBSCRIBE, RESEND, PING
    }

    /** One valid client message; the fields its method does not use are null or 0. */
    record Control(Method method, long id, String token, List<String> channels, Map<String, Feed.Cursor> resume,
        String channel, long fromSeq, long toSeq)
    {
    }

    /** Why a message was refused; {@code id} is null when it could not be read. */
    static final class BadControl extends Exception
    {
        final Long id;
        final String code;

        BadControl(final Long id, final String code, final String message)
        {
            super(message, null, false, false);
            this.id = id;
            this.code = code;
        }
    }

    private ControlParser()
    {
    }

    static Control parse(final byte[] text, final int maxChannels) throws BadControl
    {
        final Object value;
        try
        {
            value = JsonReader.read(text);
        }
        catch (final JsonReader.JsonException ex)
        {
            throw new BadControl(null, "BAD_JSON", ex.getMessage());
        }
        if (!(value instanceof Map<?, ?> object))
        {
            throw new BadControl(null, "BAD_REQUEST", "a message is a JSON object");
        }
        final Long id = object.get("id") instanceof Long read && read >= 0 && read <= MAX_ID ? read : null;
        if (id == null)
        {
            throw new BadControl(null, "BAD_REQUEST", "id is required: an integer from 0 to 2^53 - 1");
        }
        if (!(object.get("method") instanceof String name))
        {
            throw new BadControl(id, "BAD_REQUEST", "method is required: a string");
        }
        final Method method = method(id, name);
        return switch (method)
        {
            case AUTH ->
            {
                only(id, object, Set.of("method", "id", "token"));
                if (!(object.get("token") instanceof String token))
                {
                    throw new BadControl(id, "BAD_REQUEST", "token is required: a string");
                }
                yield new Control(method, id, token, null, null, null, 0, 0);
            }
            case SUBSCRIBE ->
            {
                only(id, object, Set.of("method", "id", "channels", "resume"));
                final List<String> channels = channels(id, object.get("channels"), maxChannels);
                yield new Control(method, id, null, channels, resume(id, object.get("resume"), channels), null, 0, 0);
            }
            case UNSUBSCRIBE ->
            {
                only(id, object, Set.of("method", "id", "channels"));
                yield new Control(method, id, null, channels(id, object.get("channels"), maxChannels), null, null,
                    0, 0);
            }
            case RESEND ->
            {
                only(id, object, Set.of("method", "id", "channel", "fromSeq", "toSeq"));
                if (!(object.get("channel") instanceof String channel) || !CHANNEL.matcher(channel).matches())
                {
                    throw new BadControl(id, "BAD_REQUEST", "channel is required: a channel name");
                }
                final long from = seq(id, object.get("fromSeq"), "fromSeq");
                final long to = seq(id, object.get("toSeq"), "toSeq");
                if (from < 1 || to < from || to - from >= Feed.MAX_RESEND_FRAMES)
                {
                    throw new BadControl(id, "BAD_REQUEST", "1 <= fromSeq <= toSeq, at most " +
                        Feed.MAX_RESEND_FRAMES + " frames");
                }
                yield new Control(method, id, null, null, null, channel, from, to);
            }
            case PING ->
            {
                only(id, object, Set.of("method", "id"));
                yield new Control(method, id, null, null, null, null, 0, 0);
            }
        };
    }

    private static Method method(final long id, final String name) throws BadControl
    {
        return switch (name)
        {
            case "auth" -> Method.AUTH;
            case "subscribe" -> Method.SUBSCRIBE;
            case "unsubscribe" -> Method.UNSUBSCRIBE;
            case "resend" -> Method.RESEND;
            case "ping" -> Method.PING;
            default -> throw new BadControl(id, "UNKNOWN_METHOD",
                "method is one of auth, subscribe, unsubscribe, resend, ping");
        };
    }

    private static void only(final long id, final Map<?, ?> object, final Set<String> fields) throws BadControl
    {
        for (final Object field : object.keySet())
        {
            if (!fields.contains(field))
            {
                throw new BadControl(id, "BAD_REQUEST", "unknown field " + clip(String.valueOf(field)));
            }
        }
    }

    private static List<String> channels(final long id, final Object value, final int max) throws BadControl
    {
        if (!(value instanceof List<?> list) || list.isEmpty() || list.size() > max)
        {
            throw new BadControl(id, "BAD_REQUEST", "channels is required: an array of 1 to " + max + " names");
        }
        final List<String> channels = new ArrayList<>(list.size());
        final Set<String> seen = new HashSet<>();
        for (final Object item : list)
        {
            if (!(item instanceof String channel) || !CHANNEL.matcher(channel).matches())
            {
                throw new BadControl(id, "BAD_REQUEST", "a channel name is 1 to " + MAX_NAME_LENGTH +
                    " letters, digits or ._:-");
            }
            if (!seen.add(channel))
            {
                throw new BadControl(id, "BAD_REQUEST", "channel " + channel + " is named twice");
            }
            channels.add(channel);
        }
        return List.copyOf(channels);
    }

    private static Map<String, Feed.Cursor> resume(final long id, final Object value, final List<String> channels)
        throws BadControl
    {
        if (value == null)
        {
            return Map.of();
        }
        if (!(value instanceof Map<?, ?> cursors))
        {
            throw new BadControl(id, "BAD_REQUEST", "resume is an object of cursors by channel");
        }
        final Map<String, Feed.Cursor> resume = new LinkedHashMap<>();
        for (final Map.Entry<?, ?> entry : cursors.entrySet())
        {
            final String channel = (String)entry.getKey();
            if (!channels.contains(channel))
            {
                throw new BadControl(id, "BAD_REQUEST", "resume names " + clip(channel) + ", not in channels");
            }
            if (!(entry.getValue() instanceof Map<?, ?> cursor) || cursor.size() != 2 ||
                !(cursor.get("epoch") instanceof String epoch) || epoch.isEmpty() ||
                epoch.length() > MAX_NAME_LENGTH)
            {
                throw new BadControl(id, "BAD_REQUEST", "a resume cursor is {\"epoch\":<string>,\"seq\":<integer>}");
            }
            resume.put(channel, new Feed.Cursor(epoch, seq(id, cursor.get("seq"), "seq")));
        }
        return Map.copyOf(resume);
    }

    private static long seq(final long id, final Object value, final String field) throws BadControl
    {
        if (!(value instanceof Long seq) || seq < 0)
        {
            throw new BadControl(id, "BAD_REQUEST", field + " is a non-negative integer");
        }
        return seq;
    }

    /** A client's text quoted back, at most a name's length. */
    private static String clip(final String text)
    {
        return text.length() <= MAX_NAME_LENGTH ? text : text.substring(0, MAX_NAME_LENGTH) + "...";
    }
}
