package io.venue.action;

/**
 * The body of POST /api/v1/trading/actions (spec 2.3): a payload and its 65-byte secp256k1 signature
 * (r, s, v). The only scheme is "EcdsaSecp256k1".
 */
public record SignedAction(ActionPayload payload, Signature65 signature)
{
    public static final String SCHEME = "EcdsaSecp256k1";

    public SignedAction
    {
        Fields.requireNonNull("payload", payload);
        Fields.requireNonNull("signature", signature);
    }
}
