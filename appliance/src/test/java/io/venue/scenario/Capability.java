package io.venue.scenario;

/**
 * What a lane can carry or is subject to. A scenario that needs one a lane lacks is skipped for that lane with the
 * lane's reason ({@link LaneClient#lacks}), never passed.
 */
public enum Capability
{
    /** A place on a spot market or an outcome market's book. */
    PLACE,
    AMEND,
    CANCEL,
    CANCEL_BY_CLIENT_ORDER_ID,
    /** Several orders of one account in one request ({@link LaneClient#batch}). */
    BATCH,
    /** {@code CancelAll}: every order of the account in a market, or in all. */
    CANCEL_ALL,
    /** The outcome markets' {@code Split} and {@code Merge}. */
    SPLIT_MERGE,
    /** The operator's actions (listing, deposits, halts) sent on this lane, signed by an operator key. */
    OPERATOR_ACTIONS,
    /** The engine's per-account action limiter (50 per 1,000 ms) counts this lane's actions (RATE_LIMITED). */
    ACCOUNT_LIMITER,
    /** The lane's own windows (spec 8.2's MM windows) count its requests (LANE_RATE_LIMITED). */
    LANE_WINDOWS,
    /** Each request carries a transport credential (SVC-* headers) the gateway checks before any action. */
    MACHINE_AUTH,
    /**
     * A queue before the engine that a client's requests can fill (a verifier ring, a backlog), refused QUEUE_LIMIT.
     */
    FILLABLE_QUEUE,
    /** The answer of an action carries the action's digest and the fills it caused ({@code trades}). */
    FILLS_IN_ANSWER,
    /**
     * Its answers are the trading route's HTTP answers: their headers (Retry-After, the rate limit's) and the detail
     * fields of a refusal (the nonce window's, {@code expectedSigner}).
     */
    HTTP_ANSWERS
}
