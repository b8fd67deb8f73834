package io.venue.transport.http;

import io.venue.codec.JsonWriter;
import io.venue.entry.lane.ConnectivityEntry;
import io.venue.entry.lane.LiveSessions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The body of GET /api/v1/bsl/sessions: the live sessions of every session lane, each as it describes itself. */
final class SessionList
{
    private SessionList()
    {
    }

    static String json(final LiveSessions sessions)
    {
        final List<String> listed = new ArrayList<>();
        if (sessions != null)
        {
            for (final ConnectivityEntry session : sessions.list())
            {
                final JsonWriter one = new JsonWriter();
                for (final Map.Entry<String, Object> field : session.fields().entrySet())
                {
                    if (field.getValue() instanceof Long value)
                    {
                        one.field(field.getKey(), value);
                    }
                    else if (field.getValue() instanceof Boolean value)
                    {
                        one.field(field.getKey(), value);
                    }
                    else
                    {
                        one.field(field.getKey(), (String)field.getValue());
                    }
                }
                listed.add(one.toJson());
            }
        }
        return new JsonWriter().field("ok", true).raw("sessions", JsonWriter.array(listed)).toJson();
    }
}
