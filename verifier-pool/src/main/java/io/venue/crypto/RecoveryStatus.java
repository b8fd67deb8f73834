package io.venue.crypto;

/**
 * Outcome of recovering a signer from a 65-byte signature; every bad input maps to one of these rather
 * than to an exception.
 */
public enum RecoveryStatus
{
    /** The address was written. */
    OK,
    /** v is not 0, 1, 27 or 28. */
    V_INVALID,
    /** r is 0 or not below the group order n. */
    R_OUT_OF_RANGE,
    /** s is 0 or not below the group order n. */
    S_OUT_OF_RANGE,
    /** s is above n/2: the malleable twin of a valid signature, refused so each action has one signature. */
    S_NOT_CANONICAL,
    /** r is not the x coordinate of a curve point for this recovery id, or the recovered key is infinity. */
    NO_POINT
}
