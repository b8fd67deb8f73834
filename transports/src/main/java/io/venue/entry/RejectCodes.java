package io.venue.entry;

import io.venue.journal.sbe.RejectCode;
import java.util.Locale;

/**
 * How a refusal reads in every lane (docs/API.md): the code string an answer carries and its one-line message; each
 * lane maps the codes to its own statuses.
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
            case NONCE_BELOW_FLOOR, NONCE_OUTSIDE_WINDOW, NONCE_REPLAYED,
                RATE_LIMITED -> code.name().toLowerCase(Locale.ROOT);
            default -> code.name();
        };
    }


    /**
     * Whether an action refused with this code had its nonce consumed (the engine gate consumes it after the signer,
     * the nonce window and the rate; every later refusal is a business reject that used it). CAPACITY_LIMIT can be
     * either (a new account refused at the gate, or a record refused later) and counts as not used. ACCOUNT_NOT_FUNDED
     * is answered before the nonce step (an unknown account has no window to consume; an agent create's owner).
     */
    public static boolean usedNonce(final RejectCode code)
    {
        return switch (code)
        {
            case NONCE_BELOW_FLOOR, NONCE_OUTSIDE_WINDOW, NONCE_REPLAYED, RATE_LIMITED, UNAUTHORIZED_SIGNER,
                SCOPE_DENIED, NOT_OPERATOR, CAPACITY_LIMIT, ACCOUNT_NOT_FUNDED -> false;
            default -> true;
        };
    }

    public static boolean isNonce(final RejectCode code)
    {
        return code == RejectCode.NONCE_BELOW_FLOOR || code == RejectCode.NONCE_OUTSIDE_WINDOW ||
            code == RejectCode.NONCE_REPLAYED;
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
            case ACCOUNT_NOT_FUNDED ->
                "the account (or the agent's owner) holds nothing at the venue: deposit, then send the action again";
            case CROSS_SHARD_CREDIT_KILL_SWITCH ->
                "the cross-shard credit kill switch is on: no new reservation is admitted";
            case CROSS_SHARD_CREDIT_HAIRCUT ->
                "the reservation is above the available credit less the cross-shard haircut";
            case CROSS_SHARD_CREDIT_ACCOUNT_CAP ->
                "the account's locked credit in this asset would pass the cross-shard cap";
            case CROSS_SHARD_CREDIT_MARKET_CAP ->
                "the market's locked credit in this asset would pass the cross-shard cap";
            case MARKET_NOT_ALLOWED ->
                "the credential's FIX onboarding record does not allow this market (the operator sets it)";
            case FIX_NOT_ENABLED -> "the credential's FIX onboarding record does not grant FIX (the operator sets it)";
            default -> code.name().toLowerCase(Locale.ROOT).replace('_', ' ');
        };
    }
}
