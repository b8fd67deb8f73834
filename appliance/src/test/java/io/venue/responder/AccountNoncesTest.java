package io.venue.responder;

import io.venue.codec.Hex;
import io.venue.journal.sbe.ActionAcceptedEncoder;
import io.venue.journal.sbe.ActionRejectedEncoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.MessageHeaderEncoder;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The nonce window read model: the last ActionAccepted, or ActionRejected of a whole action, of each account; an
 * account no event names has consumed nothing; and a reader on another thread never sees one event's floor beside
 * another's sequence while the responder writes.
 */
class AccountNoncesTest
{
    private static final byte[] ALICE = filled(0xa1);
    private static final byte[] BOB = filled(0xb0);

    private final AccountNonces nonces = new AccountNonces();
    private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(512);
    private final MessageHeaderEncoder headerOut = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerIn = new MessageHeaderDecoder();

    private static byte[] filled(final int value)
    {
        final byte[] bytes = new byte[20];
        Arrays.fill(bytes, (byte)value);
        return bytes;
    }

    private static long number(final String json, final String key)
    {
        final Matcher m = Pattern.compile("\"" + key + "\":(\\d+)").matcher(json);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private void accepted(final byte[] account, final long sequence, final long floor, final long nextUsable)
    {
        new ActionAcceptedEncoder().wrapAndApplyHeader(buffer, 0, headerOut).sequence(sequence)
            .putAccount(account, 0, 20).nonceFloor(floor).nextUsableNonce(nextUsable);
        nonces.onEvent(buffer, 0, headerIn.wrap(buffer, 0));
    }

    private void rejected(final byte[] account, final long sequence, final long floor, final long nextUsable,
        final int legIndex)
    {
        new ActionRejectedEncoder().wrapAndApplyHeader(buffer, 0, headerOut).sequence(sequence)
            .putAccount(account, 0, 20).nonceFloor(floor).nextUsableNonce(nextUsable).legIndex(legIndex);
        nonces.onEvent(buffer, 0, headerIn.wrap(buffer, 0));
    }

    @Test
    void eachAccountsLastWindow()
    {
        final String alice = Hex.to0x(ALICE);
        final String bob = Hex.to0x(BOB);
        assertEquals("{\"ok\":true,\"account\":\"" + alice + "\",\"nonceFloor\":0,\"nonceWindow\":256," +
            "\"nextUsableNonce\":0,\"seen\":false}", nonces.json(alice, 256));
        accepted(ALICE, 5, 0, 3);
        accepted(BOB, 6, 10, 12);
        accepted(ALICE, 7, 1, 300);
        assertEquals(300, nonces.nextUsable(alice));
        assertEquals(12, nonces.nextUsable(bob));
        assertEquals("{\"ok\":true,\"account\":\"" + alice + "\",\"nonceFloor\":1,\"nonceWindow\":256," +
            "\"nextUsableNonce\":300,\"seen\":true,\"asOfSequence\":7}", nonces.json(alice, 256));

        // a leg's refusal and a refusal before the nonce step (no window in it) say nothing of the window
        rejected(ALICE, 8, 2, 301, 0);
        rejected(ALICE, 9, 0, 0, ActionRejectedEncoder.legIndexNullValue());
        assertEquals(300, nonces.nextUsable(alice));
        rejected(ALICE, 10, 2, 302, ActionRejectedEncoder.legIndexNullValue());
        assertEquals(302, nonces.nextUsable(alice));
        assertEquals(0, nonces.nextUsable("0x" + "c3".repeat(20)));
        assertEquals(0, nonces.nextUsable("not an account"));
    }

    @Test
    void aReaderSeesOneEventsWindowWhole() throws Exception
    {
        final String alice = Hex.to0x(ALICE);
        accepted(ALICE, 2, 1, 3);
        final AtomicReference<String> torn = new AtomicReference<>();
        final Thread reader = new Thread(() ->
        {
            while (torn.get() == null && !Thread.currentThread().isInterrupted())
            {
                // every event written has floor = n, next = 2n + 1, sequence = 2n
                final String json = nonces.json(alice, 256);
                final long floor = number(json, "nonceFloor");
                final long next = number(json, "nextUsableNonce");
                final long sequence = number(json, "asOfSequence");
                if (next != 2 * floor + 1 || sequence != 2 * floor)
                {
                    torn.set(json);
                }
            }
        });
        reader.start();
        for (long n = 2; n < 500_000 && torn.get() == null; n++)
        {
            accepted(ALICE, 2 * n, n, 2 * n + 1);
        }
        reader.interrupt();
        reader.join();
        assertNull(torn.get());
    }
}
