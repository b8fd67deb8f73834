package io.venue.cli;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Book;
import io.venue.action.Cancel;
import io.venue.action.ClientOrderId;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.codec.Hex;
import io.venue.crypto.CancelByIdText;
import io.venue.crypto.Eip191;
import io.venue.crypto.Eip712Order;
import io.venue.crypto.Keccak256;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.signing.ActionSigner;
import io.venue.svc.SvcRequestSigner;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The published reference vectors (docs/vectors): every value is computed here from fixed inputs, so a
 * signer in any language can check itself byte for byte. Deterministic: RFC 6979 and Ed25519 signatures
 * depend only on the key and the message.
 */
final class ReferenceVectors
{
    /** A fixed test key; never use it for anything real. */
    static final String TEST_PRIVATE_KEY = "0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    /** Synthetic market ids: not listed markets, never to be submitted live (spec 2.2). */
    static final long SYNTHETIC_SPOT_MARKET = 4_294_967_000L;
    static final long SYNTHETIC_OUTCOME_MARKET = 4_294_967_001L;
    static final long TS = 1_763_000_000_000L;
    static final String TEST_API_KEY = "spk_0123456789abcdef";
    static final String TEST_API_SECRET = "sps_" + "0123456789abcdef".repeat(4);
    static final String TEST_API_PASSPHRASE = "spp_" + "fedcba9876543210".repeat(2);
    static final String TEST_ED25519_SEED = "0x" + "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";

    private final long chainId = DeploymentOptions.TEST_CHAIN_ID;
    private final Address contract = Address.of(DeploymentOptions.TEST_CONTRACT);
    private final Secp256k1KeyPair key = Secp256k1KeyPair.fromPrivateKey(Hex.fromHex(TEST_PRIVATE_KEY));
    private final ActionSigner signer = new ActionSigner(chainId, contract, key);

    /** File name to file content, in a stable order. */
    Map<String, String> files()
    {
        final Map<String, String> files = new LinkedHashMap<>();
        final ActionPayload bid = new ActionPayload(key.address(), 1, null, TS,
            new SpotPlaceOrder(SYNTHETIC_SPOT_MARKET, null, Side.BID, 1_500_000, 2_000_000, null, TimeInForce.POST_ONLY,
                false, false, SpotPlaceOrder.NO_EXPIRY));
        final byte[] bidOrderId = signer.digestV2(bid);
        files.put("spot-post-only-bid.json", PrettyJson.write(action("spot-post-only-bid",
            "A post-only spot bid (spec 2.2): 2 units at 1.5 on a synthetic market.", bid, true)));

        final ActionPayload cancel = new ActionPayload(key.address(), 2, null, TS + 1,
            new Cancel(new OrderId(bidOrderId)));
        files.put("cancel.json", PrettyJson.write(action("cancel",
            "Cancels the order placed by spot-post-only-bid (its order id is that action's v2 digest).",
            cancel, false)));

        final ActionPayload outcome = new ActionPayload(key.address(), 3,
            ClientOrderId.of("0x000102030405060708090a0b0c0d0e0f"), TS + 2,
            new SpotPlaceOrder(SYNTHETIC_OUTCOME_MARKET, Book.YES, Side.ASK, 650_000, 10_000_000, StpMode.CANCEL_MAKER,
                TimeInForce.GTC, false, true, TS + 3_600_000));
        files.put("outcome-yes-ask.json", PrettyJson.write(action("outcome-yes-ask",
            "An outcome-market order on the YES book, with client_order_id, stp_mode, reduce_only and expires_at.",
            outcome, true)));

        files.put("eip712-order.json", PrettyJson.write(eip712Order()));
        files.put("cancel-by-id.json", PrettyJson.write(cancelById(new OrderId(bidOrderId))));
        files.put("svc-hmac.json", PrettyJson.write(svc("svc-hmac",
            "SVC-* headers, auth version 2 (HMAC-SHA256 keyed with the whole sps_ secret string).",
            SvcRequestSigner.hmac(TEST_API_KEY, TEST_API_SECRET, TEST_API_PASSPHRASE), null)));
        files.put("svc-ed25519.json", PrettyJson.write(svc("svc-ed25519",
            "SVC-* headers, auth version 3 (Ed25519 over the same string; no passphrase).",
            SvcRequestSigner.ed25519(TEST_API_KEY, Hex.fromHex(TEST_ED25519_SEED)), TEST_ED25519_SEED)));
        return files;
    }

    private Map<String, Object> action(final String name, final String description, final ActionPayload payload,
        final boolean places)
    {
        final byte[] json = CanonicalJson.toBytes(payload);
        final byte[] digest = signer.digestV2(payload);
        final Map<String, Object> vector = header(name, description);
        vector.put("signer", key.address().toString());
        vector.put("canonicalJson", new String(json, StandardCharsets.US_ASCII));
        vector.put("domain", "SERVICE/ACTION_PAYLOAD/v2");
        vector.put("preimageHex", Hex.to0x(ByteBuffer.allocate(28 + json.length)
            .putLong(chainId).put(contract.toBytes()).put(json).array()));
        vector.put("digestV2", Hex.to0x(digest));
        vector.put("digestV1", Hex.to0x(signer.digestV1(payload)));
        if (places)
        {
            vector.put("orderId", Hex.to0x(digest));
        }
        vector.put("raw", signature(payload, PreimageMode.RAW, digest));
        vector.put("personal", signature(payload, PreimageMode.PERSONAL, digest));
        return vector;
    }

