package io.venue.cli;

import io.venue.action.Address;
import io.venue.auth.AgentAuthorizationText;
import io.venue.auth.AgentKey;
import io.venue.auth.AgentKind;
import io.venue.auth.AgentRevocationText;
import io.venue.auth.AgentRotationText;
import io.venue.auth.OwnerRevokeText;
import io.venue.auth.OwnerSignedText;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.crypto.Eip191;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.codec.JsonWriter;
import io.venue.transport.http.OwnerIntents;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The owner wallet's agent intents (spec 5.8, docs/API.md "Agents"): builds the request body, signs the owner's
 * text with EIP-191 and prints the body, or submits it to the appliance and prints the answer (which holds a new
 * credential once).
 */
@Command(name = "agent", mixinStandardHelpOptions = true,
    description = "Create, rotate and revoke delegated agents with the owner wallet's EIP-191 signature.",
    subcommands = {AgentCommand.Create.class, AgentCommand.Rotate.class, AgentCommand.Revoke.class,
        AgentCommand.OwnerRevoke.class})
final class AgentCommand
{
    /** What every intent takes: the owner's key, its nonce, the deployment binding and where to send it. */
    abstract static class Intent implements Callable<Integer>
    {
        @Spec
        CommandSpec spec;

        @ArgGroup(exclusive = false, multiplicity = "1", heading = "Owner wallet key:%n")
        KeyInput owner;

        @Mixin
        DeploymentOptions deployment;

        @Option(names = "--nonce", required = true,
            description = "The intent's nonce (u64), in the owner's action nonce window.")
        String nonce;

        @Option(names = "--submit", paramLabel = "URL",
            description = "POST the body to the appliance at this base URL and " +
            "print its answer; exit 0 only when it says ok.")
        String submitUrl;

        /** The route under the base URL and the JSON body, given the owner's key, nonce and issue time. */
        abstract String[] request(Secp256k1KeyPair key, long nonce, long issuedAtMs);

        @Override
        public Integer call() throws Exception
        {
            final Secp256k1KeyPair key = Secp256k1KeyPair.fromPrivateKey(owner.privateKey());
            final String[] request = request(key, WireValues.u64(nonce), System.currentTimeMillis());
            final PrintWriter out = spec.commandLine().getOut();
            if (submitUrl == null)
            {
                out.println(request[1]);
                out.flush();
                return 0;
            }
            return Submit.post(submitUrl, request[0], request[1].getBytes(StandardCharsets.UTF_8), out,
                spec.commandLine().getErr());
        }

        static String sign(final Secp256k1KeyPair key, final OwnerSignedText text)
        {
            return Hex.to0x(new Secp256k1Signer(key).sign(Eip191.personalHash(text.text()), PreimageMode.RAW));
        }

        static AgentKey agentKey(final String text)
        {
            return text.startsWith(AgentKey.ED25519_PREFIX) ?
                AgentKey.ed25519(Hex.fromHex("0x" + text.substring(AgentKey.ED25519_PREFIX.length()))) :
                AgentKey.secp256k1(Address.of(text));
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
        description = "Authorize a new agent key (POST /api/agents/create).")
    static final class Create extends Intent
    {
        @Option(names = "--agent", required = true,
            description = "The agent's secp256k1 address (0x...) or ed25519:<64 hex>.")
        String agent;

        @Option(names = "--kind", defaultValue = "api",
            description = "api, institutional, browser or mobile (default: ${DEFAULT-VALUE}).")
        String kind;

        @Option(names = "--scopes", required = true, split = ",",
            description = "Comma-separated: trade, cancel, quote, mint_redeem, read, drop_copy.")
        List<String> scopes;

        @Option(names = "--days",
            description = "Lifetime in days, within the kind's cap (default: 30, or the kind's cap when shorter).")
        Double days;

        @Option(names = "--policy", defaultValue = "",
            description = "The authorization's policy line (default: empty).")
        String policy;

