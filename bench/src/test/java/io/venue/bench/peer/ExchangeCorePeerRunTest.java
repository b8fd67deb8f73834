package io.venue.bench.peer;

import io.venue.bench.workload.ExchangeCoreWorkload;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small run of the peer harness: exchange-core, fed the translated workload, ends with the model's book and refuses
 * what the model refuses, with and without its disk journal. BLOCKING waits, so that the test does not spin on CI's
 * two cores.
 */
class ExchangeCorePeerRunTest
{
    private static PeerStream stream;

    @BeforeAll
    static void translate()
    {
        stream = PeerStream.translate(ExchangeCoreWorkload.generate(2_000, 20_000, 42));
    }

    @Test
    void exchangeCoreEndsWithTheModelsBook() throws IOException
    {
        final ExchangeCorePeerRun.PeerResult result =
            ExchangeCorePeerRun.run(stream, PeerConfig.parse("latency,BLOCKING"), "peer-test");

        assertNull(result.book().differenceFrom(stream.expectedBook()));
        assertEquals(stream.expectedRefusals(), result.refused());
        assertEquals(20_000, stream.measured().size());
        assertTrue(result.book().orders() > 900, "the workload keeps about 1,000 orders resting");
    }

    @Test
    void withItsDiskJournalTooAndTheJournalIsWritten() throws IOException
    {
        final ExchangeCorePeerRun.PeerResult result =
            ExchangeCorePeerRun.run(stream, PeerConfig.parse("base,journal"), "peer-test-journal");

        assertNull(result.book().differenceFrom(stream.expectedBook()));
        assertTrue(result.journalBytes() > 0, "journal bytes: " + result.journalBytes());
    }

    @Test
    void theVariantWhoseAmendsKeepTheSizeIsFollowedCloserAndStillMatches() throws IOException
    {
        final PeerStream variant = PeerStream.translate(ExchangeCoreWorkload.generate(2_000, 20_000, 42, true));
        final ExchangeCorePeerRun.PeerResult result =
            ExchangeCorePeerRun.run(variant, PeerConfig.parse("latency,BLOCKING"), "peer-test-variant");

        assertNull(result.book().differenceFrom(variant.expectedBook()));
        assertEquals(variant.expectedRefusals(), result.refused());
        assertTrue(variant.expectedRefusals() < stream.expectedRefusals(),
            "a move that keeps the size leaves fewer orders that exchange-core no longer has: " +
            variant.expectedRefusals() + " refused, " + stream.expectedRefusals() + " with the stream itself");
    }

    @Test
    void aDifferentVolumeIsADifferentBook()
    {
        final BookLevels book = new BookLevels(new long[][] {{99, 5, 1}}, new long[][] {{101, 7, 2}});
        final BookLevels other = new BookLevels(new long[][] {{99, 5, 1}}, new long[][] {{101, 6, 2}});

        assertNull(book.differenceFrom(new BookLevels(new long[][] {{99, 5, 1}}, new long[][] {{101, 7, 2}})));
        assertEquals("ask level 0: price 101 volume 7 in 2 orders here, price 101 volume 6 in 2 orders there " +
            "(1 and 1 ask levels)", book.differenceFrom(other));
    }

    @Test
    void aMovedOrderQueuesBehindItsNewLevelEvenAtTheSamePrice()
    {
        final PeerBookModel model = new PeerBookModel();
        model.place(1, 1, false, 101, 5, false);
        model.place(2, 2, false, 101, 5, false);
        model.move(1, 1, 101);
        model.place(3, 3, true, 101, 5, true);

        assertEquals(5, model.remaining(1, 1), "order 1 lost its place and was not filled");
        assertEquals(0, model.remaining(2, 2));
        assertEquals(1, model.openOrders());
        assertTrue(model.reduce(1, 1, 5), "a reduce of all that is left removes the order");
        assertEquals(0, model.openOrders());
        assertEquals(0, model.refused());
    }
}
