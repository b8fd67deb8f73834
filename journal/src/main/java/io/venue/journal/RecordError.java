package io.venue.journal;

/**
 * What {@link JournalRecords#wrap} found wrong with the bytes it was given, checked in this order.
 * Only {@link #NONE} means the record may be decoded.
 */
public enum RecordError
{
    /** The record is well formed: every byte a decoder will read lies inside the given range. */
    NONE,
    /** The offset and length do not lie inside the buffer. */
    OUT_OF_BOUNDS,
    /** Fewer bytes than a message header. */
    TOO_SHORT_FOR_HEADER,
    /** The header names another schema. */
    WRONG_SCHEMA,
    /** The header's version is not this build's schema version (2; version 1 had a shorter action envelope). */
    UNSUPPORTED_VERSION,
    /** No message of this schema has the header's template id. */
    UNKNOWN_TEMPLATE,
    /** The header's block length is shorter than the message's fixed fields. */
    BLOCK_TOO_SHORT,
    /** The bytes end inside the fixed block. */
    TRUNCATED_BLOCK,
    /** A repeating group's header is cut off, or its entries are shorter than their fixed fields. */
    BAD_GROUP_HEADER,
    /** The bytes end inside a repeating group. */
    TRUNCATED_GROUP,
    /** The bytes end inside a variable-length field. */
    TRUNCATED_VAR_DATA
}
