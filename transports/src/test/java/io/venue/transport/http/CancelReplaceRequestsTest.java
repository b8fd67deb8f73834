package io.venue.transport.http;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.CancelReplaceDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.TimeInForce;
import org.agrona.concurrent.UnsafeBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CancelReplaceRequestsTest
{
    private static final String TRADER = "0x" + "12".repeat(20);
    private static final String BODY = "{\"cancel\":{\"orderId\":\"0x" + "ab".repeat(32) + "\",\"signature\":\"0x" +
        "22".repeat(65) + "\"},\"place\":{\"marketId\":2,\"trader\":\"" + TRADER +
        "\",\"side\":3,\"price\":600000,\"qty\":1000000,\"expiry\":0," +
        "\"nonce\":9,\"signature\":\"0x" + "33".repeat(65) + "\"},\"timeInForce\":\"post_only\"}";
    private final CancelReplaceRequests requests = new CancelReplaceRequests(
        id -> id == 2 ? "OUTCOME" : id == 1 ? "SPOT" : null);

    @Test
    void aBodyBecomesTheSignedFieldsAndTheCommand() throws Exception
    {
        final CancelReplaceRequests.Request request = requests.parse(BODY.getBytes(StandardCharsets.UTF_8));
        assertEquals(TRADER, request.trader());
        assertEquals(2, request.market());
        assertEquals(3, request.order().sideCode());
        assertEquals(9, request.order().nonce());
        assertEquals(CancelReplaceDecoder.TEMPLATE_ID, request.command()[2]);
        final CancelReplaceDecoder d = new CancelReplaceDecoder()
            .wrapAndApplyHeader(new UnsafeBuffer(request.command()), 0,
                new MessageHeaderDecoder());
        assertEquals(Book.NO, d.book(), "codes 2 and 3 are the NO book");
        assertEquals(Side.ASK, d.side());
        assertEquals(TimeInForce.POST_ONLY, d.timeInForce());
    }

    @Test
    void refusalsNameTheField()
    {
        final OwnerIntents.BadIntent side = assertThrows(OwnerIntents.BadIntent.class,
            () -> requests.parse(BODY.replace("\"side\":3", "\"side\":4").getBytes(StandardCharsets.UTF_8)));
        assertEquals("place.side", side.field());
        final OwnerIntents.BadIntent huge = assertThrows(OwnerIntents.BadIntent.class,
            () -> requests.parse(
                BODY.replace("\"marketId\":2", "\"marketId\":9223372036854775809").getBytes(StandardCharsets.UTF_8)));
        assertEquals("place.marketId", huge.field(),
            "a u64 market above the u32 range is refused, not cut to its low bits");
        final OwnerIntents.BadIntent tif = assertThrows(OwnerIntents.BadIntent.class,
            () -> requests.parse(BODY.replace("post_only", "fok").getBytes(StandardCharsets.UTF_8)));
        assertEquals("timeInForce", tif.field());
        final OwnerIntents.BadIntent id = assertThrows(OwnerIntents.BadIntent.class,
            () -> requests.parse(BODY.replace("0x" + "ab".repeat(32), "0x12").getBytes(StandardCharsets.UTF_8)));
        assertEquals("cancel.orderId", id.field());
    }

    @Property(tries = 2000)
    void mutatedBodiesAreRequestsOrRefusalsNeverOtherExceptions(@ForAll final long seed)
    {
        final Random random = new Random(seed);
        final byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
        for (int i = random.nextInt(3); i >= 0; i--)
        {
            body[random.nextInt(body.length)] = (byte)random.nextInt(128);
        }
        try
        {
            assertTrue(requests.parse(body).command().length > 8);
        }
        catch (final OwnerIntents.BadIntent refused)
        {
            assertTrue(refused.getMessage() != null && !refused.getMessage().isEmpty());
        }
    }
}
