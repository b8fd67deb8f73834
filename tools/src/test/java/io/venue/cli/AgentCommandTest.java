package io.venue.cli;

import io.venue.appliance.Appliance;
import io.venue.appliance.ApplianceContext;
import io.venue.appliance.KeyFiles;
import io.venue.auth.CredentialDelivery;
import io.venue.codec.Hex;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.transport.http.OwnerIntents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent and token commands against a real appliance on loopback: the demo account's wallet creates an agent,
 * the agent's HMAC credential and the wallet itself obtain tokens, a rotation gives a new credential, and an
 * owner-revoke ends the agent, its credentials and the token it obtained.
 */
class AgentCommandTest
{
    @TempDir
    Path folder;

    private Appliance appliance;
    private String ownerKey;

    @BeforeEach
    void start() throws Exception
    {
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1"),
            new PrintStream(OutputStream.nullOutputStream()));
        ownerKey = appliance.demoAccountKeyFile().toString();
    }

    @AfterEach
    void stop()
    {
        appliance.close();
    }

    private int executions(final String token) throws Exception
    {
        final String account = Secp256k1KeyPair.fromPrivateKey(Hex.fromHex(
            Files.readString(Path.of(ownerKey)).trim())).address().toString();
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
            appliance.baseUrl() + "/api/v1/bsl/accounts/" + account + "/executions"))
            .header("Authorization", "Bearer " + token)
            .build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    @Test
    void mobileAgentsDefaultToTheirShorterCap()
    {
        final CliRun printed = CliRun.of("agent", "create", "--key-file", ownerKey, "--nonce", "0", "--kind", "mobile",
            "--agent", Secp256k1KeyPair.generate(new SecureRandom()).address().toString(), "--scopes", "read",
            "--delivery-key-file", folder.resolve("delivery.key").toString());
        assertEquals(0, printed.exitCode(), printed.err());
        final long issued = Long.parseLong(printed.out().replaceAll(".*\"issuedAtMs\":(\\d+).*\\s*", "$1"));
        assertTrue(printed.out().contains("\"expiresAtMs\":" + (issued + 24 * 3_600_000L)), printed.out());
    }

    @Test
    void aPrintedCreateBodyDeliversItsSecretOnlyToTheKeptDeliveryKey() throws Exception
    {
        final String agent = Secp256k1KeyPair.generate(new SecureRandom()).address().toString();
        final CliRun unkept = CliRun.of("agent", "create", "--key-file", ownerKey, "--nonce", "0", "--agent", agent,
            "--scopes", "read");
        assertEquals(2, unkept.exitCode(), "a secret no one could open is not asked for: " + unkept.out());
        assertTrue(unkept.err().contains("--delivery-key-file"), unkept.err());

        final Path deliveryKey = folder.resolve("delivery.key");
        final CliRun printed = CliRun.of("agent", "create", "--key-file", ownerKey, "--nonce", "0", "--agent", agent,
            "--scopes", "read", "--delivery-key-file", deliveryKey.toString());
        assertEquals(0, printed.exitCode(), printed.err());
        assertTrue(printed.out().contains("\"deliveryKey\":\"x25519:"), printed.out());
        // whoever sends the body is answered the credential sealed: no secret in the answer
        final String answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
            appliance.baseUrl() + "/api/agents/create")).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(printed.out().trim())).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(answer.startsWith("{\"ok\":true") && answer.contains("\"sealedCredential\":\"0x"), answer);
        assertFalse(answer.contains("sps_") || answer.contains("spp_"), answer);
        final Path answerFile = folder.resolve("answer.json");
        Files.writeString(answerFile, answer);

        final CliRun stranger = CliRun.of("agent", "open", "--delivery-key-file", writeOtherKey(),
            "--answer-file", answerFile.toString());
        assertTrue(stranger.exitCode() != 0, "another delivery key does not open it: " + stranger.out());
        final CliRun opened = CliRun.of("agent", "open", "--delivery-key-file", deliveryKey.toString(),
            "--answer-file", answerFile.toString());
        assertEquals(0, opened.exitCode(), opened.err());
        final CliRun token = CliRun.of("token", "--url", appliance.baseUrl(), "--key-id", opened.outField("apiKeyId"),
            "--secret", opened.outField("apiSecret"), "--passphrase", opened.outField("apiPassphrase"),
            "--svc-nonce", "1");
        assertEquals(0, token.exitCode(), token.err() + token.out());
    }

    /** A delivery key file of a key that requested nothing. */
    private String writeOtherKey() throws Exception
    {
        final Path other = folder.resolve("other.key");
        KeyFiles.writePrivate(other, Hex.to0x(new CredentialDelivery.Requester(new SecureRandom()).privateKey()));
        return other.toString();
    }

    @Test
    void createObtainTokensRotateAndRevoke() throws Exception
    {
        final String agent = Secp256k1KeyPair.generate(new SecureRandom()).address().toString();
        final CliRun created = CliRun.of("agent", "create", "--key-file", ownerKey, "--nonce", "0", "--agent", agent,
            "--scopes", "trade,read", "--days", "7", "--submit", appliance.baseUrl());
        assertEquals(0, created.exitCode(), created.err() + created.out());
        final String keyId = created.outField("apiKeyId");
        assertTrue(keyId.startsWith("spk_"), created.out());

        final CliRun machine = CliRun.of("token", "--url", appliance.baseUrl(), "--key-id", keyId, "--secret",
            created.outField("apiSecret"), "--passphrase", created.outField("apiPassphrase"), "--svc-nonce", "1");
        assertEquals(0, machine.exitCode(), machine.err() + machine.out());
        assertTrue(machine.outField("token").startsWith("spws1."), machine.out());
        final CliRun replayed = CliRun.of("token", "--url", appliance.baseUrl(), "--key-id", keyId, "--secret",
            created.outField("apiSecret"), "--passphrase", created.outField("apiPassphrase"), "--svc-nonce", "1");
        assertEquals(1, replayed.exitCode());
        assertTrue(replayed.err().contains("HTTP 409"), replayed.err());

        Thread.sleep(OwnerIntents.TOKEN_TEXT_FUTURE_MS + 100); // token texts are taken from then on
        final CliRun wallet = CliRun.of("token", "--url", appliance.baseUrl(), "--key-file", ownerKey, "--nonce", "77",
            "--ttl-ms", "90000");
        assertEquals(0, wallet.exitCode(), wallet.err() + wallet.out());
        assertTrue(wallet.out().contains("\"ttlMs\":90000"), wallet.out());

        final String newAgent = Secp256k1KeyPair.generate(new SecureRandom()).address().toString();
        final CliRun rotated = CliRun.of("agent", "rotate", "--key-file", ownerKey, "--nonce", "1", "--agent-id", keyId,
            "--new-agent", newAgent, "--submit", appliance.baseUrl());
        assertEquals(0, rotated.exitCode(), rotated.err() + rotated.out());
        assertTrue(rotated.outField("apiSecret").startsWith("sps_"), rotated.out());

        final String agentToken = machine.outField("token");
        assertEquals(200, executions(agentToken));
        final CliRun revoked = CliRun.of("agent", "owner-revoke", "--key-file", ownerKey, "--nonce", "2", "--submit",
            appliance.baseUrl());
        assertEquals(0, revoked.exitCode(), revoked.err() + revoked.out());
        assertEquals(401, executions(agentToken), "the token the agent's credential obtained ends with it");
        final CliRun after = CliRun.of("token", "--url", appliance.baseUrl(), "--key-id", keyId, "--secret",
            created.outField("apiSecret"), "--passphrase", created.outField("apiPassphrase"), "--svc-nonce", "2");
        assertEquals(1, after.exitCode());
        assertTrue(after.out().contains("UNAUTHENTICATED"), after.out());

        // without --submit the body is printed for another tool to send
        final CliRun printed = CliRun.of("agent", "revoke", "--key-file", ownerKey, "--nonce", "3",
            "--agent-id", keyId);
        assertEquals(0, printed.exitCode(), printed.err());
        assertTrue(printed.out().startsWith("{\"userWalletAddress\":"), printed.out());
    }
}
