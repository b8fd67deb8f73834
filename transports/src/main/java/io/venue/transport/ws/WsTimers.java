package io.venue.transport.ws;

import io.netty.channel.EventLoop;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One connection's clocks, looked at every tick (tickMs) on its event loop: the heartbeat every heartbeatMs,
 * the idle timeout (nothing received, any frame counting, pings included), the auth deadline of a private stream,
 * the periodic check that its token's grant still holds, and the slow consumer's grace. One timer per connection.
 */
final class WsTimers
{
    private final WsConnection connection;
    private final long tickMs;
    private final long heartbeatNs;
    private final long idleNs;
    private final long authNs;
    private final long grantNs;
    private final long graceNs;
    private long openedNs;
    private long lastActivityNs;
    private long nextHeartbeatNs;
    private long nextGrantCheckNs;
    private ScheduledFuture<?> tick;

    WsTimers(final WsGateway.Context context, final WsConnection connection)
    {
        this.connection = connection;
        this.tickMs = context.tickMs;
        this.heartbeatNs = TimeUnit.MILLISECONDS.toNanos(context.heartbeatMs);
        this.idleNs = TimeUnit.MILLISECONDS.toNanos(context.idleTimeoutMs);
        this.authNs = TimeUnit.MILLISECONDS.toNanos(context.authDeadlineMs);
        this.grantNs = TimeUnit.MILLISECONDS.toNanos(context.grantCheckMs);
        this.graceNs = TimeUnit.MILLISECONDS.toNanos(context.slowConsumerGraceMs);
    }

    void start(final EventLoop loop)
    {
        openedNs = System.nanoTime();
        lastActivityNs = openedNs;
        nextHeartbeatNs = openedNs + heartbeatNs;
        tick = loop.scheduleAtFixedRate(this::tick, tickMs, tickMs, TimeUnit.MILLISECONDS);
    }

    void activity()
    {
        lastActivityNs = System.nanoTime();
    }

    void authenticated()
    {
        nextGrantCheckNs = System.nanoTime() + grantNs;
    }

    void stop()
    {
        if (tick != null)
        {
            tick.cancel(false);
        }
    }

    private void tick()
    {
        if (connection.closing())
        {
            stop();
            return;
        }
        final long now = System.nanoTime();
        final long overSince = connection.outbound().overSinceNs();
        if (overSince != 0 && now - overSince >= graceNs)
        {
            connection.slowConsumer();
        }
        else if (now - lastActivityNs >= idleNs)
        {
            connection.idle();
        }
        else if (connection.privateStream() && !connection.authenticated() && now - openedNs >= authNs)
        {
            connection.authTimeout();
        }
        else
        {
            if (connection.authenticated() && now - nextGrantCheckNs >= 0)
            {
                nextGrantCheckNs = now + grantNs;
                connection.checkGrant();
            }
            if (now - nextHeartbeatNs >= 0 && !connection.closing())
            {
                nextHeartbeatNs += heartbeatNs;
                if (now - nextHeartbeatNs >= 0)
                {
                    // the loop was late by more than a beat: the next one is a whole beat from now
                    nextHeartbeatNs = now + heartbeatNs;
                }
                connection.heartbeat();
            }
        }
    }
}
