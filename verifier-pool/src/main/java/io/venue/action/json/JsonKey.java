package io.venue.action.json;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A JSON object key, pre-encoded once: the bare name for matching while parsing, and {@code "name":}
 * for writing.
 */
public final class JsonKey
{
    private final String name;
    private final byte[] nameBytes;
    private final byte[] quotedWithColon;

    private JsonKey(final String name)
    {
        this.name = name;
        this.nameBytes = name.getBytes(StandardCharsets.US_ASCII);
        this.quotedWithColon = ('"' + name + "\":").getBytes(StandardCharsets.US_ASCII);
    }

    public static JsonKey of(final String name)
    {
        return new JsonKey(name);
    }

    public String name()
    {
        return name;
    }

    byte[] quotedWithColon()
    {
        return quotedWithColon;
    }

    /** True if {@code buffer[offset, offset + length)} spells this key. */
    public boolean matches(final byte[] buffer, final int offset, final int length)
    {
        return length == nameBytes.length &&
            Arrays.equals(buffer, offset, offset + length, nameBytes, 0, nameBytes.length);
    }

    @Override
    public String toString()
    {
        return name;
    }
}
