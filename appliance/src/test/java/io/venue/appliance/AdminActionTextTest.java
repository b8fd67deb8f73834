package io.venue.appliance;

import io.venue.action.ActionPayload;
import io.venue.action.Deposit;
import io.venue.action.Side;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.codec.Hex;
import io.venue.crypto.Keccak256;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.sequencer.SignatureAudit;
import io.venue.signing.ActionSigner;
import io.venue.testing.JournalFolders;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.EnumMap;
import java.util.Map;

import static io.venue.appliance.ApplianceContext.DEMO_CHAIN_ID;
import static io.venue.appliance.ApplianceContext.DEMO_CONTRACT;
import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static io.venue.appliance.DemoVenue.USDC;
import static io.venue.appliance.VenueHttp.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An operator action signed the way docs/MESSAGE-TEXTS.md section 6 documents it: EIP-191 personal_sign of the text
 * "Service Admin Action", a line feed, "digest:0x" and the action's v2 digest. The text and its hash are built here
 * from that description, not by the project's classes that make them.
 */
class AdminActionTextTest
{
    private static final long PRICE = 50_000 * UNIT;
    private static final long QTY = 10_000;

    @TempDir
    Path folder;

    private Appliance appliance;
    private VenueHttp http;
    private Secp256k1KeyPair operator;

    @BeforeEach
    void start() throws Exception
    {
        open();
        operator = VenueHttp.key(appliance.operatorKeyFile());
    }

    private void open() throws Exception
    {
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1"),
            new PrintStream(OutputStream.nullOutputStream()));
        http = new VenueHttp(appliance.baseUrl());
    }

    @AfterEach
    void stop()
    {
        if (appliance != null)
        {
            appliance.close();
        }
    }

    /** The body of {@code payload} signed by {@code key} over the documented admin text of its digest. */
    private static byte[] signedOverTheText(final Secp256k1KeyPair key, final ActionPayload payload)
    {
        final byte[] digest = new ActionSigner(DEMO_CHAIN_ID, DEMO_CONTRACT, key).digestV2(payload);
        final String text = "Service Admin Action\ndigest:0x" + Hex.toHex(digest);
        final byte[] message = ("\u0019Ethereum Signed Message:\n" + text.length() + text)
            .getBytes(StandardCharsets.US_ASCII);
        final byte[] hash = new byte[32];
        new Keccak256().hash(message, 0, message.length, hash, 0);
        return CanonicalJson.signedActionBody(new SignedAction(payload, new Signature65(new Secp256k1Signer(key)
            .sign(hash))));
    }

    private static void ok(final HttpResponse<String> response)
    {
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().startsWith("{\"ok\":true"), response.body());
    }

    private static SpotPlaceOrder bid()
    {
        return new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, PRICE, QTY, null, TimeInForce.GTC, false, false, -1);
    }

    @Test
    void anOperatorActionSignedOverTheDocumentedTextFundsAnAccount() throws Exception
    {
        final Secp256k1KeyPair trader = Secp256k1KeyPair.generate(new SecureRandom());
        final HttpResponse<String> unfunded = http.submit(trader, 0, bid());
        // an account the venue never funded is refused before its nonce (journal version 7)
        assertTrue(unfunded.body().startsWith("{\"ok\":false,\"code\":\"ACCOUNT_NOT_FUNDED\""), unfunded.body());

        // the demo set-up used the operator's nonces 0 to 5
        final ActionPayload deposit = new ActionPayload(operator.address(), 6, null, System.currentTimeMillis(),
            new Deposit(trader.address(), USDC, 100_000 * UNIT));
        ok(http.post("/api/v1/admin/actions", signedOverTheText(operator, deposit)));
        ok(http.submit(trader, 1, bid()));

        // the text speaks for the operator only, and for admin actions only
        final Secp256k1KeyPair stranger = Secp256k1KeyPair.generate(new SecureRandom());
        final HttpResponse<String> forged = http.post("/api/v1/admin/actions", signedOverTheText(stranger,
            new ActionPayload(stranger.address(), 0, null, System.currentTimeMillis(),
                new Deposit(stranger.address(), USDC, UNIT))));
        assertEquals(401, forged.statusCode(), forged.body());
        assertEquals("NOT_OPERATOR", field(forged.body(), "code"), forged.body());
        final HttpResponse<String> trade = http.post("/api/v1/trading/actions", signedOverTheText(trader,
            new ActionPayload(trader.address(), 2, null, System.currentTimeMillis(), bid())));
        assertEquals(401, trade.statusCode(), trade.body());
        assertEquals("UNAUTHORIZED_SIGNER", field(trade.body(), "code"), trade.body());

        // the record replays (a restart recovers it) and its signature passes the journal's audit
        appliance.close();
        appliance = null;
        final SignatureAudit audit = new SignatureAudit(DEMO_CHAIN_ID, DEMO_CONTRACT, false);
        final Map<SignatureAudit.Verdict, Integer> verdicts = new EnumMap<>(SignatureAudit.Verdict.class);
        for (final byte[] record : JournalFolders.records(folder.resolve("journal").resolve("commands")))
        {
            final SignatureAudit.Verdict verdict = audit.check(new UnsafeBuffer(record), 0, record.length);
            assertTrue(verdict != SignatureAudit.Verdict.FAILED, audit::failure);
            verdicts.merge(verdict, 1, Integer::sum);
        }
        assertTrue(verdicts.getOrDefault(SignatureAudit.Verdict.VERIFIED, 0) >= 10, verdicts::toString);
        open();
        final HttpResponse<String> again = http.submit(trader, 1, bid());
        // its nonce 1 was used and recovered (nonce 0 never was: refused before the nonce step, ACCOUNT_NOT_FUNDED)
        assertEquals("nonce_replayed", field(again.body(), "code"), "recovered: " + again.body());
        assertEquals("2", field(again.body(), "nextUsableNonce"), "recovered: " + again.body());
        ok(http.submit(trader, 2, bid()));
    }
}
