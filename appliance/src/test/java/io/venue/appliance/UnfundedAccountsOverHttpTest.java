package io.venue.appliance;

import io.venue.action.Deposit;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

import static io.venue.appliance.DemoVenue.SPOT_MARKET;
import static io.venue.appliance.DemoVenue.UNIT;
import static io.venue.appliance.DemoVenue.USDC;
import static io.venue.appliance.VenueHttp.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23 over HTTP: more fresh keys than the venue has account capacity each send a signed place; each is answered
 * 200 {@code ACCOUNT_NOT_FUNDED} with no nonce window made, and the operator can still fund new accounts, which trade.
 */
class UnfundedAccountsOverHttpTest
{
    private static final long PRICE = 50_000 * UNIT;
    private static final long QTY = 10_000;
    /** The demo venue's operator and demo account, and the two the operator funds below. */
    private static final long CAPACITY = 4;
    private static final int STRANGERS = 12;

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

    private static SpotPlaceOrder bid()
    {
        return new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, PRICE, QTY, null, TimeInForce.GTC, false, false, -1);
    }

    private static void ok(final HttpResponse<String> response)
    {
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().startsWith("{\"ok\":true"), response.body());
    }

    @Test
    void strangersBeyondTheCapacityAreRefusedAndTheOperatorStillFundsNewAccounts() throws Exception
    {
        // the edge throttle has its own test
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1")
            .stateAccounts(CAPACITY), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        final VenueHttp http = new VenueHttp(appliance.baseUrl());
        final Secp256k1KeyPair operator = VenueHttp.key(appliance.operatorKeyFile());
        final Secp256k1KeyPair demo = VenueHttp.key(appliance.demoAccountKeyFile());
        final SecureRandom random = new SecureRandom();

        final List<Secp256k1KeyPair> strangers = new ArrayList<>();
        final List<byte[]> bodies = new ArrayList<>();
        for (int i = 0; i < STRANGERS; i++)
        {
            final Secp256k1KeyPair stranger = Secp256k1KeyPair.generate(random);
            final byte[] body = VenueHttp.body(stranger, stranger.address(), 0, bid(), PreimageMode.RAW);
            final HttpResponse<String> answer = http.post("/api/v1/trading/actions", body);
            assertEquals(200, answer.statusCode(), answer.body());
            assertEquals("ACCOUNT_NOT_FUNDED", field(answer.body(), "code"), answer.body());
            strangers.add(stranger);
            bodies.add(body);
        }
        // no window was made: the nonce route has never seen the account
        final String firstWindow = "/api/v1/trading/accounts/" + strangers.get(0).address() + "/nonce";
        final HttpResponse<String> nonce = http.get(firstWindow);
        assertEquals(200, nonce.statusCode(), nonce.body());
        assertTrue(nonce.body().contains("\"seen\":false"), nonce.body());

        // the operator funds two new accounts (its nonces 6 and 7, after the demo set-up's 0 to 5): capacity was kept
        final Secp256k1KeyPair first = strangers.get(0);
        ok(http.operator(operator, 6, new Deposit(first.address(), USDC, 100_000 * UNIT)));
        final Secp256k1KeyPair trader = Secp256k1KeyPair.generate(random);
        ok(http.operator(operator, 7, new Deposit(trader.address(), USDC, 100_000 * UNIT)));

        // the funded stranger sends the very same signed body (nonce 0) again: the refusal consumed nothing
        final HttpResponse<String> again = http.post("/api/v1/trading/actions", bodies.get(0));
        ok(again);
        final HttpResponse<String> window = http.get(firstWindow);
        assertEquals("1", field(window.body(), "nextUsableNonce"), window.body());
        // and it trades with the demo account
        ok(http.submit(demo, 1, new SpotPlaceOrder(SPOT_MARKET, null, Side.ASK, PRICE, QTY, null, TimeInForce.IOC,
            false, false, -1)));
        final HttpResponse<String> status = http.get("/api/v1/trading/orders/" + field(again.body(), "orderId"));
        assertEquals(200, status.statusCode(), status.body());
        assertEquals(Long.toString(QTY), field(status.body(), "filled"), status.body());
        assertEquals("filled", field(status.body(), "status"), status.body());

        // a capacity now full still refuses a stranger for what it is, not for the capacity
        final Secp256k1KeyPair late = Secp256k1KeyPair.generate(random);
        assertEquals("ACCOUNT_NOT_FUNDED", field(http.submit(late, 0, bid()).body(), "code"));
    }
}
