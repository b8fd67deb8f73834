package io.venue.action.json;

/**
 * The value types of signed payload fields, as the strict parser reads them.
 */
enum FieldKind
{
    /** Unsigned 64-bit integer. */
    U64,
    /** Unsigned 32-bit id (markets, assets). */
    U32,
    /** Unsigned 32-bit id or null (read as -1). */
    U32_OR_NULL,
    /** Unix milliseconds, an integer in [0, 2^63-1]. */
    MILLIS,
    /** Unix milliseconds or null (read as -1). */
    MILLIS_OR_NULL,
    BOOL,
    /** Always present and always null (nonce_reservation_id). */
    NULL_ONLY,
    ADDRESS,
    ADDRESS_OR_NULL,
    ORDER_ID_HEX,
    CLIENT_ORDER_ID_HEX,
    /** A credential id: spk_ and 16 lowercase hex digits. */
    CREDENTIAL_ID_TEXT,
    /** null, or an array of at most 16 unsigned 32-bit ids. */
    U32_LIST_OR_NULL,
    /** A symbol of 1 to 12 characters A-Z, 0-9. */
    SYMBOL_TEXT,
    /** One of the field's enum values. */
    ENUM,
    ENUM_OR_NULL,
    /** An externally tagged action. */
    TAGGED_ACTION,
    /** The array of a Batch's legs. */
    BATCH_LEGS,
    /** A nested object with its own shape. */
    OBJECT,
    /** The constant "EcdsaSecp256k1". */
    SIGNATURE_SCHEME,
    /** An array of exactly 65 integers 0-255. */
    SIGNATURE_BYTES
}
