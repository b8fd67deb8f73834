package io.venue.entry;

import io.venue.entry.admission.EdgeThrottle;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.verifier.CancelReplaceCheck;

import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One connection's way into the order-entry core, whatever its lane: admission, offering its requests to the verifier
 * pool in the order it sent them, and the answers. Answers come on the responder's thread; the lane hops to its own
 * thread before it renders them. Used by one lane thread at a time (the connection's).
 */
public final class EntrySession
{
    private static final String QUEUE_FULL =
        "the verifier queue is full; this request was not verified (journaled as " +
        "refused), retry after the delay";

    private final EntryCore core;
    private final EntryCore.Context context;
    private final long connectionId;
    private final PrebatchedOrder order;

    EntrySession(final EntryCore core, final long connectionId)
    {
        this.core = core;
        this.context = core.context();
        this.connectionId = connectionId;
        this.order = new PrebatchedOrder(context.lowLatencyMaxActions(), core.batchPlaces());
    }

    public long connectionId()
    {
        return connectionId;
    }

    /**
     * The connection's client address, once the lane knows it (after a trusted proxy's PROXY header): the sequencer
     * counts repeated refusals by it, over all of the client's connections, as the per-address limits count (an IPv6
     * address by its /64, {@link EdgeThrottle#key}).
     */
    public void from(final InetAddress client)
    {
        context.addresses().record(connectionId, EdgeThrottle.key(client));
    }

    /** What every request that writes or authenticates passes: not while draining, and the edge IP throttle. */
    public Refusal admitRequest(final InetAddress remote)
    {
        final Refusal draining = refusedWhileDraining();
        return draining != null ? draining : admitAtEdge(remote);
    }

    /**
     * What every write passes before it is read: {@link #admitRequest} (the edge throttle only when
     * {@code edgeThrottled}: a limit class with limits of its own passes false), then the shard's backlog. A refusal of
     * a write is journaled.
     */
    public Refusal admitWrite(final InetAddress remote, final boolean edgeThrottled)
    {
        Refusal refusal = refusedWhileDraining();
        if (refusal == null && edgeThrottled)
        {
            refusal = admitAtEdge(remote);
        }
        if (refusal != null)
        {
            return refusal;
        }
        final long backlog = context.backlog();
        if (context.watchesBacklog() && backlog > context.busyBacklog())
        {
            journal(RequestRejectReason.SHARD_BUSY, "the shard is " + backlog + " commands behind the journal");
            return new Refusal(Refusal.Code.SHARD_BUSY, "the shard is " + backlog +
                " commands behind; this request was not verified (journaled as refused), retry after the delay", 1);
        }
        return null;
    }

    /** Counts a request at the edge without the drain check (a body refused for its size still costs the address). */
    public Refusal admitAtEdge(final InetAddress remote)
    {
        final EdgeThrottle throttle = context.edgeThrottle();
        if (throttle == null)
        {
            return null;
        }
        final long waitSeconds = throttle.acquire(remote);
        if (waitSeconds > 0)
        {
            return core.refuseAtEdge(connectionId, remote, throttle, waitSeconds);
        }
        final long toJournal = throttle.refusalsToJournal(remote, false);
        if (toJournal > 0)
        {
            core.journalEdge(connectionId, EdgeThrottle.describe(remote), toJournal);
        }
        return null;
    }

    /**
     * Whether the address has no token now, without taking one: a lane asks at a request's head, so an address over its
     * rate is refused before its body is read. {@code mm}: the MM limit class's count of failed authentications instead
     * of the edge throttle.
     */
    public boolean exhaustedAtEdge(final InetAddress remote, final boolean mm)
    {
        final EdgeThrottle throttle = mm ? core.mmAuthThrottle() : context.edgeThrottle();
        return throttle != null && throttle.exhausted(remote);
    }

    /**
     * Refuses a request whose head found the address without a token ({@link #exhaustedAtEdge}; its body is skipped,
     * never read): charged, counted and journaled as any refusal of that throttle.
     */
    public Refusal refuseAtEdge(final InetAddress remote, final boolean mm)
    {
        if (mm)
        {
            return core.refuseAtEdge(connectionId, remote, core.mmAuthThrottle(), 1);
        }
        final EdgeThrottle throttle = context.edgeThrottle();
        return core.refuseAtEdge(connectionId, remote, throttle, Math.max(1, throttle.acquire(remote)));
    }

    /**
     * The MM limit class's count of failed authentications: refuses an address that keeps failing before its
     * credentials are checked, so it cannot flood the journal; null when it may try.
     */
    public Refusal admitMmAuthentication(final InetAddress remote)
    {
        final EdgeThrottle throttle = core.mmAuthThrottle();
        return throttle != null && throttle.exhausted(remote) ?
            core.refuseAtEdge(connectionId, remote, throttle, 1) : null;
    }

    /** Refuses at the MM authentication throttle after a failed check that asked the address to wait. */
    public Refusal refuseMmAuthentication(final InetAddress remote, final long waitSeconds)
    {
        return core.refuseAtEdge(connectionId, remote, core.mmAuthThrottle(), waitSeconds);
    }

    /** A signed action's body, to the verifier: null once offered ({@code onAnswer} follows), or the refusal. */
    public Refusal submit(final byte[] body, final Consumer<Answer> onAnswer)
    {
        final boolean prebatched = order.behind();
        final long correlation = register(prebatched, onAnswer);
        return offered(correlation, prebatched,
            context.submitter().offer(prebatched, connectionId, correlation, body, 0,
            body.length));
    }

    /** An owner's intent, to the verifier: null once offered, or the refusal. */
    public Refusal submitIntent(final byte[] owner, final byte[] signature, final byte[] text, final byte[] command,
        final int commandLength, final Consumer<Answer> onAnswer)
    {
        final boolean prebatched = order.behind();
        final long correlation = register(prebatched, onAnswer);
        return offered(correlation, prebatched,
            context.intentSubmitter().offer(prebatched, connectionId, correlation, owner,
            signature, text, command, commandLength));
    }

    /**
     * An MM cancel-replace, to the verifier: null once offered, or the refusal (the lane gives the windows'
     * charge back).
     */
    public Refusal submitCancelReplace(final CancelReplaceCheck.Order replace, final byte[] signatures,
        final byte[] command, final Consumer<Answer> onAnswer)
    {
        final boolean prebatched = order.behind();
        final long correlation = register(prebatched, onAnswer);
        return offered(correlation, prebatched,
            context.cancelReplaceSubmitter().offer(prebatched, connectionId, correlation,
            replace, signatures, command, command.length));
    }

    /** Whether a request of {@code orders} orders is a batch beyond the low-latency limit. */
    public boolean isBatch(final int orders)
    {
        return order.isBatch(orders);
    }

    /**
     * Takes a place in the node's backlog of batches: what gives it back (once however often it runs), or null with the
     * refusal journaled when the backlog is full.
     */
    public Runnable admitBatch()
    {
        final Runnable place = order.admitBatch();
        if (place == null)
        {
            journal(RequestRejectReason.QUEUE_LIMIT,
                "the pre-batched backlog is full: " + context.prebatchedMaxBatches() +
                " requests of more than " + context.lowLatencyMaxActions() + " orders wait");
        }
        return place;
    }

    /**
     * Offers a request's typed orders (signed actions of the MM limit class) in their order, on the pre-batched ring
     * when {@code batch} or when this connection has a request there. Stops at the first the pool does not take: the
     * rest are not offered (their order would break), journaled as refused together, and answered null in
     * {@code onAll}'s array. {@code onAll} runs once every offered order is answered (on the responder's thread) or at
     * once when none was taken.
     *
     * @return how many orders the pool took.
     */
    public int submitBatch(final boolean batch, final TypedOrders orders, final Consumer<Answer[]> onAll)
    {
        final int count = orders.size();
        final boolean prebatched = batch || order.behind();
        final Answer[] answers = new Answer[count];
        final AtomicInteger waiting = new AtomicInteger(count);
        int taken = 0;
        while (taken < count)
        {
            final int index = taken;
            final long correlation = context.pending().register(order.track(prebatched, answer ->
            {
                answers[index] = answer;
                if (waiting.decrementAndGet() == 0)
                {
                    onAll.accept(answers);
                }
            }));
            if (!context.mmSubmitter()
                .offerTyped(prebatched, connectionId, correlation, orders.buffer(), orders.offset(index),
                orders.market()))
            {
                context.pending().forget(correlation);
                order.notTaken(prebatched);
                break;
            }
            taken++;
        }
        if (taken < count)
        {
            journal(RequestRejectReason.QUEUE_LIMIT, "the verifier queue is full: " + (count - taken) + " of " + count +
                " compact orders not verified");
            if (taken > 0 && waiting.addAndGet(taken - count) == 0)
            {
                onAll.accept(answers);
            }
        }
        return taken;
    }

    /** Journals a refusal this connection's lane decided (a body too large, a malformed frame, a failed login). */
    public void journal(final RequestRejectReason reason, final String detail)
    {
        core.journal(connectionId, reason, detail);
    }

    /** How long a request waits for its answer before the lane says it timed out. */
    public long answerTimeoutMs()
    {
        return context.answerTimeoutMs();
    }

    private Refusal refusedWhileDraining()
    {
        return core.draining() ? new Refusal(Refusal.Code.SHUTTING_DOWN,
            "the appliance is stopping; this request was not taken, retry on the next node", 1) : null;
    }

    private long register(final boolean prebatched, final Consumer<Answer> onAnswer)
    {
        return context.pending().register(order.track(prebatched, onAnswer::accept));
    }

    private Refusal offered(final long correlation, final boolean prebatched, final boolean offered)
    {
        if (offered)
        {
            return null;
        }
        context.pending().forget(correlation);
        order.notTaken(prebatched);
        journal(RequestRejectReason.QUEUE_LIMIT, "the verifier queue is full");
        return new Refusal(Refusal.Code.QUEUE_LIMIT, QUEUE_FULL, 1);
    }
}
