package io.venue.loadgen;

import java.util.Map;

/** Where a {@link LoadRun} sends its pre-signed requests: the HTTP submit routes, or BSL Direct TCP sessions. */
public interface LoadTransport extends AutoCloseable
{
    /** Called on the transport's thread with an HTTP-like status and the answer's code ("ok" when all was taken). */
    interface Answer
    {
        void onAnswer(int status, String code, Throwable error);
    }

    /** Connections (or sessions) the requests are spread over. */
    int connections();

    /** Queues {@code body} on connection {@code index} with {@code headers} (HTTP only); the answer comes later. */
    void submit(int index, byte[] body, Map<String, String> headers, Answer answer);

    @Override
    void close();
}
