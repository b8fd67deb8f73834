package io.venue.transport.bsltcp;

import io.venue.action.Address;

/**
 * The text a wallet signs to open a wallet-signed session (EIP-191 personal_sign; docs/BSL-TCP.md): six lines joined by
 * '\n', no final line feed, decimal numbers, lowercase 0x hex. The chain id and the verifying contract bind it to one
 * deployment; the nonce and the timestamp make it single use.
 * <pre>
 * venue BSL TCP login
 * account:0x&lt;40 hex&gt;
 * nonce:&lt;u64&gt;
 * timestampMs:&lt;Unix ms&gt;
 * chainId:&lt;u64&gt;
 * verifyingContract:0x&lt;40 hex&gt;
 * </pre>
 */
public final class WalletLoginText
{
    private WalletLoginText()
    {
    }

    public static String of(final Address account, final long nonce, final long timestampMs, final long chainId,
        final Address verifyingContract)
    {
        return "venue BSL TCP login\naccount:" + account + "\nnonce:" + Long.toUnsignedString(nonce) +
            "\ntimestampMs:" + Long.toUnsignedString(timestampMs) + "\nchainId:" + Long.toUnsignedString(chainId) +
            "\nverifyingContract:" + verifyingContract;
    }
}
