package io.venue.entry;

import io.venue.journal.sbe.RejectCode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A request waits at most its answer timeout: then it is answered TIMED_OUT and forgotten, journaled or not. */
class PendingRequestsTest
{
    @Test
    void aRequestWhoseAnswerNeverComesIsAnsweredTimedOutAndForgotten()
    {
        // the deadlines' clock is the test's: it moves only when the test moves it
        final AtomicLong clock = new AtomicLong(1_000);
        final PendingRequests pending = new PendingRequests(0, 2_000, clock::get);
        final List<Answer> lost = new ArrayList<>();
        final List<Answer> sequencedButUndecided = new ArrayList<>();
        final List<Answer> decided = new ArrayList<>();
        final List<Answer> patient = new ArrayList<>();
        // a result the sequencer never journaled: never named, never completed
        pending.register(lost::add);
        final long second = pending.register(sequencedButUndecided::add);
        final long third = pending.register(decided::add);
        pending.register(patient::add, 30_000);
        pending.onSequenced(second, 1);
        pending.onSequenced(third, 2);
        pending.complete(2, new Answer.Builder().rejected(2, 0, RejectCode.UNKNOWN_ORDER).build());
        assertEquals(1, decided.size());
        assertEquals(3, pending.waiting());

        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(1_999));
        assertEquals(0, pending.expire(), "not before the timeout");
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
        assertEquals(2, pending.expire());
        assertEquals(Answer.Kind.TIMED_OUT, lost.get(0).kind);
        assertEquals(0, lost.get(0).sequence, "not journaled");
        assertEquals(Answer.Kind.TIMED_OUT, sequencedButUndecided.get(0).kind);
        assertEquals(1, sequencedButUndecided.get(0).sequence, "journaled as 1, not decided yet");
        assertEquals(1, pending.waiting(), "only the request registered with a longer wait is left");
        assertEquals(0, patient.size());

        // a decision after the timeout is dropped: each request is answered once
        pending.complete(1, new Answer.Builder().accepted(1, 0).build());
        assertEquals(1, sequencedButUndecided.size());
        assertEquals(0, pending.expire());
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(28_000));
        assertEquals(1, pending.expire());
        assertEquals(Answer.Kind.TIMED_OUT, patient.get(0).kind);
        assertEquals(0, pending.waiting());
    }
}
