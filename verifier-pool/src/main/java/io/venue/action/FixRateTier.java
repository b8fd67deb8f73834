package io.venue.action;

import java.nio.charset.StandardCharsets;

/**
 * A FIX onboarding record's order-entry rate tier (spec 5.5): each tier is a number of messages a second that the
 * node's configuration gives it ({@code fix.rate.tier.<name>}), so the venue can move every client of a tier at once.
 */
public enum FixRateTier implements WireEnum
{
    STANDARD("standard"),
    ENHANCED("enhanced"),
    PREMIUM("premium");

    private final String wire;
    private final byte[] quoted;

    FixRateTier(final String wire)
    {
        this.wire = wire;
        this.quoted = ('"' + wire + '"').getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public String wire()
    {
        return wire;
    }

    @Override
    public byte[] quotedWire()
    {
        return quoted;
    }
}
