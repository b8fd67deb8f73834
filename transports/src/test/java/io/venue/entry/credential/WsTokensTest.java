package io.venue.entry.credential;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class WsTokensTest
{
    private static final byte[] KEY = new byte[32];
    private static final String ACCOUNT = "0x" + "ab".repeat(20);
    private final WsTokens tokens = new WsTokens(KEY);

    @Test
    void aTokenCarriesItsClaimsUntilItExpires()
    {
        final String token = tokens.issue(ACCOUNT, "spk_0123456789abcdef", 10_000);
        assertEquals(new WsTokens.Claims(ACCOUNT, "spk_0123456789abcdef", 10_000), tokens.verify(token, 9_999));
        assertNull(tokens.verify(token, 10_000), "expired");
        final byte[] other = KEY.clone();
        other[0] = 1;
        assertNull(new WsTokens(other).verify(token, 0), "signed under another key");
    }

    @Test
    void ttlIsClampedToOneToFiveMinutes()
    {
        assertEquals(180_000, WsTokens.clampTtl(0, 180_000));
        assertEquals(60_000, WsTokens.clampTtl(1, 180_000));
        assertEquals(300_000, WsTokens.clampTtl(3_600_000, 180_000));
        assertEquals(90_000, WsTokens.clampTtl(90_000, 180_000));
    }

    /**
     * A base64url part's last character may carry unused bits, so a change can decode to the same bytes: never to
     * other claims.
     */
    @Property(tries = 3000)
    void aChangedCharacterNeverYieldsOtherClaims(@ForAll final int position, @ForAll final char replacement)
    {
        final String token = tokens.issue(ACCOUNT, "spk_0123456789abcdef", Long.MAX_VALUE);
        final char[] chars = token.toCharArray();
        final int at = Math.floorMod(position, chars.length);
        if (chars[at] == replacement)
        {
            return;
        }
        chars[at] = replacement;
        final WsTokens.Claims claims = tokens.verify(new String(chars), 0);
        if (claims != null)
        {
            assertEquals(tokens.verify(token, 0), claims);
        }
    }

    @Property(tries = 3000)
    void randomTextIsRefusedNotThrownAt(@ForAll final String text)
    {
        assertNull(tokens.verify(text, 0));
        assertNull(tokens.verify(WsTokens.PREFIX + text, 0));
    }
}
