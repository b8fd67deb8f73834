package io.venue.verifier;

import io.venue.action.Address;
import io.venue.action.typed.TypedOrder;
import io.venue.crypto.Secp256k1Recoveries;
import io.venue.crypto.Secp256k1Recovery;
import io.venue.tuning.Doorbell;
import io.venue.tuning.DoorbellIdleStrategy;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import java.util.function.Supplier;

import static io.venue.verifier.VerificationResultLayout.CANCEL_REPLACE_MSG_TYPE;
import static io.venue.verifier.VerificationResultLayout.INTENT_MSG_TYPE;
import static io.venue.verifier.VerificationResultLayout.REQUEST_HEADER_LENGTH;
import static io.venue.verifier.VerificationResultLayout.REQUEST_MSG_TYPE;
import static io.venue.verifier.VerificationResultLayout.TEXT;

/**
 * A fixed set of verifier threads. Transport threads {@link #offer} request bodies; one consumer (the
 * sequencer) {@link #poll}s results. A hosted pool ({@link Context#hostedBy}) starts no thread: its verifiers are
 * agents the caller runs on a thread of its own ({@link #agents()}), for a host with too few cores to overlap a
 * hand-off.
 * <p>
 * Each connection is bound to one verifier by its id, so a connection's results come out in the order it
 * sent the requests while different connections spread over all threads. A full request ring refuses at
 * once ({@code offer} returns false: the caller answers QUEUE_LIMIT) instead of blocking the caller.
 * <p>
 * Each verifier has two request rings: the low-latency one, which every request takes by default, and the
 * pre-batched one, for large requests of many orders (the MM lane's batches). A verifier takes one pre-batched request
 * per duty cycle after the low-latency ones, so a small request waits behind at most one verification of a batch's
 * order, and a batch still moves while small requests keep coming. A connection's order is kept across the two: the
 * pool takes a pre-batched request only after every low-latency request offered before it, and the caller offers a
 * connection's requests pre-batched while one of them there is unanswered.
 */
