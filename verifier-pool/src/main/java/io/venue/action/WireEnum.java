package io.venue.action;

/**
 * An enum whose values are signed as exact JSON strings.
 */
public interface WireEnum
{
    /** The exact string on the wire, e.g. "Bid" or "post_only". */
    String wire();

    /** The wire string with its quotes, as canonical JSON bytes. */
    byte[] quotedWire();
}
