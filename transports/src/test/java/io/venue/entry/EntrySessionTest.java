package io.venue.entry;

import io.venue.entry.admission.EdgeThrottle;
import io.venue.entry.mm.MmWindows;
import io.venue.journal.sbe.RequestRejectReason;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The order-entry core without any lane: admission, offers and their answers, the batch fan-out, and what each
 * refusal journals. The verifier pool's rings are stood in for by their contract (an offer is taken or refused at
 * once); the pending requests and the refusals' ring are the real ones.
 */
class EntrySessionTest
{
    private static final InetAddress CLIENT = InetAddress.getLoopbackAddress();

    /** One offer as the pool saw it. */
    private record Offer(boolean prebatched, long connectionId, long correlationId, int length)
    {
    }

    private final List<Offer> offers = new ArrayList<>();
    /** How many more offers the pool takes before its ring is full. */
    private int room = Integer.MAX_VALUE;
    private final PendingRequests pending = new PendingRequests(0);
    private final PreJournalRefusals refusals = new PreJournalRefusals(64 * 1024);
    private long backlog;
    private final AtomicLong clockNs = new AtomicLong(1);
    private final ConnectionIds ids = new ConnectionIds(ConnectionIds.FIX);

    private final VerifierOffers.Body pool = (prebatched, connectionId, correlationId, body, offset, length) ->
    {
        if (room == 0)
        {
            return false;
        }
        room--;
        offers.add(new Offer(prebatched, connectionId, correlationId, length));
        return true;
    };

    private final VerifierOffers.Typed typedPool = (prebatched, connectionId, correlationId, order, offset, market) ->
        pool.offer(prebatched, connectionId, correlationId, null, offset, 1);

