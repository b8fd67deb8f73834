package io.venue.auth;

import io.venue.action.Address;

/**
 * The text a wallet signs with EIP-191 to obtain a private WebSocket token without machine credentials (spec 5.7:
 * "SVC-* headers or a delegated wallet signature"): the account itself, its vault owner, or a secp256k1 agent of
 * the account holding the read scope. Immutable; made by {@link Builder}.
 *
 * <pre>
 * Service WS Token
 * account:0x...
 * nonce:u64                 (chosen by the client; the text is single use)
 * issued_at:ms
 * chain_id:u64
 * verifying_contract:0x...
 * </pre>
 */
public final class WsTokenText extends OwnerSignedText
{
    public static final String TITLE = "Service WS Token";

    private WsTokenText(final Builder builder)
    {
        super(builder, TextLines.finish(new TextLines(TITLE).line("account", builder.owner), builder, null, 0));
    }

    /** The account the token reads for (the builder's owner field). */
    public Address account()
    {
        return owner();
    }

    public static Builder builder()
    {
        return new Builder();
    }

    /** Collects the fields: {@code owner} is the account; {@link #build()} throws the first invalid one. */
    public static final class Builder extends OwnerTextBuilder<Builder>
    {
        private Builder()
        {
        }

        @Override
        String problemOfOwnFields()
        {
            return null;
        }

        /**
         * @throws IllegalArgumentException naming the first invalid field.
         */
        public WsTokenText build()
        {
            throwIfProblem();
            return new WsTokenText(this);
        }
    }
}
