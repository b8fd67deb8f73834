package io.venue.cli;

import io.venue.action.Address;
import io.venue.appliance.KeyFiles;
import io.venue.auth.AgentAuthorizationText;
import io.venue.auth.AgentKey;
import io.venue.auth.AgentKind;
import io.venue.auth.AgentRevocationText;
import io.venue.auth.AgentRotationText;
import io.venue.auth.CredentialDelivery;
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

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The owner wallet's agent intents (spec 5.8, docs/API.md "Agents"): builds the request body, signs the owner's
 * text with EIP-191 and prints the body, or submits it to the appliance and prints the answer (which holds a new
 * credential once). A secp256k1 agent's create or rotate carries a fresh X25519 delivery key that the owner signs; the
 * answer's credential is sealed to it ({@link CredentialDelivery}) and opened here, so the secret is printed by the
 * requester alone. A body printed to be submitted elsewhere keeps the delivery key's private half in
 * {@code --delivery-key-file}, and {@code venue agent open} opens that answer.
 */
@Command(name = "agent", mixinStandardHelpOptions = true,
    description = "Create, rotate and revoke delegated agents with the owner wallet's EIP-191 signature.",
    subcommands = {AgentCommand.Create.class, AgentCommand.Rotate.class, AgentCommand.Revoke.class,
        AgentCommand.OwnerRevoke.class, AgentCommand.Open.class})
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

        @Option(names = "--delivery-key-file", paramLabel = "FILE",
            description = "Without --submit, for a secp256k1 agent's create or rotate: write the private half of " +
            "the body's X25519 delivery key here (owner-only), for 'venue agent open' to read the answer with.")
        Path deliveryKeyFile;

        /** The key the new credential's secret is sealed to: made for this request, never sent. */
        final CredentialDelivery.Requester requester = new CredentialDelivery.Requester(new SecureRandom());

        /** Whether the request's new credential has a secret (a secp256k1 agent's create or rotate). */
        boolean delivers()
        {
            return false;
        }

        /** The route under the base URL and the JSON body, given the owner's key, nonce and issue time. */
        abstract String[] request(Secp256k1KeyPair key, long nonce, long issuedAtMs);

        @Override
        public Integer call() throws Exception
        {
            final Secp256k1KeyPair key = Secp256k1KeyPair.fromPrivateKey(owner.privateKey());
            final String[] request = request(key, WireValues.u64(nonce), System.currentTimeMillis());
            final PrintWriter out = spec.commandLine().getOut();
            final PrintWriter err = spec.commandLine().getErr();
            if (submitUrl == null)
            {
                if (delivers())
                {
                    if (deliveryKeyFile == null)
                    {
                        err.println("a secp256k1 agent's credential is sealed to the body's delivery key: give " +
                            "--delivery-key-file to keep its private half (then 'venue agent open'), or --submit");
                        err.flush();
                        return 2;
                    }
                    KeyFiles.writePrivate(deliveryKeyFile, Hex.to0x(requester.privateKey()) + "\n");
                }
                out.println(request[1]);
                out.flush();
                return 0;
            }
            final StringWriter answer = new StringWriter();
            final PrintWriter buffered = new PrintWriter(answer);
            final boolean ok = Submit.accepted(Submit.send(submitUrl, request[0],
                request[1].getBytes(StandardCharsets.UTF_8), Map.of(), buffered, err));
            buffered.flush();
            out.print(delivers() ? Open.opened(answer.toString(), requester) : answer.toString());
            out.flush();
            return ok ? 0 : 1;
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
        boolean delivers()
        {
            return !agentKey(agent).isEd25519();
        }

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
                .agent(agentKey(agent)).kind(agentKind).scopes(set).policy(policy)
                .deliveryKey(delivers() ? requester.keyText() : null).nonce(intentNonce)
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
        boolean delivers()
        {
            return !agentKey(newAgent).isEd25519();
        }

        @Override
        String[] request(final Secp256k1KeyPair key, final long intentNonce, final long issuedAtMs)
        {
            final AgentRotationText text = AgentRotationText.builder().owner(key.address()).agentId(agentId)
                .newAgent(agentKey(newAgent)).deliveryKey(delivers() ? requester.keyText() : null).nonce(intentNonce)
                .issuedAtMs(issuedAtMs).chainId(deployment.chainId)
                .verifyingContract(deployment.contractAddress()).build();
            return new String[]{"/api/agents/" + agentId + "/rotate", new JsonWriter()
                .field("userWalletAddress", key.address().toString()).field("newAgent", text.newAgent().text())
                .field("deliveryKey", text.deliveryKey()).unsigned("nonce", intentNonce).field("issuedAtMs", issuedAtMs)
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

    @Command(name = "open", mixinStandardHelpOptions = true,
        description = "Open the sealed credential of a create or rotate answer with the delivery key kept by " +
            "--delivery-key-file; prints the answer with apiSecret and apiPassphrase in place of sealedCredential.")
    static final class Open implements Callable<Integer>
    {
        private static final Pattern SEALED = Pattern.compile("\"sealedCredential\":\"(0x[0-9a-f]+)\"");
        private static final Pattern KEY_ID = Pattern.compile("\"apiKeyId\":\"(spk_[0-9a-f]{16})\"");

        @Spec
        CommandSpec spec;

        @Option(names = "--delivery-key-file", required = true, paramLabel = "FILE",
            description = "The file 'agent create/rotate --delivery-key-file' wrote.")
        Path deliveryKeyFile;

        @Option(names = "--answer-file", required = true, paramLabel = "FILE",
            description = "The appliance's JSON answer to the create or rotate.")
        Path answerFile;

        @Override
        public Integer call() throws IOException
        {
            final CredentialDelivery.Requester requester =
                new CredentialDelivery.Requester(Hex.fromHex(KeyFiles.readPrivate(deliveryKeyFile)));
            final String answer = Files.readString(answerFile, StandardCharsets.UTF_8);
            if (!SEALED.matcher(answer).find())
            {
                spec.commandLine().getErr().println("the answer holds no sealedCredential");
                spec.commandLine().getErr().flush();
                return 1;
            }
            spec.commandLine().getOut().print(opened(answer, requester));
            spec.commandLine().getOut().flush();
            return 0;
        }

        /** {@code answer} with its sealed credential opened in place; unchanged when it holds none. */
        static String opened(final String answer, final CredentialDelivery.Requester requester)
        {
            final Matcher sealed = SEALED.matcher(answer);
            final Matcher keyId = KEY_ID.matcher(answer);
            if (!sealed.find() || !keyId.find())
            {
                return answer;
            }
            final CredentialDelivery.Opened credential = requester.open(sealed.group(1), keyId.group(1));
            return answer.substring(0, sealed.start()) + new JsonWriter().field("apiSecret", credential.apiSecret())
                .field("apiPassphrase", credential.apiPassphrase()).toJson().replaceAll("^\\{|\\}$", "") +
                answer.substring(sealed.end());
        }
    }
}
