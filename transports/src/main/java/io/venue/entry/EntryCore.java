package io.venue.entry;

import io.venue.entry.admission.EdgeThrottle;
import io.venue.entry.credential.ApiKey;
import io.venue.entry.credential.MachineCredentials;
import io.venue.entry.credential.SvcNonceStore;
import io.venue.entry.lane.LiveSessions;
import io.venue.entry.mm.MmWindows;
import io.venue.entry.protect.SessionProtection;
import io.venue.journal.sbe.RequestRejectReason;

import java.net.InetAddress;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The order-entry path every lane shares, with no transport in it: admission (draining, the edge throttle, a shard too
 * far behind), the way to the verifier pool, the requests waiting for their answer, the journaled refusals, the
 * pre-batched backlog, the MM windows and the machine credentials. A lane opens one {@link EntrySession} per
 * connection and renders what the session hands back in its own wire form.
 * <p>
 * One per node, shared by every lane, so that admission, the backlog and the windows see all of the node's traffic.
 */
public final class EntryCore
{
    private final Context context;
    private final Semaphore batchPlaces;
    private final MachineCredentials credentials;
    private final EdgeThrottle mmAuthThrottle;
    private final LiveSessions sessions = new LiveSessions();
    private volatile boolean draining;

    public EntryCore(final Context context)
    {
        this.context = context.conclude();
        this.batchPlaces = new Semaphore(context.prebatchedMaxBatches);
        this.mmAuthThrottle = context.edgeThrottle == null ? null : context.edgeThrottle.sibling();
        this.credentials = context.apiKeys == null ? null :
            new MachineCredentials(context.apiKeys, context.svcNonceStore, System.currentTimeMillis());
    }

    /** A new connection's session; {@code connectionId} from the lane's {@link ConnectionIds}. */
    public EntrySession open(final long connectionId)
    {
        return new EntrySession(this, connectionId);
    }

    /** From now on every write is refused SHUTTING_DOWN; what was taken is still answered. */
    public void drain()
    {
        draining = true;
    }

    public boolean draining()
    {
        return draining;
    }

    public Context context()
    {
        return context;
    }

    /** The machine credentials (SVC-* headers, session logons); null when the node takes none. */
    public MachineCredentials credentials()
    {
        return credentials;
    }

    /** The protections' hook ({@link SessionProtection}), or null when the node has none. */
    public SessionProtection protection()
    {
        return context.protection;
    }

    /** The node's live sessions of every session lane (GET /api/v1/bsl/sessions). */
    public LiveSessions sessions()
    {
        return sessions;
    }

    /** The edge throttle's count of failed MM authentications: its settings, buckets of its own. Null without one. */
    public EdgeThrottle mmAuthThrottle()
    {
        return mmAuthThrottle;
    }

    Semaphore batchPlaces()
    {
        return batchPlaces;
    }

    /** Hands a refusal decided before the verifier to the sequencer to be journaled, when the node journals them. */
    public void journal(final long connectionId, final RequestRejectReason reason, final String detail)
    {
        if (context.refusals != null)
        {
            context.refusals.offer(connectionId, context.pending.nextCorrelation(), reason.value(), detail);
        }
    }

    /**
     * Hands a FIX session's sequence numbers to the sequencer to be journaled as a {@code FixSessionMark}, when the
     * node journals lane records.
     *
     * @return whether it was queued.
     */
    public boolean journalFixSessionMark(final long connectionId, final long credentialId, final int subSession,
        final int kind, final long nextInSeq, final long nextOutSeq, final long reservedOutThrough,
        final long reportKey)
    {
        return context.refusals != null && context.refusals.offerFixSessionMark(connectionId, credentialId,
            subSession, kind, nextInSeq, nextOutSeq, reservedOutThrough, reportKey);
    }

    /** Journals {@code count} edge-throttle refusals of {@code address} (a text from {@link EdgeThrottle#describe}). */
    public void journalEdge(final long connectionId, final String address, final long count)
    {
        final EdgeThrottle throttle = context.edgeThrottle;
        journal(connectionId, RequestRejectReason.EDGE_RATE_LIMITED, "edge throttle: " + address + " above " +
            throttle.ratePerSecond() + "/s (burst " + throttle.burst() + "): " + count +
            (count == 1 ? " request" : " requests") +
            " refused");
    }