    /** {@code count} typed orders of one request (their bytes do not matter to the core: the verifier reads them). */
    private static TypedOrders orders(final int count)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[count * 8]);
        return new TypedOrders()
        {
            public int size()
            {
                return count;
            }

            public DirectBuffer buffer()
            {
                return buffer;
            }

            public int offset(final int index)
            {
                return index * 8;
            }

            public long market()
            {
                return 7;
            }
        };
    }

    private EntryCore core(final EdgeThrottle throttle)
    {
        return new EntryCore(new EntryCore.Context().submitter(pool).pending(pending).refusals(refusals)
            .shardBusyAbove(10, () -> backlog).edgeThrottle(throttle).prebatched(2, 1));
    }

    private EntryCore core()
    {
        return core(null);
    }

    /** The refusals journaled so far: reason, connection id and detail of each. */
    private List<String> journaled()
    {
        final List<String> out = new ArrayList<>();
        refusals.poll((connectionId, correlationId, reason, detail) ->
            out.add(RequestRejectReason.get((short)reason) + " " + ConnectionIds.laneOf(connectionId) + " " + detail),
            100);
        return out;
    }

    /** Journals and answers the offer as the sequencer and the responder would. */
    private void answer(final Offer offer, final long sequence)
    {
        pending.onSequenced(offer.correlationId(), sequence);
        pending.complete(sequence, new Answer.Builder().accepted(sequence, 7).digest(new byte[32]).build());
    }

    @Test
    void anOfferedSubmitIsAnsweredOnceItsCommandIsDecided()
    {
        final EntrySession session = core().open(ids.next());
        final AtomicReference<Answer> answered = new AtomicReference<>();
        assertNull(session.admitWrite(CLIENT, true));
        assertNull(session.submit(new byte[] {1, 2, 3}, answered::set));
        assertEquals(1, offers.size());
        assertEquals(session.connectionId(), offers.get(0).connectionId());
        assertFalse(offers.get(0).prebatched());
        assertEquals(1, pending.waiting());
        answer(offers.get(0), 1);
        assertEquals(1, answered.get().sequence);
        assertTrue(answered.get().accepted());
        assertEquals(0, pending.waiting());
        assertEquals(List.of(), journaled());
    }

    @Test
    void aFullVerifierQueueIsRefusedJournaledAndForgotten()
    {
        room = 0;
        final EntrySession session = core().open(ids.next());
        final Refusal refusal = session.submit(new byte[8], answer ->
        {
            throw new AssertionError("never answered");
        });
        assertNotNull(refusal);
        assertEquals(Refusal.Code.QUEUE_LIMIT, refusal.code());
        assertEquals(1, refusal.retryAfterSeconds());
        assertEquals(0, pending.waiting(), "nothing waits for a request the pool did not take");
        assertEquals(List.of("QUEUE_LIMIT " + ConnectionIds.FIX + " the verifier queue is full"), journaled());
    }

    @Test
    void aConnectionsAddressIsRecordedAsThePerAddressLimitsCountIt() throws Exception
    {
        final EntryCore core = core();
        final EntrySession first = core.open(ids.next());
        final EntrySession second = core.open(ids.next());
        final EntrySession third = core.open(ids.next());
        first.from(InetAddress.getByName("2001:db8:0:1::7"));
        second.from(InetAddress.getByName("2001:db8:0:1:ffff::9"));
        third.from(InetAddress.getByName("198.51.100.3"));
        final long[] a = new long[2];
        final long[] b = new long[2];
        assertTrue(core.context().addresses().find(first.connectionId(), a));
        assertTrue(core.context().addresses().find(second.connectionId(), b));
        assertArrayEquals(a, b, "one IPv6 /64, one source");
        assertEquals(0, a[1], "the interface half is not kept");
        assertTrue(core.context().addresses().find(third.connectionId(), b));
        assertArrayEquals(new long[] {0, 0xFFFF_C633_6403L}, b, "an IPv4 address as ::ffff:198.51.100.3");
    }

    @Test
    void whileDrainingNothingIsTakenAndNothingJournaled()
    {
        final EntryCore core = core();
        final EntrySession session = core.open(ids.next());
        core.drain();
        assertEquals(Refusal.Code.SHUTTING_DOWN, session.admitWrite(CLIENT, true).code());
        assertEquals(Refusal.Code.SHUTTING_DOWN, session.admitRequest(CLIENT).code());
        assertEquals(List.of(), journaled());
    }

    @Test
    void aShardTooFarBehindRefusesWritesAndJournalsEachRefusal()
    {
        final EntrySession session = core().open(ids.next());
        backlog = 11;
        final Refusal busy = session.admitWrite(CLIENT, true);
        assertEquals(Refusal.Code.SHARD_BUSY, busy.code());
        assertTrue(busy.message().contains("11 commands behind"), busy.message());
        assertEquals(
            List.of("SHARD_BUSY " + ConnectionIds.FIX + " the shard is 11 commands behind the journal"), journaled());
        backlog = 10;
        assertNull(session.admitWrite(CLIENT, true));
    }

    @Test
    void theEdgeThrottleRefusesAnAddressAboveItsRateAndJournalsTheRefusalsOnce()
    {
        final EdgeThrottle throttle = new EdgeThrottle(1, 2, Set.of(), clockNs::get);
        final EntrySession session = core(throttle).open(ids.next());
        assertNull(session.admitWrite(CLIENT, true));
        assertNull(session.admitWrite(CLIENT, true));
        final Refusal refused = session.admitWrite(CLIENT, true);
        assertEquals(Refusal.Code.EDGE_RATE_LIMITED, refused.code());
        assertTrue(refused.retryAfterSeconds() >= 1);
        // a write of a limit class with limits of its own passes the edge throttle by
        assertNull(session.admitWrite(CLIENT, false));
        final List<String> journaled = journaled();
        assertEquals(1, journaled.size(), journaled.toString());
        assertTrue(journaled.get(0).startsWith("EDGE_RATE_LIMITED " + ConnectionIds.FIX + " edge throttle: "),
            journaled.get(0));
    }

    @Test
    void aBatchTakesTheBacklogsPlaceAndGoesOnThePrebatchedRingWithTheRequestsBehindIt()
    {
        final EntryCore core = new EntryCore(
            new EntryCore.Context().submitter(pool).mmSubmitter(typedPool).pending(pending)
            .refusals(refusals).prebatched(2, 1).mmWindows(windows()).machineCredentials(id -> null, null));
        final EntrySession session = core.open(ids.next());
        assertFalse(session.isBatch(2));
        assertTrue(session.isBatch(3));
        final Runnable place = session.admitBatch();
        assertNotNull(place);
        assertNull(core.open(ids.next()).admitBatch(), "one batch may wait at a time");
        assertEquals(
            List.of("QUEUE_LIMIT " + ConnectionIds.FIX + " the pre-batched backlog is full: 1 requests of more " +
            "than 2 orders wait"), journaled());
        final AtomicReference<Answer[]> all = new AtomicReference<>();
        assertEquals(3, session.submitBatch(true, orders(3), all::set));
        assertTrue(offers.stream().allMatch(Offer::prebatched));
        // a small request of the same connection waits behind the batch on its ring, so the two keep their order
        assertNull(session.submit(new byte[4], answer -> { }));
        assertTrue(offers.get(3).prebatched());
        answer(offers.get(0), 1);
        answer(offers.get(1), 2);
        assertNull(all.get(), "answered once every order is");
        answer(offers.get(2), 3);
        assertEquals(3, all.get().length);
        assertEquals(3, all.get()[2].sequence);
        answer(offers.get(3), 4);
        // with nothing of its own left on the pre-batched ring, the next small request takes the low-latency one
        assertNull(session.submit(new byte[5], answer -> { }));
        assertFalse(offers.get(4).prebatched());
        place.run();
        place.run();
        assertNotNull(core.open(ids.next()).admitBatch(), "the place came back once, however often it was given back");
    }

    @Test
    void aBatchThePoolTakesInPartIsAnsweredWithTheRestNotVerified()
    {
        final EntryCore core = new EntryCore(
            new EntryCore.Context().submitter(pool).mmSubmitter(typedPool).pending(pending)
            .refusals(refusals).mmWindows(windows()).machineCredentials(id -> null, null));
        final EntrySession session = core.open(ids.next());
        room = 2;
        final AtomicReference<Answer[]> all = new AtomicReference<>();
        assertEquals(2, session.submitBatch(false, orders(4), all::set));
        assertEquals(
            List.of("QUEUE_LIMIT " + ConnectionIds.FIX + " the verifier queue is full: 2 of 4 compact orders not " +
            "verified"), journaled());
        assertEquals(2, pending.waiting(), "the two not taken wait for nothing");
        answer(offers.get(0), 1);
        answer(offers.get(1), 2);
        final Answer[] answers = all.get();
        assertNotNull(answers);
        assertArrayEquals(new boolean[] {true, true, false, false},
            new boolean[] {answers[0] != null, answers[1] != null,
            answers[2] != null, answers[3] != null});
        // none taken: no answer at all, the lane refuses the whole request
        room = 0;
        final AtomicReference<Answer[]> none = new AtomicReference<>();
        assertEquals(0, session.submitBatch(false, orders(1), none::set));
        assertNull(none.get());
        assertEquals(0, pending.waiting());
    }

    @Test
    void theCoreRefusesAConfigurationItCannotServe()
    {
        final IllegalStateException noPending = assertThrows(IllegalStateException.class,
            () -> new EntryCore(new EntryCore.Context().submitter(pool)));
        assertTrue(noPending.getMessage().contains("pending"), noPending.getMessage());
        final IllegalStateException edgeWithoutJournal = assertThrows(IllegalStateException.class,
            () -> new EntryCore(new EntryCore.Context().submitter(pool).pending(pending)
                .edgeThrottle(new EdgeThrottle(1, 1, Set.of(), clockNs::get))));
        assertTrue(edgeWithoutJournal.getMessage().contains("refusals"), edgeWithoutJournal.getMessage());
        final IllegalStateException mmWithoutWindows = assertThrows(IllegalStateException.class,
            () -> new EntryCore(new EntryCore.Context().submitter(pool).mmSubmitter(typedPool).pending(pending)));
        assertTrue(mmWithoutWindows.getMessage().contains("MM windows"), mmWithoutWindows.getMessage());
        final EntryCore.Context context = new EntryCore.Context().submitter(pool).pending(pending);
        assertSame(context, new EntryCore(context).context());
    }

    private static MmWindows windows()
    {
        return new MmWindows(MmWindows.Limits.DEFAULTS, MmWindows.Plans.NONE, () -> 0);
    }
}
