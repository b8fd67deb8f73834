package io.venue.appliance;

import io.venue.auth.WsTokenText;
import io.venue.codec.Hex;
import io.venue.codec.JsonWriter;
import io.venue.crypto.Eip191;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.transport.http.OwnerIntents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.venue.appliance.ApplianceContext.DEMO_CHAIN_ID;
import static io.venue.appliance.ApplianceContext.DEMO_CONTRACT;
import static io.venue.appliance.VenueHttp.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The private executions reads of a running appliance under one account's flood: two new wallets obtain tokens by
 * signing; one sends hundreds of reads at once while the other reads one page at a time. The flooding account gets
 * 429 {@code rate_limited} with Retry-After; the other's every read is answered 200.
 */
class PrivateReadsTest
{
    private static final int FLOOD = 400;

    @TempDir
    Path folder;

    private Appliance appliance;

    @AfterEach
    void stop()
    {
        if (appliance != null)
        {
            appliance.close();
        }
    }

    @Test
    void oneAccountsFloodOfReadsIsRefused429AndDoesNotKeepAnothersReadsFromBeingAnswered() throws Exception
    {
        // every client here is on 127.0.0.1, exempt from the per-address limits: this is the per-account throttle
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1"),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        final VenueHttp http = new VenueHttp(appliance.baseUrl());
        Thread.sleep(OwnerIntents.TOKEN_TEXT_FUTURE_MS + 100); // texts are taken from a second after the lane started
        final Secp256k1KeyPair flooder = Secp256k1KeyPair.generate(new SecureRandom());
        final Secp256k1KeyPair reader = Secp256k1KeyPair.generate(new SecureRandom());
        final String flooderToken = token(http, flooder);
        final String readerToken = token(http, reader);

        final HttpClient floodClient = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        final List<CompletableFuture<HttpResponse<String>>> flood = new ArrayList<>();
        for (int i = 0; i < FLOOD; i++)
        {
            flood.add(floodClient.sendAsync(executions(flooder, flooderToken), HttpResponse.BodyHandlers.ofString()));
        }
        final List<Integer> readerStatuses = new ArrayList<>();
        for (int i = 0; i < 10; i++)
        {
            final HttpResponse<String> page = http.client.send(executions(reader, readerToken),
                HttpResponse.BodyHandlers.ofString());
            readerStatuses.add(page.statusCode());
            assertEquals(200, page.statusCode(), "the other account's read " + i + ": " + page.body());
            assertTrue(page.body().contains("\"executions\":[]"), page.body());
            // within its own rate: five a second
            Thread.sleep(250);
        }
        int limited = 0;
        int answered = 0;
        for (final CompletableFuture<HttpResponse<String>> sent : flood)
        {
            final HttpResponse<String> answer = sent.get();
            if (answer.statusCode() == 429)
            {
                limited++;
                assertEquals("rate_limited", field(answer.body(), "code"), answer.body());
                assertTrue(answer.headers().firstValue("retry-after").isPresent(), answer.headers().toString());
            }
            else
            {
                assertEquals(200, answer.statusCode(), answer.body());
                answered++;
            }
        }
        assertTrue(answered >= 1 && answered <= 20, answered + " of the flood answered (a burst of 10 and 5 a second)");
        assertEquals(FLOOD - answered, limited);
        assertEquals(10, readerStatuses.size());
    }

    private HttpRequest executions(final Secp256k1KeyPair wallet, final String token)
    {
        return HttpRequest.newBuilder(URI.create(appliance.baseUrl() + "/api/v1/bsl/accounts/" + wallet.address() +
            "/executions")).timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token).GET().build();
    }

    /** A bearer token for the wallet's own account, by its signature (no agent, no funds). */
    static String token(final VenueHttp http, final Secp256k1KeyPair wallet) throws Exception
    {
        final long now = System.currentTimeMillis();
        final WsTokenText text = WsTokenText.builder().owner(wallet.address()).nonce(1).issuedAtMs(now)
            .chainId(DEMO_CHAIN_ID).verifyingContract(DEMO_CONTRACT).build();
        final String signature = Hex.to0x(new Secp256k1Signer(wallet).sign(Eip191.personalHash(text.text()),
            PreimageMode.RAW));
        final HttpResponse<String> issued = http.post("/api/v1/ws/token", new JsonWriter()
            .field("account", wallet.address().toString()).field("nonce", 1).field("issuedAtMs", now)
            .field("signature", signature).toJson().getBytes(StandardCharsets.UTF_8));
        assertEquals(200, issued.statusCode(), issued.body());
        return field(issued.body(), "token");
    }
}
