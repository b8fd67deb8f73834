package io.venue.engine;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Cancel;
import io.venue.action.ClientOrderId;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.OrderId;
import io.venue.action.SetFixOnboarding;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.SignerMatch;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Order commands of signer match SESSION_CREDENTIAL (journal version 13: a FIX order-entry session's, docs/FIX.md):
 * the gate authorizes them by the credential the envelope names, as it authorizes an agent's signature (its scopes,
 * its account, revocation and expiry), applies no nonce step, and refuses the value in an older record. A replay gives
 * the same events.
 */
class SessionCredentialTest
{
    static final Address ALICE = Address.of("0x" + "a1".repeat(20));
    static final Address BOB = Address.of("0x" + "b0".repeat(20));
    static final Address SIGNER = Address.of("0x" + "5a".repeat(20));
    static final long USD = 1;
    static final long BTC = 2;
    static final long SPOT = 7;
    static final long UNIT = 1_000_000;
    static final long CREDENTIAL = 0x0123_4567_89ab_cdefL;

    private static EngineHarness venue()
    {
        final EngineHarness h = new EngineHarness(new EngineConfig(), true);
        h.admin(new CreateAsset(USD, "USD"));
        h.admin(new CreateAsset(BTC, "BTC"));
        h.admin(new CreateSpotMarket(SPOT, BTC, USD, 100, 1000, 1000));
        for (final Address account : new Address[]{ALICE, BOB})
        {
            h.admin(new Deposit(account, USD, 1_000_000 * UNIT));
            h.admin(new Deposit(account, BTC, 100 * UNIT));
        }
        return h;
    }

    /** The envelope's rawSigner of a session command: the credential id, big-endian, then 12 zero bytes. */
    static Address credential(final long id)
    {
        final byte[] bytes = new byte[20];
        for (int i = 0; i < 8; i++)
        {
            bytes[i] = (byte)(id >>> (56 - 8 * i));
        }
        return new Address(bytes);
    }

    private static int clientIds;

    private static List<String> session(final EngineHarness h, final Address account, final long credentialId,
        final long nonce, final Action action)
    {
        final byte[] clientId = new byte[ClientOrderId.LENGTH];
        clientId[0] = (byte)'f';
        clientId[1] = (byte)nonce;
        clientId[2] = (byte)++clientIds;
        return h.send(new ActionPayload(account, nonce, new ClientOrderId(clientId), h.now, action),
            SignerMatch.SESSION_CREDENTIAL, credential(credentialId), null);
    }

    /** From version 16 a session's orders need the credential's FIX permission (FixOnboardingTest). */
    static void onboard(final EngineHarness h, final long credentialId)
    {
        h.admin(new SetFixOnboarding(String.format("spk_%016x", credentialId), true, false, null, null, true, 0));
    }

    private static SpotPlaceOrder bid(final long price)
    {
        return new SpotPlaceOrder(SPOT, null, Side.BID, price, UNIT, null, TimeInForce.GTC, false, false, -1);
    }

    private static boolean has(final List<String> events, final String type)
    {
        return events.stream().anyMatch(e -> e.contains("\"type\":\"" + type + "\""));
    }

    private static String reject(final List<String> events)
    {
        return events.stream().filter(e -> e.contains("\"type\":\"ActionRejected\"")).findFirst()
            .map(e -> e.replaceAll(".*\"code\":\"([A-Z_]+)\".*", "$1")).orElse("none");
    }

    @Test
    void theCredentialsScopesAccountAndStateDecide()
    {
        final EngineHarness h = venue();
        final AgentCommands agents = new AgentCommands(h);
        // no such credential yet
        assertEquals("UNAUTHORIZED_SIGNER", reject(session(h, ALICE, CREDENTIAL, 0, bid(100 * 100))));
        agents.create(ALICE, CREDENTIAL, SIGNER, AgentCommands.TRADE, h.now + 3_600_000);
        onboard(h, CREDENTIAL);
        final List<String> placed = session(h, ALICE, CREDENTIAL, 0, bid(100 * 100));
        assertTrue(has(placed, "OrderAccepted") && has(placed, "OrderRested"), placed.toString());
        // no nonce step: the same nonce again is another order (its own client id), not a replay
        assertTrue(has(session(h, ALICE, CREDENTIAL, 0, bid(101 * 100)), "OrderRested"));
        // the credential acts for ALICE only
        assertEquals("UNAUTHORIZED_SIGNER", reject(session(h, BOB, CREDENTIAL, 1, bid(100 * 100))));
        // trade scope only: a cancel is SCOPE_DENIED
        final OrderId id = new OrderId(h.lastDigest.clone());
        assertEquals("SCOPE_DENIED", reject(session(h, ALICE, CREDENTIAL, 2, new Cancel(id))));
        // revoked: refused
        agents.revoke(ALICE, CREDENTIAL, CREDENTIAL, true);
        assertEquals("UNAUTHORIZED_SIGNER", reject(session(h, ALICE, CREDENTIAL, 3, bid(100 * 100))));
    }

    @Test
    void aCancelByTheCredentialAndTheSignatureOnesAgree()
    {
        final EngineHarness h = venue();
        new AgentCommands(h).create(ALICE, CREDENTIAL, SIGNER, AgentCommands.TRADE | AgentCommands.CANCEL,
            h.now + 3_600_000);
        onboard(h, CREDENTIAL);
        session(h, ALICE, CREDENTIAL, 0, bid(100 * 100));
        final OrderId id = new OrderId(h.lastDigest.clone());
        final List<String> cancelled = session(h, ALICE, CREDENTIAL, 1, new Cancel(id));
        assertTrue(cancelled.stream().anyMatch(e -> e.contains("\"type\":\"OrderDone\"") &&
            e.contains("\"reason\":\"CANCELLED\"")), cancelled.toString());
        // expired credential: refused at its expiry on the stamped clock
        new AgentCommands(h).create(BOB, CREDENTIAL + 1, Address.of("0x" + "5b".repeat(20)), AgentCommands.TRADE,
            h.now + 1_000);
        h.now += 1_000;
        assertEquals("UNAUTHORIZED_SIGNER", reject(session(h, BOB, CREDENTIAL + 1, 0, bid(100 * 100))));
        // a replay of every command writes the same events
        final Engine[] replayed = new Engine[1];
        final byte[] again = EngineHarness.replay(new EngineConfig(), h.commands, h.commandsLength(), replayed);
        assertArrayEquals(h.log.bytes(), again);
    }

    @Test
    void inARecordOlderThanVersionThirteenTheValueIsRefused()
    {
        final EngineHarness h = venue();
        new AgentCommands(h).create(ALICE, CREDENTIAL, SIGNER, AgentCommands.TRADE, h.now + 3_600_000);
        h.version = JournalRecords.SESSION_CREDENTIAL_VERSION - 1;
        final List<String> events = session(h, ALICE, CREDENTIAL, 0, bid(100 * 100));
        assertEquals("UNAUTHORIZED_SIGNER", reject(events));
        assertTrue(!has(events, "OrderAccepted"), events.toString());
    }
}