    private Map<String, Object> signature(final ActionPayload payload, final PreimageMode mode, final byte[] digest)
    {
        final SignedAction signed = signer.sign(payload, mode);
        final byte[] signature = signed.signature().toBytes();
        final Map<String, Object> entry = PrettyJson.object();
        final byte[] signedHash = new byte[32];
        mode.signedDigest(new Keccak256(), digest, 0, signedHash, 0);
        entry.put("signedHash", Hex.to0x(signedHash));
        entry.put("signatureHex", Hex.to0x(signature));
        entry.put("body",
            new PrettyJson.Raw(new String(CanonicalJson.signedActionBody(signed), StandardCharsets.US_ASCII)));
        return entry;
    }

    private Map<String, Object> eip712Order()
    {
        final Eip712Order eip712 = new Eip712Order(chainId, contract);
        final Map<String, Object> vector = header("eip712-order",
            "EIP-712 typed Order (spec 5.3): the place leg of MM cancel-replace. Side code 2 = (NO, Bid); expiry in " +
            "seconds.");
        final Map<String, Object> order = PrettyJson.object();
        final long marketId = SYNTHETIC_OUTCOME_MARKET;
        final int side = Eip712Order.sideCode(Side.BID, Book.NO);
        final long price = 350_000;
        final long qty = 5_000_000;
        final long expiry = TS / 1000 + 3600;
        final long nonce = 4;
        order.put("marketId", marketId);
        order.put("trader", key.address().toString());
        order.put("side", side);
        order.put("price", price);
        order.put("qty", qty);
        order.put("expiry", expiry);
        order.put("nonce", nonce);
        vector.put("signer", key.address().toString());
        vector.put("domainType", Eip712Order.DOMAIN_TYPE);
        vector.put("orderType", Eip712Order.ORDER_TYPE);
        final Map<String, Object> domain = PrettyJson.object();
        domain.put("name", Eip712Order.DOMAIN_NAME);
        domain.put("version", Eip712Order.DOMAIN_VERSION);
        domain.put("chainId", chainId);
        domain.put("verifyingContract", contract.toString());
        vector.put("domain", domain);
        vector.put("order", order);
        vector.put("domainSeparator", Hex.to0x(eip712.domainSeparator()));
        final byte[] digest = new byte[32];
        eip712.hash(marketId, key.address(), side, price, qty, expiry, nonce, digest, 0);
        vector.put("digest", Hex.to0x(digest));
        vector.put("signatureHex", Hex.to0x(new Secp256k1Signer(key).sign(digest, PreimageMode.RAW)));
        return vector;
    }

    private Map<String, Object> cancelById(final OrderId orderId)
    {
        final Map<String, Object> vector = header("cancel-by-id",
            "EIP-191 personal_sign over the CancelById text (spec 5.3): the cancel leg of MM cancel-replace.");
        final String text = CancelByIdText.text(orderId, key.address());
        vector.put("signer", key.address().toString());
        vector.put("text", text);
        vector.put("textHex", Hex.to0x(text.getBytes(StandardCharsets.UTF_8)));
        final byte[] hash = Eip191.personalHash(text);
        vector.put("eip191Hash", Hex.to0x(hash));
        vector.put("signatureHex", Hex.to0x(new Secp256k1Signer(key).sign(hash, PreimageMode.RAW)));
        return vector;
    }

    private Map<String, Object> svc(final String name, final String description, final SvcRequestSigner signer,
        final String ed25519Seed)
    {
        final String method = "POST";
        final String path = "/api/v1/ws/token";
        final String rawQuery = "ttl=180&&account=" + key.address();
        final byte[] body = "{\"scope\":\"private_ws:read\"}".getBytes(StandardCharsets.UTF_8);
        final long nonce = -2L; // 18446744073709551614, the largest usable SVC-Nonce
        final Map<String, String> headers = signer.sign(nonce, TS, method, path, rawQuery, body);

        final Map<String, Object> vector = PrettyJson.object();
        vector.put("name", name);
        vector.put("description", description);
        vector.put("apiKeyId", TEST_API_KEY);
        if (ed25519Seed == null)
        {
            vector.put("apiSecret", TEST_API_SECRET);
            vector.put("apiPassphrase", TEST_API_PASSPHRASE);
        }
        else
        {
            vector.put("ed25519PrivateKey", ed25519Seed);
            vector.put("ed25519PublicKey", Hex.to0x(
                new Ed25519PrivateKeyParameters(Hex.fromHex(ed25519Seed)).generatePublicKey().getEncoded()));
        }
        final Map<String, Object> request = PrettyJson.object();
        request.put("method", method);
        request.put("path", path);
        request.put("query", rawQuery);
        request.put("body", new String(body, StandardCharsets.UTF_8));
        request.put("nonce", Long.toUnsignedString(nonce));
        request.put("timestampMs", TS);
        vector.put("request", request);
        vector.put("signedString", signer.lastSignedString());
        final Map<String, Object> headerMap = PrettyJson.object();
        headerMap.putAll(headers);
        vector.put("headers", headerMap);
        return vector;
    }

    private Map<String, Object> header(final String name, final String description)
    {
        final Map<String, Object> vector = PrettyJson.object();
        vector.put("name", name);
        vector.put("description", description);
        vector.put("chainId", chainId);
        vector.put("verifyingContract", contract.toString());
        vector.put("privateKey", TEST_PRIVATE_KEY);
        return vector;
    }
}
