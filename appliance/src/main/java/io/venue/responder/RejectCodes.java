package io.venue.responder;

import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.RequestRejectReason;

/**
 * How a refusal reads on the wire (docs/API.md): the code string a response carries and its HTTP status.
 * The spec's own codes keep the spec's spelling (lower case for the nonce and rate-limit codes); the others are
 * the journal's enum names.
 */
public final class RejectCodes
{
    private RejectCodes()
    {
    }

    public static String wire(final RejectCode code)
    {
        return switch (code)
        {
            case NONCE_BELOW_FLOOR, NONCE_OUTSIDE_WINDOW, NONCE_REPLAYED, RATE_LIMITED -> code.name().toLowerCase(java.util.Locale.ROOT);
            default -> code.name();
        };
    }

    /** 401 and 403 for authorization, 429 and 503 for limits; every other engine refusal is 200 with ok false. */
    public static int httpStatus(final RejectCode code)
    {
        return switch (code)
        {
            case UNAUTHORIZED_SIGNER, NOT_OPERATOR -> 401;
            case SCOPE_DENIED -> 403;
            case RATE_LIMITED -> 429;
            case SHARD_BUSY, QUEUE_LIMIT -> 503;
            default -> 200;
        };
    }

    /**
     * Whether an action refused with this code had its nonce consumed (the engine gate consumes it after the signer,
     * the nonce window and the rate; every later refusal is a business reject that used it). CAPACITY_LIMIT can be
     * either (a new account refused at the gate, or a record refused later) and counts as not used.
     */
    public static boolean usedNonce(final RejectCode code)
    {
        return switch (code)
        {
            case NONCE_BELOW_FLOOR, NONCE_OUTSIDE_WINDOW, NONCE_REPLAYED, RATE_LIMITED, UNAUTHORIZED_SIGNER, SCOPE_DENIED,
                NOT_OPERATOR, CAPACITY_LIMIT, ACCOUNT_NOT_FUNDED -> false;
            default -> true;
        };
    }

    public static boolean isNonce(final RejectCode code)
    {
        return code == RejectCode.NONCE_BELOW_FLOOR || code == RejectCode.NONCE_OUTSIDE_WINDOW || code == RejectCode.NONCE_REPLAYED;
    }

    public static int httpStatus(final RequestRejectReason reason)
    {
        return switch (reason)
        {
            case MALFORMED -> 400;
            case BODY_TOO_LARGE -> 413;
            case BAD_SIGNATURE, TRANSPORT_AUTH_FAILED, OWNER_SIGNATURE_INVALID, TIMESTAMP_SKEW -> 401;
            case MACHINE_NONCE_REPLAYED -> 409;
            case EDGE_RATE_LIMITED, LANE_RATE_LIMITED -> 429;
            case QUEUE_LIMIT, SHARD_BUSY -> 503;
            default -> 400;
        };
    }

    /** One line a person can act on. */
    public static String message(final RejectCode code)
    {
        return switch (code)
        {
            case NONCE_BELOW_FLOOR -> "the nonce is below the account's window floor: it can never be used";
            case NONCE_OUTSIDE_WINDOW -> "the nonce is at or above floor + window: use nextUsableNonce";
            case NONCE_REPLAYED -> "this nonce was already used: the action it carried was applied once";
            case RATE_LIMITED -> "the account sent more than its actions per window";
            case RISK_CREDIT_LIMIT -> "not enough available credit for the reservation";
            case KILL_SWITCH -> "a kill switch for the account, the market or the venue is on";
            case MARKET_HALTED -> "the market is halted";
            case UNAUTHORIZED_SIGNER -> "the signer is neither the account, its vault owner nor an active agent of it";
            case SCOPE_DENIED -> "the agent does not hold the scope this action needs";
            case UNKNOWN_MARKET -> "no market with this id";
            case UNKNOWN_ORDER -> "no open order with this id for the account";
            case INVALID_PRICE -> "the price is not a positive multiple of the market's tick";
            case INVALID_QTY -> "the quantity is not a multiple of the lot or is below the minimum";
            case NOT_OPERATOR -> "administrative actions must be signed by an operator key";
            case INSUFFICIENT_BALANCE -> "the available balance is below the amount";
            case ACCOUNT_NOT_FUNDED -> "the owner holds nothing at the venue: deposit before creating agents";
            case CROSS_SHARD_CREDIT_KILL_SWITCH -> "the cross-shard credit kill switch is on: no new reservation is admitted";
            case CROSS_SHARD_CREDIT_HAIRCUT -> "the reservation is above the available credit less the cross-shard haircut";
            case CROSS_SHARD_CREDIT_ACCOUNT_CAP -> "the account's locked credit in this asset would pass the cross-shard cap";
            case CROSS_SHARD_CREDIT_MARKET_CAP -> "the market's locked credit in this asset would pass the cross-shard cap";
            default -> code.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        };
    }
}
