package io.venue.action;

import java.nio.charset.StandardCharsets;

/**
 * Side of an order.
 */
public enum Side implements WireEnum
{
    BID("Bid"),
    ASK("Ask");

    private final String wire;
    private final byte[] quoted;

    Side(final String wire)
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
