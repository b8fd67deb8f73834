package io.venue.cli;

import io.venue.action.Address;
import io.venue.action.ClientOrderId;
import io.venue.crypto.PreimageMode;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Options every signed action shares: the key, the deployment binding, the payload header fields and the
 * preimage mode.
 */
final class SigningOptions
{
    @ArgGroup(exclusive = false, multiplicity = "1", heading = "Key:%n")
    KeyInput key;

    @Mixin
    DeploymentOptions deployment;

    @Option(names = "--account", description = "Trading account (0x address). Default: the key's own address.")
    String account;

    @Option(names = "--nonce", description = "Action nonce (u64), inside the account's 256-wide window.")
    String nonce;

    @Option(names = "--ts", description = "Unix milliseconds. Default: now.")
    Long ts;

    @Option(names = "--client-order-id", description = "Optional 16-byte client order id, 0x + 32 lowercase hex.")
    String clientOrderId;

    @Option(names = "--mode", defaultValue = "raw", description = "What is signed: raw (the v2 digest), personal " +
        "(EIP-191 of the digest's 32 bytes) or admin-text (EIP-191 of an admin action's text, docs/MESSAGE-TEXTS.md " +
        "section 6: the documented way for operator actions). Default: ${DEFAULT-VALUE}.")
    String mode;

    /** Whether an admin action is signed over its admin text rather than its digest. */
    boolean adminText()
    {
        return "admin-text".equals(mode);
    }

    PreimageMode preimageMode()
    {
        return switch (mode)
        {
            case "raw" -> PreimageMode.RAW;
            case "personal" -> PreimageMode.PERSONAL;
            default -> throw new IllegalArgumentException("--mode must be raw, personal or admin-text, got " + mode);
        };
    }

    Address accountOr(final Address keyAddress)
    {
        return account == null ? keyAddress : Address.of(account);
    }

    long nonceValue()
    {
        if (nonce == null)
        {
            throw new IllegalArgumentException("--nonce is required");
        }
        return Long.parseUnsignedLong(nonce);
    }

    long tsValue()
    {
        return ts != null ? ts : System.currentTimeMillis();
    }

    ClientOrderId clientOrderIdValue()
    {
        return clientOrderId == null ? null : ClientOrderId.of(clientOrderId);
    }
}
