package io.venue.entry.lane;

import io.venue.codec.MetricsText;

import java.util.List;

/**
 * One way in for clients (HTTP today; WebSocket, BSL, FIX and FIXP to come), as the appliance sees it: made from the
 * node's order-entry core when the node starts serving, then started, drained and closed through this interface only.
 * A lane is enabled by its {@link #name()} in the {@code lanes} setting.
 * <p>
 * This package is lane-neutral: it imports neither Netty nor {@code io.venue.transport}.
 */
public interface Lane extends AutoCloseable
{
    /** The lane's name in the {@code lanes} setting, e.g. {@code http}. */
    String name();

    /** Starts taking requests (binds its address); throws when it cannot, and the node does not start. */
    void start();

    /**
     * Stops taking new writes while what it has taken is still answered (the node's close then waits for the journal,
     * the engine and the answers before {@link #close}). Safe to call on a lane that never started.
     */
    void drain();

    /** Releases everything (sockets, threads); safe to call on a lane that never started, and more than once. */
    @Override
    void close();

    /**
     * Appends the lane's own counters to the node's metrics (Prometheus text), each family named for the lane; called
     * on the thread that asks for the metrics, so what it reads must be safe to read from there.
     */
    void appendMetrics(MetricsText text);

    /** The lane's sections of the connectivity bundle (GET /api/v1/bsl/connectivity), in the order they are shown. */
    List<ConnectivityEntry> connectivity();
}
