package io.venue.cli;

import io.venue.action.Address;
import io.venue.auth.WsTokenText;
import io.venue.codec.Hex;
import io.venue.crypto.Eip191;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.codec.JsonWriter;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Obtains a private WebSocket / private-read bearer token (POST /api/v1/ws/token): with an agent's machine
 * credential (SVC-* headers, auth version 2 or 3), or with a wallet's EIP-191 signature over the token text.
 */
@Command(name = "token", mixinStandardHelpOptions = true,
    description = "Obtain a bearer token for the private reads, with SVC-* machine headers or a wallet signature.")
final class TokenCommand implements Callable<Integer>
{
    static final String ROUTE = "/api/v1/ws/token";

    @Spec
    CommandSpec spec;

    @Option(names = "--url", required = true, description = "The appliance's base URL, e.g. http://127.0.0.1:8080.")
    String url;

    @Option(names = "--ttl-ms", description = "The token's lifetime; the appliance clamps it to 60,000-300,000 ms.")
    Long ttlMs;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Mode mode;

    @Mixin
    DeploymentOptions deployment;

    static final class Mode
    {
        @ArgGroup(exclusive = false, heading = "Machine credential:%n")
        MachineCredential machine;

        @ArgGroup(exclusive = false, heading = "Wallet signature:%n")
        Wallet wallet;
    }

    static final class Wallet
    {
        @ArgGroup(exclusive = false, multiplicity = "1", heading = "Signing wallet key:%n")
        KeyInput key;

        @Option(names = "--account", description = "The account to read; default: the wallet's own.")
        String account;

        @Option(names = "--nonce", required = true, description = "Any u64 not used for a token text before.")
        String nonce;
    }

    @Override
    public Integer call() throws Exception
    {
        final long now = System.currentTimeMillis();
        if (mode.machine != null)
        {
            final byte[] body = ttlMs == null ? new byte[0] :
                new JsonWriter().field("ttlMs", ttlMs).toJson().getBytes(StandardCharsets.UTF_8);
            return Submit.post(url, ROUTE, body, mode.machine.headers("POST", ROUTE, body), spec.commandLine().getOut(),
                spec.commandLine().getErr());
        }
        final Secp256k1KeyPair key = Secp256k1KeyPair.fromPrivateKey(mode.wallet.key.privateKey());
        final Address account = mode.wallet.account == null ? key.address() :
            Address.of(mode.wallet.account);
        final long nonce = WireValues.u64(mode.wallet.nonce);
        final WsTokenText text = WsTokenText.builder().owner(account).nonce(nonce).issuedAtMs(now)
            .chainId(deployment.chainId) .verifyingContract(deployment.contractAddress()).build();
        final JsonWriter body = new JsonWriter().field("account", account.toString()).unsigned("nonce", nonce)
            .field("issuedAtMs", now)
            .field("signature",
                Hex.to0x(new Secp256k1Signer(key).sign(Eip191.personalHash(text.text()), PreimageMode.RAW)));
        if (ttlMs != null)
        {
            body.field("ttlMs", ttlMs);
        }
        return Submit.post(url, ROUTE, body.toJson().getBytes(StandardCharsets.UTF_8), Map.of(),
            spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
