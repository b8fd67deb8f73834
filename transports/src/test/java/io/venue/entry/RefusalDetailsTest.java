package io.venue.entry;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A refusal's text is kept whole up to 1 KB of UTF-8, else as its head, length and digest, whole characters only. */
class RefusalDetailsTest
{
    @Test
    void aShortTextIsKeptWhole()
    {
        final String text = "payload.account\nmissing field";
        assertSame(text, RefusalDetails.cap(text));
        assertFalse(RefusalDetails.isCut(text));
        assertEquals(text, RefusalDetails.head(text));
        assertNull(RefusalDetails.fullDigest(text));
        final String exactly = "é".repeat(RefusalDetails.MAX_BYTES / 2);
        assertSame(exactly, RefusalDetails.cap(exactly), "1,024 bytes fit");
    }

    @Test
    void aLongTextKeepsItsHeadLengthAndDigestWithinTheCap()
    {
        // three- and four-byte characters, so a cut in the middle of one would show
        final String text = "{\"k\":\"" + "€😀".repeat(40_000) + "\"}";
        final int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        assertTrue(bytes > 65_534);
        final String capped = RefusalDetails.cap(text);
        assertTrue(capped.getBytes(StandardCharsets.UTF_8).length <= RefusalDetails.MAX_BYTES, capped);
        assertEquals(RefusalDetails.utf8Length(capped), capped.getBytes(StandardCharsets.UTF_8).length);
        assertTrue(RefusalDetails.isCut(capped));
        assertTrue(text.startsWith(RefusalDetails.head(capped)), "the head is the text's own first characters");
        assertTrue(RefusalDetails.utf8Length(RefusalDetails.head(capped)) > 800, "most of the cap is the head");
        assertEquals(bytes, RefusalDetails.fullBytes(capped));
        assertEquals(66, RefusalDetails.fullDigest(capped).length());
        assertEquals(capped, RefusalDetails.cap(text), "the same text is capped the same way");
        assertFalse(capped.equals(RefusalDetails.cap(text + " ")), "another text has another digest");
    }

    @Test
    void aMalformedBodysFieldIsCutSoItsMessageStays()
    {
        final String text = "payload." + "k".repeat(100_000) + "\nunknown field; payload has: account, nonce";
        final String capped = RefusalDetails.cap(text);
        assertTrue(RefusalDetails.utf8Length(capped) <= RefusalDetails.MAX_BYTES);
        final String field = capped.substring(0, capped.indexOf('\n'));
        assertTrue(RefusalDetails.utf8Length(field) <= RefusalDetails.FIELD_BYTES, field);
        assertTrue(field.startsWith("payload.kkk") && field.endsWith("…"), field);
        assertTrue(capped.contains("\nunknown field; payload has: account, nonce…[cut: "), capped);
    }
}
