package io.venue.appliance;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.json.CanonicalJson;
import io.venue.codec.Hex;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.signing.ActionSigner;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** A client of the appliance's HTTP lane for tests: Java's HttpClient, real signatures. */
final class VenueHttp
{
    final String baseUrl;
    final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    VenueHttp(final String baseUrl)
    {
        this.baseUrl = baseUrl;
    }

    static Secp256k1KeyPair key(final Path file) throws IOException
    {
        return Secp256k1KeyPair.fromPrivateKey(Hex.fromHex(Files.readString(file, StandardCharsets.US_ASCII).trim()));
    }

    /** The signed body of {@code action} for {@code account}, signed by {@code signer}. */
    static byte[] body(final Secp256k1KeyPair signer, final io.venue.action.Address account, final long nonce, final Action action,
        final PreimageMode mode)
    {
        final ActionSigner s = new ActionSigner(ApplianceContext.DEMO_CHAIN_ID, ApplianceContext.DEMO_CONTRACT, signer);
        return CanonicalJson.signedActionBody(s.sign(new ActionPayload(account, nonce, null, System.currentTimeMillis(), action), mode));
    }

    HttpResponse<String> submit(final Secp256k1KeyPair key, final long nonce, final Action action) throws Exception
    {
        return post("/api/v1/trading/actions", body(key, key.address(), nonce, action, PreimageMode.RAW));
    }

    /** Operator actions are signed in EIP-191 personal mode (DESIGN.md section 6). */
    HttpResponse<String> operator(final Secp256k1KeyPair key, final long nonce, final Action action) throws Exception
    {
        return post("/api/v1/trading/actions", body(key, key.address(), nonce, action, PreimageMode.PERSONAL));
    }

    HttpResponse<String> post(final String path, final byte[] body) throws Exception
    {
        return client.send(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(final String path) throws Exception
    {
        return client.send(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    }

    /** The value of a top-level string or number field, by text search (bodies are flat JSON we wrote). */
    static String field(final String json, final String name)
    {
        final String key = "\"" + name + "\":";
        final int at = json.indexOf(key);
        if (at < 0)
        {
            return null;
        }
        int start = at + key.length();
        if (json.charAt(start) == '"')
        {
            return json.substring(start + 1, json.indexOf('"', start + 1));
        }
        int end = start;
        while (end < json.length() && ",}]".indexOf(json.charAt(end)) < 0)
        {
            end++;
        }
        return json.substring(start, end);
    }
}
