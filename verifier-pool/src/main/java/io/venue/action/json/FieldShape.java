package io.venue.action.json;

import io.venue.action.WireEnum;

/**
 * One field of an object as the parser expects it.
 *
 * @param optional   true if the key may be absent (it is then omitted from the canonical JSON).
 * @param enumValues the accepted values for ENUM kinds, else null.
 * @param nested     the shape of an OBJECT kind, else null.
 */
record FieldShape(JsonKey key, FieldKind kind, boolean optional, WireEnum[] enumValues, ObjectShape nested)
{
    static FieldShape required(final JsonKey key, final FieldKind kind)
    {
        return new FieldShape(key, kind, false, null, null);
    }

    static FieldShape optional(final JsonKey key, final FieldKind kind)
    {
        return new FieldShape(key, kind, true, null, null);
    }

    static FieldShape enumField(final JsonKey key, final boolean nullable, final boolean optional,
        final WireEnum[] values)
    {
        return new FieldShape(key, nullable ? FieldKind.ENUM_OR_NULL : FieldKind.ENUM, optional, values, null);
    }

    static FieldShape object(final JsonKey key, final ObjectShape nested)
    {
        return new FieldShape(key, FieldKind.OBJECT, false, null, nested);
    }
}