public final class VerifierPool implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(VerifierPool.class);

    private final Context context;
    private final RingBuffer[] requestRings;
    private final RingBuffer[] prebatchedRings;
    /** Rung after a request is queued: wakes that ring's verifier. */
    private final Doorbell[] doorbells;
    private final RingBuffer resultRing;
    private final AgentRunner[] runners;
    private final VerifierAgent[] agents;
    private final VerificationResult result = new VerificationResult();
    private final MessageHandler onResult = this::onResult;
    private VerificationResultHandler resultHandler;

    private VerifierPool(final Context context)
    {
        this.context = context;
        final int threads = context.threads;
        requestRings = new RingBuffer[threads];
        prebatchedRings = new RingBuffer[threads];
        doorbells = new Doorbell[threads];
        runners = new AgentRunner[threads];
        agents = new VerifierAgent[threads];
        resultRing = newRing(context.resultRingBytes);
        for (int i = 0; i < threads; i++)
        {
            requestRings[i] = newRing(context.requestRingBytes);
            prebatchedRings[i] = newRing(context.requestRingBytes);
            doorbells[i] = context.hostBell != null ? context.hostBell : new Doorbell();
            final ActionVerifier verifier = new ActionVerifier(
                context.chainId, context.verifyingContract, context.recovery.get(), context.acceptV1,
                context.maxBodyBytes, context.delegates);
            if (context.commandWriters != null)
            {
                // a result is at most an eighth of the ring (Agrona's limit), its fixed part included
                verifier.writesCommands(context.commandWriters.get(), context.resultRingBytes / 8 - TEXT);
            }
            final Secp256k1Recovery intentRecovery = context.recovery.get();
            final VerifierAgent agent = new VerifierAgent(
                "verifier-" + i, requestRings[i], prebatchedRings[i], resultRing, verifier,
                new OwnerIntentVerifier(intentRecovery),
                new CancelReplaceVerifier(context.chainId, context.verifyingContract, intentRecovery),
                context.batchLimit, context.resultsDoorbell);
            agents[i] = agent;
            runners[i] = context.hostBell != null ? null :
                new AgentRunner(context.idleStrategy.apply(doorbells[i]), VerifierPool::onAgentError, null, agent);
        }
    }

    private static void onAgentError(final Throwable error)
    {
        LOG.error("verifier thread error", error);
    }

    /** Validates the context and starts the verifier threads. */
    public static VerifierPool start(final Context context)
    {
        context.conclude();
        final VerifierPool pool = new VerifierPool(context);
        for (final AgentRunner runner : pool.runners)
        {
            if (null == runner)
            {
                continue; // hosted: the caller runs the agents
            }
            AgentRunner.startOnThread(runner, context.threadFactory);
        }
        return pool;
    }

    /**
     * Queues a request body for verification on the low-latency ring.
     *
     * @return false if the connection's verifier is full or the body is larger than allowed: answer
     * QUEUE_LIMIT (or 413 for size), nothing was queued.
     */
    public boolean offer(
        final long connectionId, final long correlationId, final DirectBuffer body, final int offset, final int length)
    {
        final int verifier = verifierIndex(connectionId);
        final RingBuffer ring = requestRings[verifier];
        final int index = claim(false, verifier, REQUEST_MSG_TYPE, connectionId, correlationId, length);
        if (index <= 0)
        {
            return false;
        }
        ring.buffer().putBytes(index + REQUEST_HEADER_LENGTH, body, offset, length);
        commit(false, verifier, index);
        return true;
    }

    /** Same as {@link #offer(long, long, DirectBuffer, int, int)} for a heap body. */
    public boolean offer(final long connectionId, final long correlationId, final byte[] body, final int offset,
        final int length)
    {
        return offer(false, connectionId, correlationId, body, offset, length);
    }

    /** As {@link #offer(long, long, byte[], int, int)}, on the pre-batched ring when {@code prebatched}. */
    public boolean offer(final boolean prebatched, final long connectionId, final long correlationId, final byte[] body,
        final int offset, final int length)
    {
        return offer(prebatched, REQUEST_MSG_TYPE, connectionId, correlationId, body, offset, length);
    }

    /**
     * As {@link #offer(boolean, long, long, byte[], int, int)} for a submit of the MM lane: verified the same way but
     * with the v2 digest only, and its result is of limit class MM ({@link VerificationResult#mmLimitClass()}), so the
     * command carries the class of limits it passed (the MM windows).
     */
    public boolean offerMm(final boolean prebatched, final long connectionId, final long correlationId,
        final byte[] body, final int offset, final int length)
    {
        return offer(prebatched, VerificationResultLayout.MM_REQUEST_MSG_TYPE, connectionId, correlationId, body,
            offset, length);
    }

    /**
     * Queues one order of a binary lane as the typed action it is, for the MM lane: no JSON body is built or parsed.
     * The record on the ring is the order's compact bytes, {@code order[offset, offset + TypedOrder.ORDER_LENGTH)} in
     * the layout of {@link TypedOrder} (the typed action, then its signature at {@link TypedOrder#SIGNATURE}), copied
     * once, and {@code market} after them. The verifier derives the canonical JSON and the v2 digest from those fields;
     * the result is the one {@link #offerMm} gives for the same action's JSON body (v2 only, marked as the MM lane), so
     * the sequencer journals the same command. A record the action model refuses gets a MALFORMED result naming the
     * field as the JSON route does. Same ordering, pre-batching and refusal rules as {@link #offerMm}: a connection's
     * typed and JSON requests on one ring are verified in the order offered.
     *
     * @param market the market of a place (the request's, a u32); ignored for the other kinds.
     * @return false if the connection's verifier ring is full: nothing was queued.
     */
    public boolean offerTypedMm(final boolean prebatched, final long connectionId, final long correlationId,
        final DirectBuffer order, final int offset, final long market)
    {
        final int verifier = verifierIndex(connectionId);
        final RingBuffer ring = ring(prebatched, verifier);
        final int index = claim(prebatched, verifier, VerificationResultLayout.TYPED_MM_REQUEST_MSG_TYPE, connectionId,
            correlationId, TypedOrder.LENGTH);
        if (index <= 0)
        {
            return false;
        }
        final int body = index + REQUEST_HEADER_LENGTH;
        final MutableDirectBuffer buffer = ring.buffer();
        buffer.putBytes(body, order, offset, TypedOrder.ORDER_LENGTH);
        buffer.putLong(body + TypedOrder.MARKET, market, ByteOrder.LITTLE_ENDIAN);
        commit(prebatched, verifier, index);
        return true;
    }

    private boolean offer(final boolean prebatched, final int msgType, final long connectionId,
        final long correlationId, final byte[] body, final int offset, final int length)
    {
        final int verifier = verifierIndex(connectionId);
        final RingBuffer ring = ring(prebatched, verifier);
        final int index = claim(prebatched, verifier, msgType, connectionId, correlationId, length);
        if (index <= 0)
        {
            return false;
        }
        ring.buffer().putBytes(index + REQUEST_HEADER_LENGTH, body, offset, length);
        commit(prebatched, verifier, index);
        return true;
    }

    /**
     * Queues an owner's EIP-191 intent: the signature over {@code text} must recover to {@code owner}; when it does,
     * the result carries {@code command} (a record the sequencer stamps and journals). Same ordering and refusal
     * rules as {@link #offer}.
     *
     * @param owner     20 bytes.
     * @param signature 65 bytes: r, s, v as sent.
     */
    public boolean offerIntent(final boolean prebatched,
        final long connectionId, final long correlationId, final byte[] owner, final byte[] signature,
        final byte[] text, final byte[] command, final int commandLength)
    {
        final int length = OwnerIntentVerifier.TEXT_AT + text.length + commandLength;
        final int verifier = verifierIndex(connectionId);
        final RingBuffer ring = ring(prebatched, verifier);
        final int index = claim(prebatched, verifier, INTENT_MSG_TYPE, connectionId, correlationId, length);
        if (index <= 0)
        {
            return false;
        }
        final int body = index + REQUEST_HEADER_LENGTH;
        final MutableDirectBuffer buffer = ring.buffer();
        buffer.putBytes(body + OwnerIntentVerifier.OWNER, owner, 0, 20);
        buffer.putBytes(body + OwnerIntentVerifier.SIGNATURE_AT, signature, 0, 65);
        buffer.putInt(body + OwnerIntentVerifier.TEXT_LENGTH_AT, text.length);
        buffer.putBytes(body + OwnerIntentVerifier.TEXT_AT, text);
        buffer.putBytes(body + OwnerIntentVerifier.TEXT_AT + text.length, command, 0, commandLength);
        commit(prebatched, verifier, index);
        return true;
    }

    /**
     * Queues an MM cancel-replace: both legs' signatures must recover to one signer ({@link CancelReplaceCheck}); the
     * result carries {@code command} with the new order's id and the signer for the sequencer to write in.
     *
     * @param signatures the place leg's then the cancel leg's, 65 bytes each.
     */
    public boolean offerCancelReplace(final boolean prebatched,
        final long connectionId, final long correlationId, final CancelReplaceCheck.Order order,
        final byte[] signatures, final byte[] command, final int commandLength)
    {
        final int verifier = verifierIndex(connectionId);
        final RingBuffer ring = ring(prebatched, verifier);
        final int index = claim(prebatched, verifier, CANCEL_REPLACE_MSG_TYPE, connectionId, correlationId,
            CancelReplaceVerifier.COMMAND + commandLength);
        if (index <= 0)
        {
            return false;
        }
        final int body = index + REQUEST_HEADER_LENGTH;
        final MutableDirectBuffer buffer = ring.buffer();
        buffer.putBytes(body + CancelReplaceVerifier.TRADER, order.trader(), 0, 20);
        buffer.putLong(body + CancelReplaceVerifier.MARKET, order.market());
        buffer.putByte(body + CancelReplaceVerifier.SIDE_CODE, (byte)order.sideCode());
        buffer.putLong(body + CancelReplaceVerifier.PRICE, order.price());
        buffer.putLong(body + CancelReplaceVerifier.QTY, order.qty());
        buffer.putLong(body + CancelReplaceVerifier.EXPIRY, order.expiry());
        buffer.putLong(body + CancelReplaceVerifier.NONCE, order.nonce());
        buffer.putBytes(body + CancelReplaceVerifier.PLACE_SIGNATURE, signatures, 0, 65);
        buffer.putBytes(body + CancelReplaceVerifier.CANCEL_ORDER_ID, order.cancelOrderId(), 0, 32);
        buffer.putBytes(body + CancelReplaceVerifier.CANCEL_SIGNATURE, signatures, 65, 65);
        buffer.putBytes(body + CancelReplaceVerifier.COMMAND, command, 0, commandLength);
        commit(prebatched, verifier, index);
        return true;
    }

    private RingBuffer ring(final boolean prebatched, final int verifier)
    {
        return prebatched ? prebatchedRings[verifier] : requestRings[verifier];
    }

    /**
     * Claims a request's record; returns where its header starts (the connection and correlation ids, then the body),
     * or a value not above zero when the ring is full or the body too large. A pre-batched record starts with the
     * low-latency ring's producer position at its offer: the verifier takes it only once it has consumed that far, so a
     * request never overtakes one its connection offered on the low-latency ring before it.
     */
    private int claim(final boolean prebatched, final int verifier, final int msgType, final long connectionId,
        final long correlationId, final int length)
    {
        if (length > context.maxBodyBytes)
        {
            return -1;
        }
        final RingBuffer ring = ring(prebatched, verifier);
        final int stamp = prebatched ? VerificationResultLayout.PREBATCHED_STAMP_LENGTH : 0;
        final int index = ring.tryClaim(msgType, stamp + REQUEST_HEADER_LENGTH + length);
        if (index <= 0)
        {
            return index;
        }
        final MutableDirectBuffer buffer = ring.buffer();
        if (prebatched)
        {
            buffer.putLong(index, requestRings[verifier].producerPosition());
        }
        buffer.putLong(index + stamp, connectionId);
        buffer.putLong(index + stamp + 8, correlationId);
        return index + stamp;
    }

    private void commit(final boolean prebatched, final int verifier, final int index)
    {
        ring(prebatched, verifier)
            .commit(prebatched ? index - VerificationResultLayout.PREBATCHED_STAMP_LENGTH : index);
        doorbells[verifier].ring();
    }

    /**
     * Delivers up to {@code limit} results to the handler. Single consumer: call from one thread only.
     *
     * @return the number of results delivered.
     */
    public int poll(final VerificationResultHandler handler, final int limit)
    {
        resultHandler = handler;
        final int read;
        try
        {
            read = resultRing.read(onResult, limit);
        }
        finally
        {
            resultHandler = null;
        }
        if (read > 0)
        {
            // room was made: wake a verifier whose result waited for it (it marks itself held before its retry, and the
            // fence orders the room made before the look at that mark)
            VarHandle.fullFence();
            for (int i = 0; i < agents.length; i++)
            {
                if (agents[i].isHeld())
                {
                    doorbells[i].ring();
                }
            }
        }
        return read;
    }

    private void onResult(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        resultHandler.onResult(result.wrap(buffer, index, msgTypeId == INTENT_MSG_TYPE));
    }

    /**
     * Whether every request offered so far has been verified: none waits in a request ring or is being verified, and
     * each result is in the result ring (or held by its verifier until the ring has room). For a test that must know
     * the results are all there before their consumer takes them; any thread, exact while nothing is being offered.
     */
    public boolean allVerified()
    {
        // a verifier consumes a request only once its result is published or held
        for (int i = 0; i < requestRings.length; i++)
        {
            if (requestRings[i].size() > 0 || prebatchedRings[i].size() > 0)
            {
                return false;
            }
        }
        return true;
    }

    /** Which verifier a connection is bound to: a mix of the id, so sequential ids spread evenly. */
    public int verifierIndex(final long connectionId)
    {
        final long mixed = (connectionId ^ (connectionId >>> 33)) * 0xff51afd7ed558ccdL;
        return (int)Long.remainderUnsigned(mixed ^ (mixed >>> 33), requestRings.length);
    }

    /** The verifiers: one thread each, or agents on the host's thread. */
    public int threads()
    {
        return agents.length;
    }

    /** The verifiers as agents, for a hosted pool's caller to run (on one thread: each is single-threaded). */
    public List<Agent> agents()
    {
        return List.of(agents);
    }

    /** Name of the secp256k1 implementation in use (native libsecp256k1 or BouncyCastle). */
    public String recoveryName()
    {
        return context.recoveryName;
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(runners);
    }

    private static RingBuffer newRing(final int capacity)
    {
        return new ManyToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(capacity + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /**
     * Configuration of the pool, with defaults fit for a 2-core machine.
     */
    public static final class Context
    {
        private int threads = 1;
        private int requestRingBytes = 8 * 1024 * 1024;
        private int resultRingBytes = 16 * 1024 * 1024;
        private int maxBodyBytes = 512 * 1024;
        private int batchLimit = 64;
        private long chainId = -1;
        private Address verifyingContract;
        private boolean acceptV1;
        private DelegateSigners delegates = DelegateSigners.NONE;
        private Supplier<Secp256k1Recovery> recovery;
        private Supplier<CommandWriter> commandWriters;
        private String recoveryName;
        private Function<Doorbell, IdleStrategy> idleStrategy = doorbell -> new DoorbellIdleStrategy(doorbell,
            100, 1_000_000);
        private Doorbell resultsDoorbell = new Doorbell();
        private Doorbell hostBell;
        private ThreadFactory threadFactory = runnable ->
        {
            final Thread thread = new Thread(runnable);
            thread.setDaemon(true);
            return thread;
        };

        /** Number of verifier threads (default 1). */
        public Context threads(final int threads)
        {
            this.threads = threads;
            return this;
        }

        /**
         * Capacity of each verifier's two request rings (low-latency and pre-batched), a power of two each (default
         * 8 MiB).
         */
        public Context requestRingBytes(final int bytes)
        {
            this.requestRingBytes = bytes;
            return this;
        }

        /** Capacity of the shared result ring, a power of two (default 16 MiB). */
        public Context resultRingBytes(final int bytes)
        {
            this.resultRingBytes = bytes;
            return this;
        }

        /** Largest request body accepted (default 512 KiB, enough for a 1,000-leg Batch). */
        public Context maxBodyBytes(final int bytes)
        {
            this.maxBodyBytes = bytes;
            return this;
        }

        /** Requests one verifier takes per duty cycle (default 64). */
        public Context batchLimit(final int limit)
        {
            this.batchLimit = limit;
            return this;
        }

        /** The deployment's chain id, bound into the v2 digest. Required. */
        public Context chainId(final long chainId)
        {
            this.chainId = chainId;
            return this;
        }

        /** The deployment's verifying contract, bound into the v2 digest. Required. */
        public Context verifyingContract(final Address contract)
        {
            this.verifyingContract = contract;
            return this;
        }

        /** Migration flag: also accept v1 digests signed by the account itself (default off). */
        public Context acceptV1(final boolean accept)
        {
            this.acceptV1 = accept;
            return this;
        }

        /** The agents and vault owners known so far (default none): a raw-mode signature by one costs one recovery. */
        public Context delegates(final DelegateSigners delegates)
        {
            this.delegates = Objects.requireNonNull(delegates, "delegates");
            return this;
        }

        /** One recovery instance per thread (default: native libsecp256k1, BouncyCastle where it cannot load). */
        public Context recovery(final Supplier<Secp256k1Recovery> recovery)
        {
            this.recovery = recovery;
            return this;
        }

        /**
         * One journal-command writer per verifier thread (default none: a verified result carries the canonical JSON
         * and its consumer writes the command). With them the verifier writes each verified action's command itself,
         * and its consumer only stamps it.
         */
        public Context commandWriters(final Supplier<CommandWriter> writers)
        {
            this.commandWriters = writers;
            return this;
        }

        /**
         * Idle strategy per verifier thread, given the bell that {@link #offer} rings for that thread (default: a short
         * spin, then parked until rung or for at most 1 ms).
         */
        public Context idleStrategy(final Function<Doorbell, IdleStrategy> idleStrategy)
        {
            this.idleStrategy = idleStrategy;
            return this;
        }

        /** The bell a verifier rings after it published results: the consumer's ({@link #poll}) thread's. */
        public Context resultsDoorbell(final Doorbell doorbell)
        {
            this.resultsDoorbell = doorbell;
            return this;
        }

        /**
         * Hosted (default: not): the pool starts no thread; the caller runs {@link #agents()} on a thread whose idle
         * strategy waits on {@code hostBell}, which {@link #offer} rings (the thread's other work stays in its duty
         * cycle, with no hand-off to another thread).
         */
        public Context hostedBy(final Doorbell hostBell)
        {
            this.hostBell = Objects.requireNonNull(hostBell, "hostBell");
            return this;
        }

        /** Creates the verifier threads; the place to pin them to cores. */
        public Context threadFactory(final ThreadFactory threadFactory)
        {
            this.threadFactory = threadFactory;
            return this;
        }

        void conclude()
        {
            if (threads < 1)
            {
                throw new IllegalArgumentException("threads must be at least 1, got " + threads);
            }
            if (chainId < 0)
            {
                throw new IllegalArgumentException("chainId is required");
            }
            Objects.requireNonNull(verifyingContract, "verifyingContract is required");
            if (recovery == null)
            {
                recovery = Secp256k1Recoveries.select()::newRecovery;
            }
            recoveryName = recovery.get().name();
            // a request ring holds messages of up to 1/8 of its capacity; a result may carry the whole body
            final int requestMax = requestRingBytes / 8;
            if (REQUEST_HEADER_LENGTH + maxBodyBytes > requestMax)
            {
                throw new IllegalArgumentException(
                    "maxBodyBytes " + maxBodyBytes + " needs requestRingBytes of at least " +
                    Integer.highestOneBit((REQUEST_HEADER_LENGTH + maxBodyBytes) * 8 - 1) * 2);
            }
            if (TEXT + maxBodyBytes + 1024 > resultRingBytes / 8)
            {
                throw new IllegalArgumentException("maxBodyBytes " + maxBodyBytes + " needs a larger resultRingBytes");
            }
        }
    }
}
