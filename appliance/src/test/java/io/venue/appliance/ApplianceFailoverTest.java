package io.venue.appliance;

import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.ActionPayload;
import io.venue.signing.ActionSigner;
import io.venue.crypto.PreimageMode;
import io.venue.action.json.CanonicalJson;
import io.venue.codec.Hex;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.testing.ChildJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two appliance processes from configuration files: a primary and a standby over UDP on loopback in SYNC mode.
 * Orders are answered by the primary, the primary is killed with SIGKILL, the operator promotes the standby with
 * {@code venue-appliance promote}, and the standby serves: every answered order is there (its nonce is spent), its
 * event journal is byte-identical to the primary's, its market feed's book has the primary's epoch, seq and levels
 * (a command the standby did not hold yet was in neither node's feed), and the old primary, restarted, refuses to
 * write (fenced).
 */
class ApplianceFailoverTest
{
    private static final String BOOK = "/api/v1/public/markets/" + DemoVenue.SPOT_MARKET + "/book?depth=1000";
    private static final String TRADES = "/api/v1/public/markets/" + DemoVenue.SPOT_MARKET + "/trades?limit=1";
    private static final int ORDERS = 40;

    @TempDir
    Path folder;

    @AfterEach
    void stop() throws InterruptedException
    {
        ChildJvm.stopAll();
    }

    @Test
    void operatorPromotesTheStandbyAfterThePrimaryDies() throws Exception
    {
        final AppliancePair pair = AppliancePair.direct(folder);
        final Path primaryData = pair.primaryData;
        final Path standbyData = pair.standbyData;
        final ChildJvm standby = pair.startStandby();
        ChildJvm primary = pair.startPrimary();
        standby.awaitLine("venue appliance is a standby", 60);
        final String primaryUrl = VenueHttp.servingUrl(primary);

        final Secp256k1KeyPair demo = pair.demoAccount();
        final VenueHttp toPrimary = new VenueHttp(primaryUrl);
        for (int nonce = 1; nonce <= ORDERS; nonce++)
        {
            final HttpResponse<String> answer = toPrimary.submit(demo, nonce, bid(nonce));
            assertEquals(200, answer.statusCode(), answer.body());
        }
        final long lastAnswered = Long.parseLong(
            VenueHttp.field(toPrimary.submit(demo, ORDERS + 1, bid(ORDERS + 1)).body(), "sequence"));

        // the lag is in both logs
        primary.awaitLine("replication: primary epoch 1, journaled ", 10);
        standby.awaitLine("replication: standby epoch 1, holds ", 10);

        // a command the primary journaled and the standby does not hold yet is shown nowhere: a failover now would
        // lose it
        awaitFeed(toPrimary, lastAnswered);
        final String bookBefore = toPrimary.get(BOOK).body();
        AppliancePair.signal(standby, "STOP");
        final long held = ORDERS + 2;
        final ActionSigner signer = new ActionSigner(ApplianceContext.DEMO_CHAIN_ID,
            ApplianceContext.DEMO_CONTRACT, demo);
        final ActionPayload payload = new ActionPayload(demo.address(), held, null,
            System.currentTimeMillis(), bid(held));
        final String digest = Hex.to0x(signer.digestV2(payload));
        final var heldAnswer = toPrimary.postAsync("/api/v1/trading/actions",
            CanonicalJson.signedActionBody(signer.sign(payload, PreimageMode.RAW)));
        AppliancePair.awaitJournaled(primaryData, lastAnswered + 1);
        Thread.sleep(300); // time for a responder that does not wait to publish it
        assertTrue(!heldAnswer.isDone(), "answered before the standby holds it");
        assertEquals(404, toPrimary.get("/api/v1/trading/actions/" + digest).statusCode());
        assertEquals(404, toPrimary.get("/api/v1/trading/orders/" + digest).statusCode());
        assertEquals(bookBefore, toPrimary.get(BOOK).body(), "the market feed shows nothing of it either");
        final String account = demo.address().toString();
        assertEquals(Long.toString(ORDERS + 2),
            VenueHttp.field(toPrimary.get("/api/v1/trading/accounts/" + account + "/nonce").body(),
            "nextUsableNonce"), "the nonce window as of the last released command");
        AppliancePair.signal(standby, "CONT");
        assertEquals(200, heldAnswer.get(30, TimeUnit.SECONDS).statusCode());
        assertEquals("resting", VenueHttp.field(toPrimary.get("/api/v1/trading/orders/" + digest).body(), "status"));
        awaitFeed(toPrimary, lastAnswered + 1);
        final String bookAtFailover = toPrimary.get(BOOK).body();
        assertEquals(Long.parseLong(VenueHttp.field(bookBefore, "seq")) + 1,
            Long.parseLong(VenueHttp.field(bookAtFailover, "seq")), "the held bid's book frame, once released");

        primary.process.destroyForcibly();
        assertTrue(primary.process.waitFor(30, TimeUnit.SECONDS));

        final ChildJvm promote = ChildJvm.start(ApplianceMain.class, "promote", "--data", standbyData.toString());
        assertTrue(promote.process.waitFor(60, TimeUnit.SECONDS));
        final String promoted = promote.awaitLine("promoted: epoch 2 after sequence ", 5);
        assertEquals(0, promote.process.exitValue(), String.join("\n", promote.lines));
        assertTrue(Long.parseLong(promoted.substring(promoted.lastIndexOf(' ') + 1)) > lastAnswered, promoted);

        final String standbyUrl = standby.awaitLine("serving as the primary on ", 60)
            .substring("serving as the primary on ".length());
        // the old primary's machine requests are not in the standby's SVC-Nonce file: none dated before the
        // promotion passes
        assertTrue(standby.awaitLine("the SVC-Nonce file may lack nonces", 5).contains("this node was promoted"));
        final VenueHttp toStandby = new VenueHttp(standbyUrl);
        // it serves once its read models hold every command it followed
        assertEquals(Long.toString(ORDERS + 3),
            VenueHttp.field(toStandby.get("/api/v1/trading/accounts/" + account + "/nonce").body(),
            "nextUsableNonce"));
        assertEquals("resting", VenueHttp.field(toStandby.get("/api/v1/trading/orders/" + digest).body(), "status"));
        // the streams' numbering is the journal's: the promoted standby's book has the primary's epoch, seq and levels
        awaitFeed(toStandby, lastAnswered + 1);
        assertEquals(bookAtFailover, toStandby.get(BOOK).body());
        for (int nonce = 1; nonce <= ORDERS + 2; nonce++)
        {
            final HttpResponse<String> again = toStandby.submit(demo, nonce, bid(nonce));
            assertEquals("nonce_replayed", VenueHttp.field(again.body(), "code"),
                "answered order " + nonce + " kept: " + again.body());
        }
        final HttpResponse<String> fresh = toStandby.submit(demo, ORDERS + 3, bid(ORDERS + 3));
        assertTrue(fresh.body().startsWith("{\"ok\":true"), fresh.body());

        // the events of every command the primary journaled are the same bytes on the standby
        // (record by record: each node groups them into excerpts by what its engine applied at once)
        final List<byte[]> primaryEvents = AppliancePair.events(primaryData);
        final List<byte[]> standbyEvents = AppliancePair.events(standbyData);
        assertTrue(primaryEvents.size() >= ORDERS + 7, "set-up and orders: " + primaryEvents.size());
        for (int i = 0; i < primaryEvents.size(); i++)
        {
            assertTrue(Arrays.equals(primaryEvents.get(i), standbyEvents.get(i)), "event " + i + " differs");
        }

        // the old primary comes back on its old folder: it hears epoch 2 and refuses to write
        primary = pair.startPrimary();
        assertTrue(primary.process.waitFor(60, TimeUnit.SECONDS));
        assertTrue(primary.lines.stream().anyMatch(l -> l.contains("fenced: a primary of epoch 2 is running")),
            String.join("\n", primary.lines));
        assertEquals(1, primary.process.exitValue());
    }

    /** Polls the trades read, whose engineSeq is the last command the node's market feed applied. */
    private static void awaitFeed(final VenueHttp node, final long sequence) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (Long.parseLong(VenueHttp.field(node.get(TRADES).body(), "engineSeq")) < sequence)
        {
            assertTrue(System.nanoTime() < deadline, "the feed did not reach " + sequence);
            Thread.sleep(10);
        }
    }

    private static SpotPlaceOrder bid(final long nonce)
    {
        return new SpotPlaceOrder(DemoVenue.SPOT_MARKET, null, Side.BID, (40_000 + nonce) * DemoVenue.UNIT, 10_000,
            null, TimeInForce.GTC, false, false, -1);
    }
}
