package io.venue.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.json.ParseResult;
import io.venue.action.json.SignedActionParser;
import io.venue.codec.Hex;
import io.venue.crypto.Secp256k1KeyPair;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command-line tool as a user drives it: keygen, sign, verify, svc-sign, vectors.
 */
class VenueCliTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void keygenWritesAKeyWhoseAddressItPrints() throws Exception
    {
        final Path keyFile = dir.resolve("key.hex");
        final CliRun run = CliRun.of("keygen", "--out", keyFile.toString());
        assertEquals(0, run.exitCode(), run.err());
        final JsonNode printed = JSON.readTree(run.out());
        final Secp256k1KeyPair key = Secp256k1KeyPair.fromPrivateKey(Hex.fromHex(Files.readString(keyFile).trim()));
        assertEquals(key.address().toString(), printed.get("address").asText());
        assertEquals(printed.get("privateKey").asText(), Files.readString(keyFile).trim());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile)));
    }

    @Test
    void signedPlaceVerifiesAsTheAccountWithTheDigestAsOrderId() throws Exception
    {
        final Path keyFile = dir.resolve("key.hex");
        CliRun.of("keygen", "--out", keyFile.toString());
        final CliRun signed = CliRun.of("sign", "place", "--key-file", keyFile.toString(), "--nonce", "5", "--ts",
            "1763000000000", "--market", "7", "--side", "Bid", "--price", "1500000", "--qty", "2000000", "--tif",
            "post_only", "--mode", "personal");
        assertEquals(0, signed.exitCode(), signed.err());
        final ParseResult parsed = new SignedActionParser()
            .parse(signed.out().trim().getBytes(StandardCharsets.US_ASCII));
        assertTrue(parsed.isOk(), parsed::toString);
        assertEquals(7, ((SpotPlaceOrder)parsed.payload().action()).market());

        final Path body = dir.resolve("body.json");
        Files.writeString(body, signed.out());
        final CliRun verified = CliRun.of("verify", body.toString());
        assertEquals(0, verified.exitCode(), verified.out() + verified.err());
        final JsonNode result = JSON.readTree(verified.out());
        assertEquals("VERIFIED", result.get("outcome").asText());
        assertEquals("ACCOUNT_PERSONAL", result.get("signerMatch").asText());
        assertTrue(signed.err().contains("order id " + result.get("digest").asText()), signed.err());
    }

    @Test
    void verifyUnderAnotherChainRecoversSomeoneElse() throws Exception
    {
        final Path keyFile = dir.resolve("key.hex");
        CliRun.of("keygen", "--out", keyFile.toString());
        final CliRun signed = CliRun.of("sign", "cancel-all", "--key-file", keyFile.toString(), "--nonce", "1");
        final Path body = dir.resolve("body.json");
        Files.writeString(body, signed.out());
        final JsonNode result = JSON.readTree(CliRun.of("verify", "--chain-id", "42161", body.toString()).out());
        assertEquals("OTHER", result.get("signerMatch").asText(), "the digest binds the chain id");
    }

    @Test
    void malformedBodiesAndBadOptionsGiveClearErrors() throws Exception
    {
        final Path body = dir.resolve("bad.json");
        Files.writeString(body, "{\"payload\":{\"account\":\"0xABC\"}}");
        final CliRun verified = CliRun.of("verify", body.toString());
        assertEquals(1, verified.exitCode());
        final JsonNode result = JSON.readTree(verified.out());
        assertEquals("INVALID_HEX", result.get("code").asText());
        assertEquals("payload.account", result.get("field").asText());

        final CliRun badSide = CliRun.of("sign", "place", "--key", "0x" + "01".repeat(32), "--nonce", "1",
            "--market", "1", "--side", "bid", "--price", "1", "--qty", "1");
        assertEquals(2, badSide.exitCode());
        assertTrue(badSide.err().contains("'bid' is not one of Bid, Ask"), badSide.err());

        final CliRun noNonce = CliRun.of("sign", "cancel-all", "--key", "0x" + "01".repeat(32));
        assertEquals(2, noNonce.exitCode());
        assertTrue(noNonce.err().contains("--nonce is required"), noNonce.err());
    }

    @Test
    void payloadFilesCanCarryAnyVariant() throws Exception
    {
        final Path payload = dir.resolve("payload.json");
        final String account = "0x" + "ab".repeat(20);
        Files.writeString(payload,
            "{\"account\":\"" + account + "\",\"nonce\":9,\"nonce_reservation_id\":null,\"ts\":1," +
            "\"action\":{\"Batch\":{\"legs\":[{\"SpotPlaceOrder\":{\"market\":1,\"side\":\"Ask\",\"price\":2," +
            "\"qty\":3," +
            "\"stp_mode\":null,\"time_in_force\":\"gtc\",\"is_market\":false,\"reduce_only\":false," +
            "\"expires_at\":null}}," + "{\"CancelAll\":{\"market\":null}}]}}}");
        final CliRun refused = CliRun.of("sign", "payload", "--key", "0x" + "01".repeat(32), payload.toString());
        assertEquals(2, refused.exitCode());
        assertTrue(refused.err().contains("UNKNOWN_ACTION at action.Batch.legs[1].CancelAll"), refused.err());

        Files.writeString(payload, Files.readString(payload).replace(",{\"CancelAll\":{\"market\":null}}", ""));
        final CliRun signed = CliRun.of("sign", "payload", "--key", "0x" + "01".repeat(32), payload.toString());
        assertEquals(0, signed.exitCode(), signed.err());
        assertTrue(signed.err().contains("leg 0 order id 0x"), signed.err());
    }

    @Test
    void svcSignPrintsEveryHeader()
    {
        final CliRun run = CliRun.of("svc-sign", "--key-id", ReferenceVectors.TEST_API_KEY, "--secret",
            ReferenceVectors.TEST_API_SECRET,
            "--passphrase", ReferenceVectors.TEST_API_PASSPHRASE, "--path", "/api/v1/ws/token?b=2&a=1", "--nonce", "3",
            "--ts", "1763000000000", "--show-string");
        assertEquals(0, run.exitCode(), run.err());
        for (final String header : new String[]{"SVC-Auth-Version: 2", "SVC-Key: spk_0123456789abcdef", "SVC-Nonce: 3",
            "SVC-Timestamp: 1763000000000", "SVC-Passphrase: spp_", "SVC-Signature: 0x"})
        {
            assertTrue(run.out().contains(header), run.out());
        }
        assertTrue(run.err().contains("query:a=1&b=2"), run.err());
    }

    @Test
    void publishedVectorsHaveNotDrifted()
    {
        final CliRun run = CliRun.of("vectors", "--check", "--dir", System.getProperty("venue.vectors.dir"));
        assertEquals(0, run.exitCode(), run.out() + run.err());
    }
}
