package io.venue.action;

import java.nio.charset.StandardCharsets;

/**
 * Self-trade prevention: what happens when an order would trade against its own account.
 */
public enum StpMode implements WireEnum
{
    CANCEL_MAKER("cancel_maker"),
    CANCEL_TAKER("cancel_taker"),
    REJECT("reject"),
    SKIP_SELF("skip_self");

    private final String wire;
    private final byte[] quoted;

    StpMode(final String wire)
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
