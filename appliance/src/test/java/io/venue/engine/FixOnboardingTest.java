package io.venue.engine;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Cancel;
import io.venue.action.ClientOrderId;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.FixRateTier;
import io.venue.action.OrderId;
import io.venue.action.SetFixOnboarding;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.engine.state.EngineState;
import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.SetFixOnboardingDecoder;
import io.venue.journal.sbe.SignerMatch;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The FIX onboarding record in the engine (journal version 16, docs/FIX.md "Onboarding record"): the operator sets and
 * changes it, the engine refuses what it cannot hold (unknown credential, values out of the rules, a full table)
 * without changing anything, session orders of version 16 pass its FIX permission and allowed markets, older ones do
 * not; replay and a restart from the state store give the same events and state.
 */
class FixOnboardingTest
{
    static final Address ALICE = Address.of("0x" + "a1".repeat(20));
    static final Address SIGNER = Address.of("0x" + "5a".repeat(20));
    static final long USD = 1;
    static final long BTC = 2;
    static final long SPOT = 7;
    static final long OTHER = 8;
    static final long UNIT = 1_000_000;
    static final long CREDENTIAL = 0x0123_4567_89ab_cdefL;
    static final String KEY = "spk_0123456789abcdef";

    private static int clientIds;

    private static EngineHarness venue(final EngineConfig config)
    {
        final EngineHarness h = new EngineHarness(config, true);
        h.admin(new CreateAsset(USD, "USD"));
        h.admin(new CreateAsset(BTC, "BTC"));
        h.admin(new CreateSpotMarket(SPOT, BTC, USD, 100, 1000, 1000));
        h.admin(new CreateSpotMarket(OTHER, BTC, USD, 100, 1000, 1000));
        h.admin(new Deposit(ALICE, USD, 1_000_000 * UNIT));
        final AgentCommands agents = new AgentCommands(h);
        agents.create(ALICE, CREDENTIAL, SIGNER, AgentCommands.TRADE | AgentCommands.CANCEL, h.now + 3_600_000);
        agents.create(ALICE, CREDENTIAL + 1, Address.of("0x" + "5b".repeat(20)), AgentCommands.TRADE,
            h.now + 3_600_000);
        return h;
    }

    private static List<String> session(final EngineHarness h, final Action action)
    {
        final byte[] clientId = new byte[ClientOrderId.LENGTH];
        clientId[0] = (byte)'o';
        clientId[1] = (byte)(++clientIds >> 8);
        clientId[2] = (byte)clientIds;
        return h.send(new ActionPayload(ALICE, 0, new ClientOrderId(clientId), h.now, action),
            SignerMatch.SESSION_CREDENTIAL, SessionCredentialTest.credential(CREDENTIAL), null);
    }

    private static SpotPlaceOrder bid(final long market)
    {
        return new SpotPlaceOrder(market, null, Side.BID, 100 * 100, UNIT, null, TimeInForce.GTC, false, false, -1);
    }

    private static String reject(final List<String> events)
    {
        return events.stream().filter(e -> e.contains("\"type\":\"ActionRejected\"")).findFirst()
            .map(e -> e.replaceAll(".*\"code\":\"([A-Z_]+)\".*", "$1")).orElse("none");
    }

    private static String changed(final List<String> events)
    {
        return events.stream().filter(e -> e.contains("\"type\":\"FixOnboardingChanged\"")).findFirst().orElse("");
    }

    private static SetFixOnboarding record(final boolean fix, final List<Long> markets)
    {
        return new SetFixOnboarding(KEY, fix, true, markets, FixRateTier.ENHANCED, true, 2_500);
    }