    /** Journals the held counts of addresses that stopped sending; a lane's timer calls it once a second. */
    public void flushEdgeRefusals()
    {
        if (context.edgeThrottle != null)
        {
            context.edgeThrottle.flushHeld((address, count) -> journalEdge(0, address, count));
            mmAuthThrottle.flushHeld((address, count) -> journalEdge(0, address, count));
        }
    }

    /** Refuses at the edge: journals the address's refusals (at most once a second) and says how long to wait. */
    Refusal refuseAtEdge(final long connectionId, final InetAddress address, final EdgeThrottle throttle,
        final long waitSeconds)
    {
        final long toJournal = throttle.refusalsToJournal(address, true);
        if (toJournal > 0)
        {
            journalEdge(connectionId, EdgeThrottle.describe(address), toJournal);
        }
        return new Refusal(Refusal.Code.EDGE_RATE_LIMITED,
            "Too Many Requests! Wait for " + waitSeconds + "s", waitSeconds);
    }

    /** Configuration, Aeron style: set what differs from the defaults; {@link #conclude} checks it once. */
    public static final class Context
    {
        /** Spec 8.2's {@code actions.lowLatencyMaxActions}: a compact request of more orders is pre-batched. */
        public static final int DEFAULT_LOW_LATENCY_MAX_ACTIONS = 32;
        /**
         * Spec 8.2's {@code backlog.prebatchedMaxBatches} (not shown there): batches waiting at once. Eight batches of
         * 1,000 orders are under a second of work on the project's machine (DECISIONS.md).
         */
        public static final int DEFAULT_PREBATCHED_MAX_BATCHES = 8;
        /** The most orders one request may carry (spec 4: 1 to 1,000). */
        public static final int MAX_BATCH_ORDERS = 1_000;

        private VerifierOffers.Body submitter;
        private VerifierOffers.Typed mmSubmitter;
        private VerifierOffers.Intent intentSubmitter;
        private VerifierOffers.CancelReplace cancelReplaceSubmitter;
        private PendingRequests pending;
        private PreJournalRefusals refusals;
        private long answerTimeoutMs = 10_000;
        private LongSupplier backlog;
        private long busyBacklog;
        private EdgeThrottle edgeThrottle;
        private int lowLatencyMaxActions = DEFAULT_LOW_LATENCY_MAX_ACTIONS;
        private int prebatchedMaxBatches = DEFAULT_PREBATCHED_MAX_BATCHES;
        private MmWindows mmWindows;
        private Function<String, ApiKey> apiKeys;
        private SvcNonceStore svcNonceStore;
        private ConnectionAddresses addresses;
        private SessionProtection protection;
        private boolean concluded;

        /**
         * The market maker's protections (cancel-on-disconnect, dead-man timers): the hook the session lanes call;
         * null where the node journals none (then sessions have no automatic sweep).
         */
        public Context protection(final SessionProtection protection)
        {
            this.protection = protection;
            return this;
        }

        public SessionProtection protection()
        {
            return protection;
        }

        /** Signed actions' JSON bodies, as the trading limit class. */
        public Context submitter(final VerifierOffers.Body submitter)
        {
            this.submitter = submitter;
            return this;
        }

        /** Typed orders of a binary lane (compact orders), as the MM limit class. */
        public Context mmSubmitter(final VerifierOffers.Typed submitter)
        {
            this.mmSubmitter = submitter;
            return this;
        }

        public Context intentSubmitter(final VerifierOffers.Intent submitter)
        {
            this.intentSubmitter = submitter;
            return this;
        }

        public Context cancelReplaceSubmitter(final VerifierOffers.CancelReplace submitter)
        {
            this.cancelReplaceSubmitter = submitter;
            return this;
        }

        public Context pending(final PendingRequests pending)
        {
            this.pending = pending;
            return this;
        }

        /**
         * Where requests refused before verification go to be journaled (the edge throttle, a body over the limit, a
         * full verifier queue); without it they are answered and not journaled.
         */
        public Context refusals(final PreJournalRefusals refusals)
        {
            this.refusals = refusals;
            return this;
        }

        /** How long a request waits for its decision before the lane answers that it timed out (default 10 s). */
        public Context answerTimeoutMs(final long ms)
        {
            this.answerTimeoutMs = ms;
            return this;
        }

        /**
         * Early refusal (SHARD_BUSY) while {@code backlog} (commands journaled and not yet applied by the shard) is
         * above {@code busyBacklog}: a new request would only wait behind it.
         */
        public Context shardBusyAbove(final long busyBacklog, final LongSupplier backlog)
        {
            this.busyBacklog = busyBacklog;
            this.backlog = backlog;
            return this;
        }

