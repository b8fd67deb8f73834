package io.venue.transport.fix;

import io.venue.entry.admission.SlidingCount;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Spec 8.4's logon limit: at most {@code maxPerWindow} Logon attempts in any {@code windowMs} (a minute), counted per
 * credential (the Username) and per address, accepted or not. Both tables are keyed by client input, so each holds at
 * most {@code capacity} keys: past it the key used least recently is dropped (a flood of new keys evicts counts,
 * which then start again at zero; an address that keeps its own key busy keeps its count). Thread safe (one lock).
 */
final class LogonAttempts
{
    private final int maxPerWindow;
    private final long windowMs;
    private final Map<String, SlidingCount> byCredential;
    private final Map<String, SlidingCount> byAddress;

    LogonAttempts(final int maxPerWindow, final long windowMs, final int capacity)
    {
        this.maxPerWindow = maxPerWindow;
        this.windowMs = windowMs;
        this.byCredential = bounded(capacity);
        this.byAddress = bounded(capacity);
    }

    private static Map<String, SlidingCount> bounded(final int capacity)
    {
        return new LinkedHashMap<>(16, 0.75f, true)
        {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(final Map.Entry<String, SlidingCount> eldest)
            {
                return size() > capacity;
            }
        };
    }

    /**
     * Counts one attempt of {@code credential} (null when the Logon names none) from {@code address}.
     *
     * @return null when it may go on, else which limit it is over ("credential" or "address").
     */
    synchronized String attempt(final String credential, final String address, final long nowMs)
    {
        final SlidingCount fromAddress = byAddress.computeIfAbsent(address, k -> new SlidingCount(windowMs));
        final SlidingCount ofCredential = credential == null ? null :
            byCredential.computeIfAbsent(credential, k -> new SlidingCount(windowMs));
        final boolean addressFull = fromAddress.used(nowMs) >= maxPerWindow;
        final boolean credentialFull = ofCredential != null && ofCredential.used(nowMs) >= maxPerWindow;
        // a refused attempt is an attempt too: one that keeps trying stays refused
        fromAddress.add(nowMs, 1);
        if (ofCredential != null)
        {
            ofCredential.add(nowMs, 1);
        }
        return credentialFull ? "credential" : addressFull ? "address" : null;
    }

    synchronized int size()
    {
        return byCredential.size() + byAddress.size();
    }
}
