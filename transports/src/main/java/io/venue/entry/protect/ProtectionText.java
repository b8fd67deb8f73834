package io.venue.entry.protect;

import io.venue.action.Address;

/**
 * The text an account's own key signs (EIP-191 personal_sign) to arm, renew or disarm one of its protections over REST
 * without machine headers (docs/API.md, "Protections"): nine lines joined by '\n', no final line feed, decimal numbers,
 * lowercase 0x hex. The route and the value bind it to one request, the chain id and the verifying contract to one
 * deployment, the nonce and the timestamp make it single use.
 * <pre>
 * venue protection
 * route:dead-man | cancel-on-disconnect
 * account:0x&lt;40 hex&gt;
 * market:&lt;u32&gt; | all
 * countdownMs:&lt;ms&gt; | armed:true | armed:false
 * nonce:&lt;u64&gt;
 * timestampMs:&lt;Unix ms&gt;
 * chainId:&lt;u64&gt;
 * verifyingContract:0x&lt;40 hex&gt;
 * </pre>
 */
public final class ProtectionText
{
    public static final String DEAD_MAN = "dead-man";
    public static final String CANCEL_ON_DISCONNECT = "cancel-on-disconnect";

    private ProtectionText()
    {
    }

    /** A dead-man request's text; {@code market} {@link ProtectionCommands#ALL_MARKETS} for every market. */
    public static String deadMan(final Address account, final long market, final long countdownMs, final long nonce,
        final long timestampMs, final long chainId, final Address verifyingContract)
    {
        return of(DEAD_MAN, account, market, "countdownMs:" + countdownMs, nonce, timestampMs, chainId,
            verifyingContract);
    }

    /** A cancel-on-disconnect request's text. */
    public static String cancelOnDisconnect(final Address account, final long market, final boolean armed,
        final long nonce, final long timestampMs, final long chainId, final Address verifyingContract)
    {
        return of(CANCEL_ON_DISCONNECT, account, market, "armed:" + armed, nonce, timestampMs, chainId,
            verifyingContract);
    }

    private static String of(final String route, final Address account, final long market, final String value,
        final long nonce, final long timestampMs, final long chainId, final Address verifyingContract)
    {
        return "venue protection\nroute:" + route + "\naccount:" + account + "\nmarket:" +
            (market == ProtectionCommands.ALL_MARKETS ? "all" : Long.toString(market)) + "\n" + value + "\nnonce:" +
            Long.toUnsignedString(nonce) + "\ntimestampMs:" + timestampMs + "\nchainId:" +
            Long.toUnsignedString(chainId) + "\nverifyingContract:" + verifyingContract;
    }
}
