package io.venue.action.json;

/**
 * Why a request body was refused before any signature work. Each reject also names the field (a path
 * such as {@code payload.action.SpotPlaceOrder.price}) and says what was expected.
 */
public enum ParseErrorCode
{
    /** Not JSON, or JSON cut short; the message gives the byte offset. */
    MALFORMED_JSON,
    /** Empty body, or larger than the configured maximum. */
    INVALID_BODY_SIZE,
    /** A key the object does not define. */
    UNKNOWN_FIELD,
    /** A required key is absent. */
    MISSING_FIELD,
    /** The same key twice in one object. */
    DUPLICATE_FIELD,
    /** A value of the wrong JSON type (a string where a number belongs, a null where none is allowed). */
    INVALID_TYPE,
    /** A number with a sign, fraction, exponent or leading zero. */
    INVALID_NUMBER,
    /** An integer outside its range (u64, u32, or Unix milliseconds up to 2^63-1). */
    NUMBER_OUT_OF_RANGE,
    /** Not 0x-prefixed lowercase hex of the exact length. */
    INVALID_HEX,
    /** A string that is not one of the field's exact enum values. */
    INVALID_ENUM,
    /** An action tag that is not a known variant, or not allowed where it stands. */
    UNKNOWN_ACTION,
    /** Well-typed values that break a rule of the variant (leg count, kill-switch targets, symbol form). */
    INVALID_VALUE,
    /** signature.bytes is not an array of exactly 65 integers 0-255. */
    INVALID_SIGNATURE_BYTES,
    /** signature.scheme is not "EcdsaSecp256k1". */
    UNSUPPORTED_SCHEME,
    /** Anything but whitespace after the closing brace. */
    TRAILING_DATA
}