        @Override
        String[] request(final Secp256k1KeyPair key, final long intentNonce, final long issuedAtMs)
        {
            final EnumSet<Scope> set = EnumSet.noneOf(Scope.class);
            for (final String name : scopes)
            {
                final Scope scope = Scope.fromWire(name.trim());
                if (scope == null)
                {
                    throw new IllegalArgumentException("unknown scope " + name);
                }
                set.add(scope);
            }
            final AgentKind agentKind = AgentKind.fromWire(kind);
            if (agentKind == null)
            {
                throw new IllegalArgumentException("--kind is api, institutional, browser or mobile");
            }
            final long lifetimeMs = days != null ? (long)(days * AgentKind.DAY_MS) :
                Math.min(30 * AgentKind.DAY_MS, agentKind.maxLifetimeMs());
            final long expiresAtMs = issuedAtMs + lifetimeMs;
            final AgentAuthorizationText text = AgentAuthorizationText.builder().owner(key.address())
                .agent(agentKey(agent)) .kind(agentKind).scopes(set).policy(policy).nonce(intentNonce)
                .issuedAtMs(issuedAtMs).expiresAtMs(expiresAtMs)
                .chainId(deployment.chainId).verifyingContract(deployment.contractAddress()).build();
            return new String[]{"/api/agents/create", OwnerIntents.createBody(text, sign(key, text))};
        }
    }

    @Command(name = "rotate", mixinStandardHelpOptions = true,
        description =
            "Give an agent a new key; the earlier credentials stay valid 24 h (POST /api/agents/{id}/rotate).")
    static final class Rotate extends Intent
    {
        @Option(names = "--agent-id", required = true, description = "The agent's spk_ id.")
        String agentId;

        @Option(names = "--new-agent", required = true,
            description = "The new key: a secp256k1 address or ed25519:<64 hex>.")
        String newAgent;

        @Override
        String[] request(final Secp256k1KeyPair key, final long intentNonce, final long issuedAtMs)
        {
            final AgentRotationText text = AgentRotationText.builder().owner(key.address()).agentId(agentId)
                .newAgent(agentKey(newAgent)).nonce(intentNonce).issuedAtMs(issuedAtMs).chainId(deployment.chainId)
                .verifyingContract(deployment.contractAddress()).build();
            return new String[]{"/api/agents/" + agentId + "/rotate", new JsonWriter()
                .field("userWalletAddress", key.address().toString()).field("newAgent", text.newAgent().text())
                .unsigned("nonce", intentNonce).field("issuedAtMs", issuedAtMs)
                .field("signature", sign(key, text)).toJson()};
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
        description = "Revoke an agent, or one credential of it (POST /api/agents/revoke).")
    static final class Revoke extends Intent
    {
        @Option(names = "--agent-id", required = true, description = "The agent's spk_ id.")
        String agentId;

        @Option(names = "--credential",
            description = "One credential's spk_ id; without it, every credential of the agent.")
        String credentialId;

        @Override
        String[] request(final Secp256k1KeyPair key, final long intentNonce, final long issuedAtMs)
        {
            final AgentRevocationText text = AgentRevocationText.builder().owner(key.address()).agentId(agentId)
                .credentialId(credentialId).nonce(intentNonce).issuedAtMs(issuedAtMs).chainId(deployment.chainId)
                .verifyingContract(deployment.contractAddress()).build();
            final JsonWriter body = new JsonWriter().field("userWalletAddress", key.address().toString())
                .field("agentId", agentId);
            if (credentialId != null)
            {
                body.field("credentialId", credentialId);
            }
            return new String[]{"/api/agents/revoke",
                body.unsigned("nonce", intentNonce).field("issuedAtMs", issuedAtMs)
                .field("signature", sign(key, text)).toJson()};
        }
    }

    @Command(name = "owner-revoke", mixinStandardHelpOptions = true,
        description = "Revoke every agent of the owner (POST /api/v1/trading/accounts/owner-revoke).")
    static final class OwnerRevoke extends Intent
    {
        @Override
        String[] request(final Secp256k1KeyPair key, final long intentNonce, final long issuedAtMs)
        {
            final OwnerRevokeText text = OwnerRevokeText.builder().owner(key.address()).nonce(intentNonce)
                .issuedAtMs(issuedAtMs)
                .chainId(deployment.chainId).verifyingContract(deployment.contractAddress()).build();
            return new String[]{"/api/v1/trading/accounts/owner-revoke", new JsonWriter()
                .field("userWalletAddress", key.address().toString()).unsigned("nonce", intentNonce)
                .field("issuedAtMs", issuedAtMs) .field("signature", sign(key, text)).toJson()};
        }
    }
}