        /** The edge IP throttle; its refusals are journaled through {@link #refusals}. */
        public Context edgeThrottle(final EdgeThrottle throttle)
        {
            this.edgeThrottle = throttle;
            return this;
        }

        /**
         * The two verifier rings ({@link PrebatchedOrder}): a request of more than {@code lowLatencyMaxActions} orders
         * is a batch, and at most {@code prebatchedMaxBatches} batches may wait at once (default 32 and 8).
         */
        public Context prebatched(final int lowLatencyMaxActions, final int prebatchedMaxBatches)
        {
            if (lowLatencyMaxActions < 1 || lowLatencyMaxActions > MAX_BATCH_ORDERS || prebatchedMaxBatches < 1)
            {
                throw new IllegalArgumentException("lowLatencyMaxActions 1 to " + MAX_BATCH_ORDERS +
                    " and prebatchedMaxBatches at least 1, got " + lowLatencyMaxActions + " and " +
                    prebatchedMaxBatches);
            }
            this.lowLatencyMaxActions = lowLatencyMaxActions;
            this.prebatchedMaxBatches = prebatchedMaxBatches;
            return this;
        }

        /** The MM lane's windows (spec 8.2), charged by every lane that takes MM orders. */
        public Context mmWindows(final MmWindows windows)
        {
            this.mmWindows = windows;
            return this;
        }

        /**
         * Machine credentials: an API key id to its active credential (null when unknown, revoked or expired), and
         * where each key's highest accepted SVC-Nonce is kept across restarts (null: in memory only).
         */
        public Context machineCredentials(final Function<String, ApiKey> apiKeys, final SvcNonceStore store)
        {
            this.apiKeys = apiKeys;
            this.svcNonceStore = store;
            return this;
        }

        /**
         * Where the lanes record each connection's client address, for the sequencer to count refusals by address
         * (default: a table of {@link ConnectionAddresses#DEFAULT_CAPACITY} slots, read by nobody).
         */
        public Context addresses(final ConnectionAddresses addresses)
        {
            this.addresses = addresses;
            return this;
        }

        public ConnectionAddresses addresses()
        {
            return addresses;
        }

        public VerifierOffers.Body submitter()
        {
            return submitter;
        }

        public VerifierOffers.Typed mmSubmitter()
        {
            return mmSubmitter;
        }

        public VerifierOffers.Intent intentSubmitter()
        {
            return intentSubmitter;
        }

        public VerifierOffers.CancelReplace cancelReplaceSubmitter()
        {
            return cancelReplaceSubmitter;
        }

        public PendingRequests pending()
        {
            return pending;
        }

        public long answerTimeoutMs()
        {
            return answerTimeoutMs;
        }

        public EdgeThrottle edgeThrottle()
        {
            return edgeThrottle;
        }

        public int lowLatencyMaxActions()
        {
            return lowLatencyMaxActions;
        }

        public int prebatchedMaxBatches()
        {
            return prebatchedMaxBatches;
        }

        public MmWindows mmWindows()
        {
            return mmWindows;
        }

        boolean watchesBacklog()
        {
            return backlog != null;
        }

        long backlog()
        {
            return backlog == null ? 0 : backlog.getAsLong();
        }

        long busyBacklog()
        {
            return busyBacklog;
        }

        /** Checks the configuration once; the core calls it. */
        public Context conclude()
        {
            if (concluded)
            {
                return this;
            }
            if (submitter == null || pending == null)
            {
                throw new IllegalStateException("the order-entry core needs a submitter and the pending requests");
            }
            if (answerTimeoutMs < 1)
            {
                throw new IllegalStateException("answerTimeoutMs must be positive, got " + answerTimeoutMs);
            }
            if (edgeThrottle != null && refusals == null)
            {
                throw new IllegalStateException("the edge throttle needs refusals to journal what it refuses");
            }
            if ((mmSubmitter != null || cancelReplaceSubmitter != null) && (mmWindows == null || apiKeys == null))
            {
                throw new IllegalStateException("MM order entry needs the MM windows and the machine credentials");
            }
            if (addresses == null)
            {
                addresses = new ConnectionAddresses(ConnectionAddresses.DEFAULT_CAPACITY);
            }
            concluded = true;
            return this;
        }
    }
}
