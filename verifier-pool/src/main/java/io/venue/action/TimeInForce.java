package io.venue.action;

import java.nio.charset.StandardCharsets;

/**
 * How long an order may rest.
 */
public enum TimeInForce implements WireEnum
{
    GTC("gtc"),
    IOC("ioc"),
    FOK("fok"),
    POST_ONLY("post_only");

    private final String wire;
    private final byte[] quoted;

    TimeInForce(final String wire)
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
