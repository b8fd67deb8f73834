package io.venue.transport.bsltcp;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The wallet login texts taken recently, so that each opens one session only: a text is remembered until its
 * timestamp is too old to pass the skew check again, at most {@code capacity} of them (then new wallet logins are
 * refused until old ones age out: the map is keyed by client input, so it is bounded). Thread safe.
 */
final class WalletLogins
{
    private final int capacity;
    private final long skewMs;
    /** A text's EIP-191 hash (hex) to its timestamp, in the order taken. */
    private final LinkedHashMap<String, Long> taken = new LinkedHashMap<>();

    WalletLogins(final int capacity, final long skewMs)
    {
        this.capacity = capacity;
        this.skewMs = skewMs;
    }

    /** Takes the text: null when taken, else why not ("used" or "full"). */
    synchronized String take(final String textHash, final long timestampMs, final long nowMs)
    {
        final Iterator<Map.Entry<String, Long>> oldest = taken.entrySet().iterator();
        while (oldest.hasNext())
        {
            final Map.Entry<String, Long> entry = oldest.next();
            if (entry.getValue() >= nowMs - skewMs)
            {
                // not strictly in time order (texts carry the client's time), so an old one behind a newer one waits
                // for its turn; the capacity still bounds the map
                break;
            }
            oldest.remove();
        }
        if (taken.containsKey(textHash))
        {
            return "used";
        }
        if (taken.size() >= capacity)
        {
            return "full";
        }
        taken.put(textHash, timestampMs);
        return null;
    }
}
