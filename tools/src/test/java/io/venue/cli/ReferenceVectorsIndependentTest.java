package io.venue.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.venue.action.json.CanonicalJson;
import io.venue.action.json.ParseResult;
import io.venue.action.json.SignedActionParser;
import io.venue.codec.Hex;
import org.bouncycastle.crypto.digests.Blake3Digest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;
import org.web3j.crypto.StructuredDataEncoder;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks the published vector files with implementations that are not ours: BouncyCastle's Blake3Digest,
 * web3j for secp256k1, EIP-191 and EIP-712, the JDK for SHA-256, HMAC-SHA256 and Ed25519.
 */
class ReferenceVectorsIndependentTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DIR = Path.of(System.getProperty("venue.vectors.dir"));

    private static JsonNode vector(final String file) throws Exception
    {
        return JSON.readTree(Files.readString(DIR.resolve(file)));
    }

    private static byte[] hex(final JsonNode node)
    {
        return Hex.fromHex(node.asText());
    }

    private static ECKeyPair key(final JsonNode vector)
    {
        return ECKeyPair.create(new BigInteger(1, hex(vector.get("privateKey"))));
    }

    private static Sign.SignatureData signatureData(final byte[] signature)
    {
        return new Sign.SignatureData(signature[64], Arrays.copyOfRange(signature, 0, 32),
            Arrays.copyOfRange(signature, 32, 64));
    }

    private static byte[] bytes(final Sign.SignatureData data)
    {
        return ByteBuffer.allocate(65).put(data.getR()).put(data.getS()).put(data.getV()).array();
    }

    @ParameterizedTest
    @ValueSource(strings = {"spot-post-only-bid.json", "cancel.json", "outcome-yes-ask.json"})
    void actionVectorsAgreeWithBlake3AndWeb3j(final String file) throws Exception
    {
        final JsonNode vector = vector(file);
        final ECKeyPair key = key(vector);
        assertEquals(vector.get("signer").asText(), "0x" + Keys.getAddress(key));

        final byte[] json = vector.get("canonicalJson").asText().getBytes(StandardCharsets.US_ASCII);
        final byte[] preimage = ByteBuffer.allocate(28 + json.length).putLong(vector.get("chainId").asLong())
            .put(hex(vector.get("verifyingContract"))).put(json).array();
        assertArrayEquals(preimage, hex(vector.get("preimageHex")));

        final byte[] digest = blake3(concat("SERVICE/ACTION_PAYLOAD/v2".getBytes(StandardCharsets.US_ASCII), preimage));
        assertArrayEquals(digest, hex(vector.get("digestV2")));
        assertArrayEquals(blake3(concat("SERVICE/ACTION_PAYLOAD/v1".getBytes(StandardCharsets.US_ASCII), json)),
            hex(vector.get("digestV1")));

        // RFC 6979 with low s on both sides: web3j's signatures are the same bytes
        assertArrayEquals(bytes(Sign.signMessage(digest, key, false)), hex(vector.get("raw").get("signatureHex")));
        assertArrayEquals(bytes(Sign.signPrefixedMessage(digest, key)),
            hex(vector.get("personal").get("signatureHex")));
        assertArrayEquals(Sign.getEthereumMessageHash(digest), hex(vector.get("personal").get("signedHash")));
        final BigInteger recovered = Sign.signedMessageHashToKey(digest,
            signatureData(hex(vector.get("raw").get("signatureHex"))));
        assertEquals(vector.get("signer").asText(), "0x" + Keys.getAddress(recovered));

        // the body a client sends parses back to the canonical JSON
        for (final String mode : new String[]{"raw", "personal"})
        {
            final ParseResult parsed = new SignedActionParser()
                .parse(JSON.writeValueAsBytes(vector.get(mode).get("body")));
            assertTrue(parsed.isOk(), parsed::toString);
            assertArrayEquals(json, CanonicalJson.toBytes(parsed.payload()));
        }
    }

    @Test
    void eip712OrderAgreesWithWeb3jStructuredData() throws Exception
    {
        final JsonNode vector = vector("eip712-order.json");
        final JsonNode order = vector.get("order");
        final JsonNode domain = vector.get("domain");
        final String typedData = "{\"types\":{\"EIP712Domain\":[" +
            "{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"version\",\"type\":\"string\"}," +
            "{\"name\":\"chainId\",\"type\":\"uint256\"},{\"name\":\"verifyingContract\",\"type\":\"address\"}]," +
            "\"Order\":[{\"name\":\"marketId\",\"type\":\"uint256\"},{\"name\":\"trader\",\"type\":\"address\"}," +
            "{\"name\":\"side\",\"type\":\"uint8\"}," +
            "{\"name\":\"price\",\"type\":\"uint256\"},{\"name\":\"qty\",\"type\":\"uint256\"},{\"name\":\"expiry\"," +
            "\"type\":\"uint64\"}," +
            "{\"name\":\"nonce\",\"type\":\"uint64\"}]},\"primaryType\":\"Order\",\"domain\":" + domain +
            ",\"message\":" + order + "}";
        final StructuredDataEncoder encoder = new StructuredDataEncoder(typedData);
        final byte[] digest = encoder.hashStructuredData();
        assertArrayEquals(digest, hex(vector.get("digest")));
        assertArrayEquals(encoder.hashDomain(), hex(vector.get("domainSeparator")));
        assertArrayEquals(bytes(Sign.signMessage(digest, key(vector), false)), hex(vector.get("signatureHex")));
    }

    @Test
    void cancelByIdTextAgreesWithWeb3jPersonalSign() throws Exception
    {
        final JsonNode vector = vector("cancel-by-id.json");
        final byte[] text = vector.get("text").asText().getBytes(StandardCharsets.UTF_8);
        assertTrue(vector.get("text").asText().startsWith("Service CancelById\norderId:0x"));
        assertArrayEquals(Sign.getEthereumMessageHash(text), hex(vector.get("eip191Hash")));
        assertArrayEquals(bytes(Sign.signPrefixedMessage(text, key(vector))), hex(vector.get("signatureHex")));
        assertEquals(vector.get("signer").asText(), Credentials.create(key(vector)).getAddress());
    }

    @Test
    void svcHmacAgreesWithTheJdk() throws Exception
    {
        final JsonNode vector = vector("svc-hmac.json");
        assertEquals(expectedSignedString(vector, "SERVICE-HMAC-V2"), vector.get("signedString").asText());
        final Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(vector.get("apiSecret").asText().getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        final byte[] expected = mac.doFinal(vector.get("signedString").asText().getBytes(StandardCharsets.UTF_8));
        assertEquals(Hex.to0x(expected), vector.get("headers").get("SVC-Signature").asText());
        assertEquals(vector.get("apiPassphrase").asText(), vector.get("headers").get("SVC-Passphrase").asText());
    }

    @Test
    void svcEd25519AgreesWithTheJdk() throws Exception
    {
        final JsonNode vector = vector("svc-ed25519.json");
        assertEquals(expectedSignedString(vector, "SERVICE-ED25519-V1"), vector.get("signedString").asText());
        final byte[] x509 = concat(Hex.fromHex("302a300506032b6570032100"), hex(vector.get("ed25519PublicKey")));
        final PublicKey publicKey = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(x509));
        final Signature verifier = Signature.getInstance("Ed25519");
        verifier.initVerify(publicKey);
        verifier.update(vector.get("signedString").asText().getBytes(StandardCharsets.UTF_8));
        assertTrue(verifier.verify(hex(vector.get("headers").get("SVC-Signature"))));
        assertTrue(vector.get("headers").get("SVC-Passphrase") == null);
    }

    /** Spec 5.4, written out independently: eight lines, sorted query parts, sha256 of the body, no final newline. */
    private static String expectedSignedString(final JsonNode vector, final String versionLine) throws Exception
    {
        final JsonNode request = vector.get("request");
        final String query = String.join("&", Arrays.stream(request.get("query").asText().split("&"))
            .filter(part -> !part.isEmpty()).sorted().toList());
        final byte[] sha = MessageDigest.getInstance("SHA-256")
            .digest(request.get("body").asText().getBytes(StandardCharsets.UTF_8));
        return versionLine + "\nsvc-key:" + vector.get("apiKeyId").asText() + "\nsvc-nonce:" +
            request.get("nonce").asText() +
            "\nsvc-timestamp:" + request.get("timestampMs").asText() + "\nmethod:" + request.get("method").asText() +
            "\npath:" + request.get("path").asText() + "\nquery:" + query + "\nbody-sha256:" + Hex.toHex(sha);
    }

    private static byte[] blake3(final byte[] input)
    {
        final Blake3Digest digest = new Blake3Digest(256);
        digest.update(input, 0, input.length);
        final byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return out;
    }

    private static byte[] concat(final byte[] a, final byte[] b)
    {
        return ByteBuffer.allocate(a.length + b.length).put(a).put(b).array();
    }
}
