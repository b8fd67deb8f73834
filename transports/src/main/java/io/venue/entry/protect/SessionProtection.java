package io.venue.entry.protect;

import io.venue.entry.Answer;
import io.venue.entry.PendingRequests;
import io.venue.entry.Refusal;

import java.util.function.Consumer;

/**
 * The market maker's protections as a lane sees them (docs/ENGINE.md, "Protections"; docs/API.md): the one hook every
 * session lane (BSL TCP today, FIX and FIXP next) calls, and the requests that arm a dead-man timer or the explicit
 * cancel-on-disconnect. Each call becomes a protection command the sequencer stamps and journals; the engine keeps the
 * sessions and deadlines and fires the sweeps, so a replay reproduces every protective cancel.
 * <p>
 * A session lane calls {@link #opened} once a login is accepted and {@link #closed} exactly once when a session that
 * was opened ends, however it ends (logout, error, heartbeat timeout, socket closed by the peer or the node). Nothing
 * else: the grace window, the reconnect that keeps the orders and the sweep are the engine's. Thread safe; never
 * blocks.
 */
public final class SessionProtection
{
    /** How a session authenticated (spec 4.3). */
    public enum Kind
    {
        /** An institutional agent's session key: cancel-on-disconnect is its policy, automatically. */
        SESSION_KEY,
        /** The account's own wallet signature: no automatic sweep; the account may arm one explicitly. */
        WALLET
    }

    /** The settings ({@code protection.*} in the appliance's configuration: OPERATIONS.md). */
    public record Settings(long graceMs, long deadManMinMs, long deadManMaxMs)
    {
        /** Defaults: a 5 s grace window, dead-man countdowns of 1 s to 600 s. */
        public static final Settings DEFAULTS = new Settings(5_000, 1_000, 600_000);
        /** The engine's own ceiling for any countdown or grace (one hour). */
        public static final long ENGINE_MAX_MS = 3_600_000L;

        public Settings
        {
            if (graceMs < 0 || graceMs > ENGINE_MAX_MS)
            {
                throw new IllegalArgumentException("protection.cod.grace.ms is 0 to " + ENGINE_MAX_MS + ": " + graceMs);
            }
            if (deadManMinMs < 1 || deadManMaxMs < deadManMinMs || deadManMaxMs > ENGINE_MAX_MS)
            {
                throw new IllegalArgumentException("protection.deadman.min.ms and max.ms: 1 <= min <= max <= " +
                    ENGINE_MAX_MS + ", got " + deadManMinMs + " and " + deadManMaxMs);
            }
        }
    }

    private final ProtectionRequests requests;
    private final PendingRequests pending;
    private final Settings settings;

    public SessionProtection(final ProtectionRequests requests, final PendingRequests pending,
        final Settings settings)
    {
        this.requests = requests;
        this.pending = pending;
        this.settings = settings;
    }

    public Settings settings()
    {
        return settings;
    }

    /** The ring to the sequencer, for a session lane's own commands (FIX order entry). */
    public ProtectionRequests requests()
    {
        return requests;
    }

    /** Whether a session of this kind sweeps its account's orders when it closes: a session key's does. */
    public static boolean cancelsOnDisconnect(final Kind kind)
    {
        return kind == Kind.SESSION_KEY;
    }

    /**
     * A session logged in: {@code account} (20 bytes) is the account it trades for, {@code credentialId} the agent
     * credential of a session-key session (see {@link #credentialId}), 0 for a wallet session. Its policy is its
     * kind's ({@link #cancelsOnDisconnect}).
     *
     * @return false when the node could not queue it (counted by {@link ProtectionRequests#notJournaled()}): the
     * session then has no protection, and the lane should refuse the login.
     */
    public boolean opened(final long sessionId, final byte[] account, final long credentialId, final Kind kind)
    {
        final ProtectionCommands writer = requests.writer();
        final int length = writer.sessionOpened(requests.scratch(), ProtectionRequests.RECORD_AT, sessionId, account,
            credentialId, kind == Kind.WALLET, cancelsOnDisconnect(kind), settings.graceMs());
        return requests.offer(sessionId, 0, length);
    }

