package io.venue.action;

import java.nio.charset.StandardCharsets;

/**
 * What an operator kill switch stops.
 */
public enum KillScope implements WireEnum
{
    ACCOUNT("account"),
    MARKET("market"),
    VENUE("venue");

    private final String wire;
    private final byte[] quoted;

    KillScope(final String wire)
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
