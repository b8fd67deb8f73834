package io.venue.appliance;

import io.venue.auth.AgentKind;
import io.venue.auth.CredentialSecrets;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.svc.SvcRequestSigner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import java.util.function.Function;

import static io.venue.appliance.VenueHttp.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The credential key set over HTTP: a credential keeps the key version it was issued under while the set holds it, new
 * ones take the current (highest) version, a start whose journal holds an active credential of a version the set lacks
 * is refused unless the version is listed as retired, and the set may come from VENUE_CREDENTIALS_KEY instead of a file
 * in the data folder.
 */
class AgentKeyVersionsTest
{
    @TempDir
    Path folder;

    private final SecureRandom random = new SecureRandom();
    private final byte[] one = new byte[32];
    private final byte[] two = new byte[32];
    private Appliance appliance;
    private VenueHttp http;

    @AfterEach
    void stop()
    {
        if (appliance != null)
        {
            appliance.close();
        }
    }

    private void start(final Function<String, String> environment) throws Exception
    {
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1")
            .environment(environment), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        http = new VenueHttp(appliance.baseUrl());
    }

    private void restart(final Function<String, String> environment) throws Exception
    {
        appliance.close();
        appliance = null;
        start(environment);
    }

    private static Function<String, String> none()
    {
        return name -> null;
    }

    private Path keyFile()
    {
        return folder.resolve("keys").resolve("credentials.key");
    }

    private VenueHttp.Credential create(final long ownerNonce) throws Exception
    {
        final Secp256k1KeyPair owner = VenueHttp.key(appliance.demoAccountKeyFile());
        return http.newCredential(owner, ownerNonce, AgentKind.API, Scope.TRADE, Scope.READ);
    }

    /** POST /api/v1/ws/token with SVC-* headers from {@code signer}: what an HMAC credential authenticates. */
    private HttpResponse<String> token(final SvcRequestSigner signer, final long svcNonce) throws Exception
    {
        final HttpRequest.Builder request = HttpRequest.newBuilder(
            URI.create(appliance.baseUrl() + "/api/v1/ws/token")).POST(HttpRequest.BodyPublishers.noBody());
        signer.sign(svcNonce, System.currentTimeMillis(), "POST", "/api/v1/ws/token", null, null)
            .forEach(request::header);
        return http.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void authenticates(final HttpResponse<String> answer)
    {
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(field(answer.body(), "token").startsWith("spws1."), answer.body());
    }

    @Test
    void aVersionOneCredentialKeepsWorkingAfterVersionTwoBecomesCurrentUntilItIsRetired() throws Exception
    {
        random.nextBytes(one);
        random.nextBytes(two);
        // the single-key file of a deployment before versions: read as version 1
        KeyFiles.writePrivate(keyFile(), Hex.to0x(one) + "\n");
        start(none());
        final VenueHttp.Credential first = create(0);
        assertTrue(first.apiKeyId().startsWith("spk_01"), first.apiKeyId());
        assertEquals(new CredentialSecrets(one).apiSecret(first.apiKeyId(), 1), first.apiSecret());
        authenticates(token(first.signer(), 1));

        // rotation: version 2 added (so current), restart
        KeyFiles.writePrivate(keyFile(), "# rotated\n1:" + Hex.to0x(one) + "\n2:" + Hex.to0x(two) + "\n");
        restart(none());
        authenticates(token(first.signer(), 2));
        final VenueHttp.Credential second = create(1);
        assertTrue(second.apiKeyId().startsWith("spk_02"), second.apiKeyId());
        final CredentialSecrets both = new CredentialSecrets(Map.of(1, one, 2, two));
        assertEquals(both.apiSecret(second.apiKeyId(), 2), second.apiSecret());
        assertNotEquals(both.apiSecret(second.apiKeyId(), 1), second.apiSecret());
        authenticates(token(second.signer(), 1));

        // version 1 dropped while a credential issued under it is active: the node refuses to start
        appliance.close();
        appliance = null;
        KeyFiles.writePrivate(keyFile(), "2:" + Hex.to0x(two) + "\n");
        final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> start(none()));
        assertTrue(refused.getMessage().contains("1 active credential(s) issued under credential key version 1, " +
            "which the key set in " + keyFile() + " lacks (it holds [2])"), refused.getMessage());
        assertFalse(refused.getMessage().contains(Hex.toHex(two)), "never the key: " + refused.getMessage());

        KeyFiles.writePrivate(keyFile(), "1:" + Hex.to0x(one) + "\n2:" + Hex.to0x(two) + "\n");
        start(none());
        authenticates(token(first.signer(), 3));
        authenticates(token(second.signer(), 2));

        // retired on purpose (version 1 leaked): the node starts, and refuses that version's credentials alone
        appliance.close();
        appliance = null;
        KeyFiles.writePrivate(keyFile(), "1:retired\n2:" + Hex.to0x(two) + "\n");
        start(none());
        final HttpResponse<String> retired = token(first.signer(), 4);
        assertEquals(401, retired.statusCode(), retired.body());
        assertEquals("UNAUTHENTICATED", field(retired.body(), "code"), retired.body());
        authenticates(token(second.signer(), 3));
    }

    @Test
    void theKeySetMayComeFromTheEnvironmentAndIsThenNoFileInTheDataFolder() throws Exception
    {
        random.nextBytes(one);
        random.nextBytes(two);
        final Map<String, String> environment =
            Map.of("VENUE_CREDENTIALS_KEY", "1:" + Hex.to0x(one) + ",2:" + Hex.to0x(two));
        start(environment::get);
        final VenueHttp.Credential credential = create(0);
        assertTrue(credential.apiKeyId().startsWith("spk_02"), credential.apiKeyId());
        assertEquals(new CredentialSecrets(Map.of(1, one, 2, two)).apiSecret(credential.apiKeyId(), 2),
            credential.apiSecret());
        authenticates(token(credential.signer(), 1));
        assertFalse(Files.exists(keyFile()), "the key set from the environment is not written anywhere");

        // without the variable (and no file) the node does not make a key that would break the credential
        appliance.close();
        appliance = null;
        final IllegalStateException refused = assertThrows(IllegalStateException.class, () -> start(none()));
        assertTrue(refused.getMessage().contains("no credential key at " + keyFile()), refused.getMessage());

        start(environment::get);
        authenticates(token(credential.signer(), 2));
    }
}