    /**
     * As {@link #opened(long, byte[], long, Kind)}, with the session's own policy: whether it sweeps the account's
     * orders when it ends and after what grace window (a FIX session's onboarding record: docs/FIX.md).
     */
    public boolean opened(final long sessionId, final byte[] account, final long credentialId, final Kind kind,
        final boolean sweeps, final long graceMs)
    {
        if (graceMs < 0 || graceMs > Settings.ENGINE_MAX_MS)
        {
            throw new IllegalArgumentException("a grace window is 0 to " + Settings.ENGINE_MAX_MS + " ms: " + graceMs);
        }
        final ProtectionCommands writer = requests.writer();
        final int length = writer.sessionOpened(requests.scratch(), ProtectionRequests.RECORD_AT, sessionId, account,
            credentialId, kind == Kind.WALLET, sweeps, graceMs);
        return requests.offer(sessionId, 0, length);
    }

    /** A session that was {@link #opened} ended, for whatever reason: called once. */
    public boolean closed(final long sessionId)
    {
        final int length = requests.writer().sessionClosed(requests.scratch(), ProtectionRequests.RECORD_AT, sessionId);
        return requests.offer(sessionId, 0, length);
    }

    /** Why a dead-man countdown is refused before the journal, or null: 0 (disarm) or within the bounds. */
    public String deadManRefusal(final long countdownMs)
    {
        if (countdownMs == 0 || countdownMs >= settings.deadManMinMs() && countdownMs <= settings.deadManMaxMs())
        {
            return null;
        }
        return "countdownMs is 0 (disarm) or " + settings.deadManMinMs() + " to " + settings.deadManMaxMs() +
            ", got " + countdownMs;
    }

    /**
     * Arms, renews or (0) disarms the dead-man timer of {@code account} in {@code market} ({@link
     * ProtectionCommands#ALL_MARKETS} for all); the caller checked {@link #deadManRefusal} and authenticated the
     * account. {@code onAnswer} gets the engine's outcome ({@link Answer#protectionAction}).
     *
     * @return null once queued, or the refusal (the queue is full).
     */
    public Refusal armDeadMan(final long connectionId, final byte[] account, final long market, final long countdownMs,
        final Consumer<Answer> onAnswer)
    {
        final int length = requests.writer().deadManArm(requests.scratch(), ProtectionRequests.RECORD_AT, account,
            market, countdownMs);
        return offer(connectionId, length, onAnswer);
    }

    /**
     * Arms (with the node's grace window) or disarms the explicit cancel-on-disconnect of {@code account} in {@code
     * market} ({@link ProtectionCommands#ALL_MARKETS} for all): the account's sessions without a sweep of their own
     * (wallet sessions) then sweep that scope when they close.
     */
    public Refusal armCancelOnDisconnect(final long connectionId, final byte[] account, final long market,
        final boolean armed, final Consumer<Answer> onAnswer)
    {
        final int length = requests.writer().cancelOnDisconnectArm(requests.scratch(), ProtectionRequests.RECORD_AT,
            account, market, armed, settings.graceMs());
        return offer(connectionId, length, onAnswer);
    }

    private Refusal offer(final long connectionId, final int length, final Consumer<Answer> onAnswer)
    {
        final long correlation = pending.register(onAnswer::accept);
        if (requests.offer(connectionId, correlation, length))
        {
            return null;
        }
        pending.forget(correlation);
        return new Refusal(Refusal.Code.QUEUE_LIMIT, "the protection queue is full; retry after the delay", 1);
    }

    /**
     * The 8 bytes of an agent credential's id ({@code spk_} and 16 hex digits) as the journal's AgentId holds them,
     * big-endian; 0 for null or anything else.
     */
    public static long credentialId(final String apiKeyId)
    {
        if (apiKeyId == null || apiKeyId.length() != 20 || !apiKeyId.startsWith("spk_"))
        {
            return 0;
        }
        try
        {
            return Long.parseUnsignedLong(apiKeyId.substring(4), 16);
        }
        catch (final NumberFormatException ex)
        {
            return 0;
        }
    }
}