    @Test
    void theOperatorSetsAndChangesTheRecordAndSessionOrdersPassIt()
    {
        final EngineHarness h = venue(new EngineConfig());
        // no record: a session order of version 16 is refused, nothing placed
        final List<String> before = session(h, bid(SPOT));
        assertEquals("FIX_NOT_ENABLED", reject(before));
        final List<String> set = h.admin(record(true, List.of(SPOT)));
        assertEquals("none", reject(set));
        final String event = changed(set);
        assertTrue(event.contains("\"credentialId\":\"0x0123456789abcdef\"") &&
            event.contains("\"account\":\"" + ALICE + "\"") && event.contains("\"fixEnabled\":true") &&
            event.contains("\"dropCopy\":true") && event.contains("\"allMarkets\":false") &&
            event.contains("\"marketCount\":1") && event.contains("\"markets\":\"0x07" + "0".repeat(126) + "\"") &&
            event.contains("\"rateTier\":\"ENHANCED\"") && event.contains("\"cancelOnDisconnect\":true") &&
            event.contains("\"codGraceMs\":2500"), event);
        assertEquals(1, h.engine.fixOnboardingRecords());
        assertTrue(session(h, bid(SPOT)).stream().anyMatch(e -> e.contains("\"type\":\"OrderRested\"")));
        final OrderId resting = new OrderId(h.lastDigest.clone());
        final List<String> elsewhere = session(h, bid(OTHER));
        assertEquals("MARKET_NOT_ALLOWED", reject(elsewhere));
        assertFalse(elsewhere.stream().anyMatch(e -> e.contains("\"type\":\"OrderAccepted\"")));
        // changed: every market allowed
        h.admin(record(true, null));
        assertTrue(session(h, bid(OTHER)).stream().anyMatch(e -> e.contains("\"type\":\"OrderRested\"")));
        // FIX turned off: no new exposure, but a cancel still passes
        assertTrue(changed(h.admin(record(false, null))).contains("\"fixEnabled\":false"));
        assertEquals("FIX_NOT_ENABLED", reject(session(h, bid(SPOT))));
        assertTrue(session(h, new Cancel(resting)).stream().anyMatch(e -> e.contains("\"reason\":\"CANCELLED\"")));
        assertEquals(1, h.engine.fixOnboardingRecords(), "a change keeps the credential's one slot");
        // an order signed by the account itself is no session order: the record does not apply
        final List<String> own = h.send(new ActionPayload(ALICE, 5, null, h.now, bid(OTHER)), SignerMatch.ACCOUNT_RAW,
            ALICE, null);
        assertTrue(own.stream().anyMatch(e -> e.contains("\"type\":\"OrderRested\"")), own.toString());
    }

    @Test
    void refusalsChangeNothing()
    {
        final EngineHarness h = venue(new EngineConfig().fixOnboardingCapacity(1));
        final List<String> unknown = h.admin(new SetFixOnboarding("spk_00000000000000aa", true, true, null, null,
            false, 0));
        assertEquals("UNKNOWN_AGENT", reject(unknown));
        assertEquals("", changed(unknown));
        assertEquals("NOT_OPERATOR", reject(h.act(ALICE, record(true, null))));
        assertEquals(0, h.engine.fixOnboardingRecords(), "no refusal made a record");
        assertEquals("FIX_NOT_ENABLED", reject(session(h, bid(SPOT))));
        h.admin(record(true, List.of(SPOT)));
        // a second credential does not fit a table of one
        assertEquals("CAPACITY_LIMIT", reject(h.admin(new SetFixOnboarding("spk_0123456789abcdf0", true, true, null,
            null, false, 0))));
        // values the JSON parser would refuse, written into the command directly: the engine trusts no record
        assertEquals("INVALID_ACTION", reject(tampered(h, SetFixOnboardingDecoder.codGraceMsEncodingOffset(), 4,
            60_001)));
        assertEquals("INVALID_ACTION", reject(tampered(h, SetFixOnboardingDecoder.marketCountEncodingOffset(), 1,
            17)));
        assertEquals("INVALID_ACTION", reject(tampered(h, SetFixOnboardingDecoder.marketsEncodingOffset() + 4, 4, 3)));
        assertEquals(1, h.engine.fixOnboardingRecords(), "no refusal made or changed a record");
        assertEquals("MARKET_NOT_ALLOWED", reject(session(h, bid(OTHER))));
        assertTrue(session(h, bid(SPOT)).stream().anyMatch(e -> e.contains("\"type\":\"OrderRested\"")),
            "the record is still markets [7], not a tampered one");
    }

