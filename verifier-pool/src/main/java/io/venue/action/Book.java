package io.venue.action;

import java.nio.charset.StandardCharsets;

/**
 * Book of an outcome market; spot orders carry none.
 */
public enum Book implements WireEnum
{
    YES("YES"),
    NO("NO");

    private final String wire;
    private final byte[] quoted;

    Book(final String wire)
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