    /** A valid SetFixOnboarding (markets 7 and 9) with one field overwritten, applied as the operator's. */
    private static List<String> tampered(final EngineHarness h, final int fieldOffset, final int width,
        final long value)
    {
        final EngineHarness scratch = new EngineHarness(new EngineConfig(), false);
        scratch.send(new ActionPayload(EngineHarness.OPERATOR, h.takeNonce(EngineHarness.OPERATOR), null, h.now,
            new SetFixOnboarding(KEY, true, false, List.of(7L, 9L), null, false, 0)), SignerMatch.ACCOUNT_RAW,
            EngineHarness.OPERATOR, null);
        final byte[] record = scratch.records().get(0);
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(record.length);
        buffer.putBytes(0, record);
        final int at = JournalRecords.HEADER_LENGTH + fieldOffset;
        switch (width)
        {
            case 1 -> buffer.putByte(at, (byte)value);
            default -> buffer.putInt(at, (int)value, ByteOrder.LITTLE_ENDIAN);
        }
        buffer.putLong(JournalRecords.SEQUENCE_OFFSET, h.nextSequence(), ByteOrder.LITTLE_ENDIAN);
        return h.apply(buffer, record.length);
    }

    @Test
    void aSessionOrderOfVersionFifteenPassesNoRecord()
    {
        final EngineHarness h = venue(new EngineConfig());
        h.version = JournalRecords.FIX_ONBOARDING_VERSION - 1;
        assertTrue(session(h, bid(OTHER)).stream().anyMatch(e -> e.contains("\"type\":\"OrderRested\"")),
            "an old journal's session orders replay as they were written");
    }

    @Test
    void replayAndARestartFromTheStateGiveTheSameEventsAndState(@TempDir final Path folder) throws Exception
    {
        final EngineHarness one = venue(new EngineConfig());
        one.admin(record(true, List.of(SPOT)));
        session(one, bid(SPOT));
        session(one, bid(OTHER));
        one.admin(record(true, List.of(SPOT, OTHER)));
        session(one, bid(OTHER));
        final Engine[] replayed = new Engine[1];
        assertArrayEquals(one.log.bytes(),
            EngineHarness.replay(new EngineConfig(), one.commands, one.commandsLength(), replayed));
        assertArrayEquals(one.engine.stateHash(), replayed[0].stateHash());

        // the commands up to the record's change, the state written and closed; then the rest from the stored state
        final EngineState.Context context = new EngineState.Context().directory(folder.resolve("state"))
            .commandsPerFlush(1);
        final List<byte[]> records = one.records();
        final int cut = records.size() - 2;
        final EventLog first = new EventLog(false);
        try (PersistedEngine persisted = PersistedEngine.open(new EngineConfig().operator(EngineHarness.OPERATOR),
            first, context))
        {
            for (int i = 0; i < cut; i++)
            {
                final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(records.get(i).length);
                buffer.putBytes(0, records.get(i));
                persisted.engine().onCommand(buffer, 0, records.get(i).length);
            }
            persisted.engine().flushState();
        }
        final EventLog rest = new EventLog(false);
        try (PersistedEngine persisted = PersistedEngine.open(new EngineConfig().operator(EngineHarness.OPERATOR),
            rest, context))
        {
            assertEquals(1, persisted.engine().fixOnboardingRecords(), "the record was stored");
            for (int i = cut; i < records.size(); i++)
            {
                final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(records.get(i).length);
                buffer.putBytes(0, records.get(i));
                persisted.engine().onCommand(buffer, 0, records.get(i).length);
            }
            assertArrayEquals(one.engine.stateHash(), persisted.engine().stateHash());
            final byte[] all = one.log.bytes();
            final byte[] both = new byte[first.bytes().length + rest.bytes().length];
            System.arraycopy(first.bytes(), 0, both, 0, first.bytes().length);
            System.arraycopy(rest.bytes(), 0, both, first.bytes().length, rest.bytes().length);
            assertArrayEquals(all, both, "the events across the restart are the uninterrupted run's");
        }
    }
}
