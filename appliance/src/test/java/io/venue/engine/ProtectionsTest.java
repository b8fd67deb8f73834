package io.venue.engine;

import io.venue.action.Address;
import io.venue.action.CancelAll;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.engine.state.EngineState;
import io.venue.entry.protect.ProtectionCommands;
import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.MessageHeaderEncoder;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static io.venue.engine.EngineTest.line;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The protection commands in the engine: sessions and their cancel-on-disconnect sweeps after the grace window, a
 * reconnect that keeps the orders, the explicit arm for wallet sessions, dead-man timers armed, renewed, fired once and
 * per market, CancelAll's reason by version, the table's capacity and bounds, and determinism: replay, several shards
 * and a restart from the state store give the same events and state hash.
 */
class ProtectionsTest
{
    static final Address ALICE = Address.of("0x" + "a1".repeat(20));
    static final Address BOB = Address.of("0x" + "b0".repeat(20));
    static final long USD = 1;
    static final long BTC = 2;
    static final long SPOT = 7;
    static final long SPOT2 = 8;
    static final long UNIT = 1_000_000;
    static final long CREDENTIAL = 0x0123_4567_89ab_cdefL;

    private final ProtectionCommands write = new ProtectionCommands();

    private EngineHarness venue(final EngineConfig config)
    {
        final EngineHarness h = new EngineHarness(config, true);
        setUp(h);
        return h;
    }

    private static void setUp(final EngineHarness h)
    {
        h.admin(new CreateAsset(USD, "USD"));
        h.admin(new CreateAsset(BTC, "BTC"));
        h.admin(new CreateSpotMarket(SPOT, BTC, USD, 100, 1000, 1000));
        h.admin(new CreateSpotMarket(SPOT2, BTC, USD, 100, 1000, 1000));
        for (final Address account : new Address[]{ALICE, BOB})
        {
            h.admin(new Deposit(account, USD, 1_000_000 * UNIT));
            h.admin(new Deposit(account, BTC, 100 * UNIT));
        }
    }

    private static SpotPlaceOrder bid(final long market, final long price)
    {
        return new SpotPlaceOrder(market, null, Side.BID, price, UNIT, null, TimeInForce.GTC, false, false, -1);
    }

    private List<String> opened(final EngineHarness h, final long session, final Address account, final long cred,
        final boolean wallet, final boolean cod, final long grace)
    {
        return h.protection(b -> write.sessionOpened(b, 0, session, account.toBytes(), cred, wallet, cod, grace));
    }

    private List<String> closed(final EngineHarness h, final long session)
    {
        return h.protection(b -> write.sessionClosed(b, 0, session));
    }

    private List<String> deadMan(final EngineHarness h, final Address account, final long market, final long ms)
    {
        return h.protection(b -> write.deadManArm(b, 0, account.toBytes(), market, ms));
    }

    private List<String> tick(final EngineHarness h)
    {
        return h.protection(b -> write.tick(b, 0));
    }

    private static long count(final List<String> lines, final String fragment)
    {
        return lines.stream().filter(l -> l.contains(fragment)).count();
    }

    @Test
    void aSessionKeySessionThatClosesIsSweptAfterItsGraceWindow()
    {
        final EngineHarness h = venue(new EngineConfig());
        line(opened(h, 11, ALICE, CREDENTIAL, false, true, 1_000), "ProtectionChanged", "\"action\":\"OPENED\"",
            "\"sessionId\":11");
        for (int i = 0; i < 3; i++)
        {
            h.act(ALICE, bid(SPOT, 1_000 + 100 * i));
        }
        h.act(BOB, bid(SPOT, 900));
        assertEquals(4, h.engine.openOrders());

        final List<String> close = closed(h, 11);
        line(close, "ProtectionChanged", "\"kind\":\"DISCONNECT\"", "\"action\":\"ARMED\"",
            "\"deadlineMs\":" + (h.now + 1_000));
        h.now += 999;
        assertTrue(tick(h).isEmpty(), "nothing due a millisecond early");
        assertEquals(4, h.engine.openOrders());
        h.now += 1;
        final List<String> fired = tick(h);
        assertEquals(3, count(fired, "\"reason\":\"CANCELLED_DISCONNECT\""), String.join("\n", fired));
        line(fired, "ProtectionChanged", "\"kind\":\"DISCONNECT\"", "\"action\":\"FIRED\"", "\"cancelled\":3");
        assertEquals(1, h.engine.openOrders(), "Bob's order stays");
        h.now += 10_000;
        assertTrue(tick(h).isEmpty(), "a sweep fires once");
    }

    @Test
    void aReconnectOfTheSameCredentialWithinTheGraceKeepsTheOrders()
    {
        final EngineHarness h = venue(new EngineConfig());
        opened(h, 11, ALICE, CREDENTIAL, false, true, 1_000);
        h.act(ALICE, bid(SPOT, 1_000));
        closed(h, 11);
        h.now += 500;
        // another credential of the account does not keep them
        opened(h, 12, ALICE, CREDENTIAL + 1, false, true, 1_000);
        final List<String> again = opened(h, 13, ALICE, CREDENTIAL, false, true, 1_000);
        line(again, "ProtectionChanged", "\"kind\":\"DISCONNECT\"", "\"action\":\"KEPT\"", "\"sessionId\":11");
        h.now += 5_000;
        assertTrue(tick(h).isEmpty());
        assertEquals(1, h.engine.openOrders());
    }

    /**
     * Two lane threads may journal a reconnect before the close of the session it replaces: from version 15 that close
     * keeps the orders as a reconnect after it does; an older close arms the sweep, as its build did.
     */
    @Test
    void aReconnectJournaledBeforeTheCloseKeepsTheOrdersFromVersionFifteen()
    {
        final EngineHarness h = venue(new EngineConfig());
        opened(h, 11, ALICE, CREDENTIAL, false, true, 1_000);
        h.act(ALICE, bid(SPOT, 1_000));
        opened(h, 12, ALICE, CREDENTIAL + 1, false, true, 1_000);
        opened(h, 13, ALICE, CREDENTIAL, false, true, 1_000);
        final List<String> close = closed(h, 11);
        line(close, "ProtectionChanged", "\"kind\":\"DISCONNECT\"", "\"action\":\"KEPT\"", "\"sessionId\":11");
        assertEquals(0, count(close, "\"action\":\"ARMED\""), String.join("\n", close));
        h.now += 5_000;
        assertTrue(tick(h).isEmpty());
        assertEquals(1, h.engine.openOrders());
        // the reconnect's own close is swept: the other open session is another credential's
        line(closed(h, 13), "ProtectionChanged", "\"kind\":\"DISCONNECT\"", "\"action\":\"ARMED\"",
            "\"sessionId\":13");
        h.now += 1_000;
        assertEquals(1, count(tick(h), "\"reason\":\"CANCELLED_DISCONNECT\""));

        final EngineHarness old = venue(new EngineConfig());
        old.version = JournalRecords.RECONNECT_BEFORE_CLOSE_VERSION - 1;
        opened(old, 11, ALICE, CREDENTIAL, false, true, 1_000);
        old.act(ALICE, bid(SPOT, 1_000));
        opened(old, 13, ALICE, CREDENTIAL, false, true, 1_000);
        line(closed(old, 11), "ProtectionChanged", "\"kind\":\"DISCONNECT\"", "\"action\":\"ARMED\"");
        old.now += 1_000;
        assertEquals(1, count(tick(old), "\"reason\":\"CANCELLED_DISCONNECT\""), "the older meaning");
    }

    /** A reset closes every session: one of a credential with two open sessions is not kept by the other. */
    @Test
    void aResetSweepsEverySessionOfACredential()
    {
        final EngineHarness h = venue(new EngineConfig());
        opened(h, 11, ALICE, CREDENTIAL, false, true, 1_000);
        opened(h, 12, ALICE, CREDENTIAL, false, true, 1_000);
        h.act(ALICE, bid(SPOT, 1_000));
        final List<String> reset = h.protection(b -> write.sessionsReset(b, 0));
        assertEquals(2, count(reset, "\"action\":\"ARMED\""), String.join("\n", reset));
        assertEquals(0, count(reset, "\"action\":\"KEPT\""), String.join("\n", reset));
        h.now += 1_000;
        assertEquals(1, count(tick(h), "\"reason\":\"CANCELLED_DISCONNECT\""));
    }

    @Test
    void aWalletSessionIsNotSweptUntilTheAccountArmsCancelOnDisconnect()
    {
        final EngineHarness h = venue(new EngineConfig());
        opened(h, 21, ALICE, 0, true, false, 1_000);
        h.act(ALICE, bid(SPOT, 1_000));
        h.act(ALICE, bid(SPOT2, 1_000));
        line(closed(h, 21), "ProtectionChanged", "\"kind\":\"SESSION\"", "\"action\":\"CLOSED\"");
        h.now += 60_000;
        assertTrue(tick(h).isEmpty());
        assertEquals(2, h.engine.openOrders());

        // armed for one market only
        line(h.protection(b -> write.cancelOnDisconnectArm(b, 0, ALICE.toBytes(), SPOT2, true, 200)),
            "ProtectionChanged", "\"kind\":\"CANCEL_ON_DISCONNECT\"", "\"action\":\"ARMED\"", "\"market\":8");
        opened(h, 22, ALICE, 0, true, false, 1_000);
        line(closed(h, 22), "ProtectionChanged", "\"kind\":\"DISCONNECT\"", "\"action\":\"ARMED\"", "\"market\":8");
        h.now += 200;
        final List<String> fired = tick(h);
        assertEquals(1, count(fired, "\"reason\":\"CANCELLED_DISCONNECT\""), String.join("\n", fired));
        line(fired, "OrderDone", "\"market\":8");
        assertEquals(1, h.engine.openOrders(), "the other market's order stays");

        line(h.protection(b -> write.cancelOnDisconnectArm(b, 0, ALICE.toBytes(), SPOT2, false, 0)),
            "ProtectionChanged", "\"action\":\"DISARMED\"");
        line(h.protection(b -> write.cancelOnDisconnectArm(b, 0, ALICE.toBytes(), SPOT2, false, 0)),
            "ProtectionChanged", "\"action\":\"REFUSED_UNKNOWN\"");
    }

    @Test
    void aDeadManTimerFiresAtTheFirstCommandPastItsDeadlineOnceAndIsRenewed()
    {
        final EngineHarness h = venue(new EngineConfig());
        h.act(ALICE, bid(SPOT, 1_000));
        h.act(ALICE, bid(SPOT2, 1_000));
        final long armedAt = h.now;
        line(deadMan(h, ALICE, ProtectionCommands.ALL_MARKETS, 5_000), "ProtectionChanged",
            "\"kind\":\"DEAD_MAN\"", "\"action\":\"ARMED\"", "\"deadlineMs\":" + (armedAt + 5_000));
        h.now += 4_000;
        line(deadMan(h, ALICE, ProtectionCommands.ALL_MARKETS, 5_000), "ProtectionChanged", "\"action\":\"RENEWED\"",
            "\"deadlineMs\":" + (armedAt + 9_000));
        h.now = armedAt + 8_999;
        assertTrue(tick(h).isEmpty(), "renewed: not due at the first deadline");
        h.now = armedAt + 9_000;
        // any command past the deadline fires it, before the command itself: Bob's order then rests
        final List<String> fired = h.act(BOB, bid(SPOT, 900));
        assertEquals(2, count(fired, "\"reason\":\"CANCELLED_DEAD_MAN\""), String.join("\n", fired));
        assertTrue(fired.get(0).contains("OrderDone"), "the sweep comes before the command's own events");
        line(fired, "ProtectionChanged", "\"action\":\"FIRED\"", "\"cancelled\":2");
        line(fired, "OrderRested");
        assertEquals(1, h.engine.openOrders());
        h.act(ALICE, bid(SPOT, 1_000));
        h.now += 60_000;
        assertTrue(tick(h).isEmpty(), "it disarmed when it fired");
        assertEquals(2, h.engine.openOrders());
        line(deadMan(h, ALICE, ProtectionCommands.ALL_MARKETS, 0), "ProtectionChanged",
            "\"action\":\"REFUSED_UNKNOWN\"");
    }

    @Test
    void aDeadManTimerOfOneMarketSweepsThatMarketAndDisarmsOnZero()
    {
        final EngineHarness h = venue(new EngineConfig());
        h.act(ALICE, bid(SPOT, 1_000));
        h.act(ALICE, bid(SPOT2, 1_000));
        deadMan(h, ALICE, SPOT, 1_000);
        deadMan(h, ALICE, SPOT2, 2_000);
        line(deadMan(h, ALICE, SPOT2, 0), "ProtectionChanged", "\"action\":\"DISARMED\"", "\"market\":8");
        h.now += 3_000;
        final List<String> fired = tick(h);
        assertEquals(1, count(fired, "\"reason\":\"CANCELLED_DEAD_MAN\""));
        line(fired, "OrderDone", "\"market\":7");
        assertEquals(1, h.engine.openOrders());
    }

    @Test
    void dueEntriesFireInDeadlineThenKeyOrder()
    {
        final EngineHarness h = venue(new EngineConfig());
        h.act(ALICE, bid(SPOT, 1_000));
        h.act(BOB, bid(SPOT, 900));
        deadMan(h, BOB, ProtectionCommands.ALL_MARKETS, 1_000);
        deadMan(h, ALICE, ProtectionCommands.ALL_MARKETS, 1_000);
        h.now += 500;
        deadMan(h, BOB, SPOT2, 400);
        h.now += 5_000;
        final List<String> fired = tick(h).stream().filter(l -> l.contains("ProtectionChanged")).toList();
        assertEquals(3, fired.size());
        // the earliest deadline first (Bob's market 8, due at +900), then Alice (a1.. < b0..) before Bob at +1000
        assertTrue(fired.get(0).contains("\"market\":8") && fired.get(0).contains("b0b0"), fired.get(0));
        assertTrue(fired.get(1).contains("a1a1") && fired.get(1).contains("\"cancelled\":1"), fired.get(1));
        assertTrue(fired.get(2).contains("b0b0") && fired.get(2).contains("\"cancelled\":1"), fired.get(2));
    }

    @Test
    void cancelAllReportsItsReasonByTheCommandsVersion()
    {
        final EngineHarness h = venue(new EngineConfig());
        h.act(ALICE, bid(SPOT, 1_000));
        h.act(ALICE, bid(SPOT2, 1_000));
        final List<String> now = h.act(ALICE, new CancelAll(CancelAll.ALL_MARKETS));
        assertEquals(2, count(now, "\"reason\":\"CANCELLED_ALL\""), String.join("\n", now));
        h.act(ALICE, bid(SPOT, 1_000));
        h.version = 9;
        final List<String> old = h.act(ALICE, new CancelAll(CancelAll.ALL_MARKETS));
        assertEquals(1, count(old, "\"reason\":\"CANCELLED\""), String.join("\n", old));
    }

    @Test
    void aFullTableAndOutOfBoundsDurationsAreRefusedWithoutAChange()
    {
        final EngineHarness h = venue(new EngineConfig().protectionCapacity(2));
        deadMan(h, ALICE, SPOT, 1_000);
        opened(h, 1, BOB, CREDENTIAL, false, true, 1_000);
        final byte[] before = h.engine.stateHash();
        line(deadMan(h, ALICE, SPOT2, 1_000), "ProtectionChanged", "\"action\":\"REFUSED_FULL\"");
        line(opened(h, 2, BOB, CREDENTIAL, false, true, 1_000), "ProtectionChanged", "\"action\":\"REFUSED_FULL\"");
        line(deadMan(h, ALICE, SPOT, Protections.MAX_DURATION_MS + 1), "ProtectionChanged",
            "\"action\":\"REFUSED_BOUNDS\"");
        line(opened(h, 1, BOB, CREDENTIAL, false, true, 1_000), "ProtectionChanged",
            "\"action\":\"REFUSED_UNKNOWN\"");
        line(closed(h, 99), "ProtectionChanged", "\"action\":\"REFUSED_UNKNOWN\"");
        assertArrayEquals(before, h.engine.stateHash(), "refusals change nothing");
        // the session's close reuses its slot for its sweep: a full table still sweeps
        line(closed(h, 1), "ProtectionChanged", "\"kind\":\"DISCONNECT\"", "\"action\":\"ARMED\"");
    }

    @Test
    void aResetClosesEverySessionAndTheirGraceStartsThen()
    {
        final EngineHarness h = venue(new EngineConfig());
        opened(h, 1, ALICE, CREDENTIAL, false, true, 1_000);
        opened(h, 2, BOB, 0, true, false, 1_000);
        h.act(ALICE, bid(SPOT, 1_000));
        h.act(BOB, bid(SPOT, 900));
        h.now += 100_000;
        final List<String> reset = h.protection(b -> write.sessionsReset(b, 0));
        line(reset, "ProtectionChanged", "\"kind\":\"DISCONNECT\"", "\"action\":\"ARMED\"",
            "\"deadlineMs\":" + (h.now + 1_000));
        line(reset, "ProtectionChanged", "\"kind\":\"SESSION\"", "\"action\":\"CLOSED\"", "\"sessionId\":2");
        h.now += 1_000;
        assertEquals(1, count(tick(h), "CANCELLED_DISCONNECT"));
        assertTrue(h.protection(b -> write.sessionsReset(b, 0)).isEmpty(), "nothing left open");
    }

    @Test
    void protectionRecordsOfAnOlderVersionOrWithUndefinedValuesAreNotCommands()
    {
        final EngineHarness h = venue(new EngineConfig());
        final ExpandableArrayBuffer record = new ExpandableArrayBuffer(256);
        int length = write.deadManArm(record, 0, ALICE.toBytes(), SPOT, 1_000);
        record.putLong(MessageHeaderEncoder.ENCODED_LENGTH, 1_000_000L);
        new MessageHeaderEncoder().wrap(record, 0).version(JournalRecords.PROTECTIONS_VERSION - 1);
        assertFalse(h.engine.onCommand(record, 0, length), "templates 70-75 exist from version 12");
        length = write.sessionOpened(record, 0, 5, ALICE.toBytes(), 0, true, false, 0);
        record.putLong(MessageHeaderEncoder.ENCODED_LENGTH, 1_000_001L);
        // kind is the byte after the credential: a value the schema does not define
        record.putByte(MessageHeaderEncoder.ENCODED_LENGTH + 8 + 8 + 4 + 8 + 20 + 8, (byte)7);
        assertFalse(h.engine.onCommand(record, 0, length));
        assertEquals(0, h.engine.protectionsInUse());
    }

    @Test
    void damagedProtectionRecordsNeverThrowAndARefusedOneChangesNothing()
    {
        final EngineHarness h = venue(new EngineConfig().protectionCapacity(8));
        h.act(ALICE, bid(SPOT, 1_000));
        final Random random = new Random(26);
        final ExpandableArrayBuffer record = new ExpandableArrayBuffer(256);
        long sequence = 1_000_000;
        long now = h.now;
        int refused = 0;
        for (int round = 0; round < 4_000; round++)
        {
            final int length = switch (random.nextInt(6))
            {
                case 0 -> write.sessionOpened(record, 0, random.nextInt(4), ALICE.toBytes(), random.nextLong(),
                    random.nextBoolean(), random.nextBoolean(), random.nextInt(2_000));
                case 1 -> write.sessionClosed(record, 0, random.nextInt(4));
                case 2 -> write.deadManArm(record, 0, ALICE.toBytes(), random.nextInt(3) == 0 ? -1 : SPOT,
                    random.nextInt(3_000));
                case 3 -> write.cancelOnDisconnectArm(record, 0, BOB.toBytes(), SPOT2, random.nextBoolean(),
                    random.nextInt(500));
                case 4 -> write.tick(record, 0);
                default -> write.sessionsReset(record, 0);
            };
            now += random.nextInt(200);
            record.putLong(MessageHeaderEncoder.ENCODED_LENGTH, ++sequence);
            record.putLong(MessageHeaderEncoder.ENCODED_LENGTH + 8, now);
            // damage: a byte changed anywhere after the stamps, or the record cut short
            final int damaged = random.nextInt(4) == 0 ? 1 + random.nextInt(length - 1) : length;
            if (random.nextBoolean())
            {
                final int at = random.nextInt(length);
                if (at < 8 || at >= MessageHeaderEncoder.ENCODED_LENGTH + 16)
                {
                    record.putByte(at, (byte)random.nextInt(256));
                }
            }
            final byte[] before = h.engine.stateHash();
            if (!h.engine.onCommand(record, 0, damaged))
            {
                refused++;
                assertArrayEquals(before, h.engine.stateHash(),
                    "a refused record changes nothing");
            }
            assertTrue(h.engine.protectionsInUse() <= 8);
        }
        assertTrue(refused > 200, "refused: " + refused);
    }

    /** A stream of every protection command and orders, for the determinism checks. */
    private void stream(final EngineHarness h)
    {
        setUp(h);
        opened(h, 1, ALICE, CREDENTIAL, false, true, 700);
        opened(h, 2, BOB, 0, true, false, 0);
        h.protection(b -> write.cancelOnDisconnectArm(b, 0, BOB.toBytes(), ProtectionCommands.ALL_MARKETS, true, 300));
        for (int round = 0; round < 20; round++)
        {
            h.now += 97;
            h.act(ALICE, bid(round % 2 == 0 ? SPOT : SPOT2, 1_000 + 100 * (round % 5)));
            h.act(BOB, bid(round % 2 == 0 ? SPOT2 : SPOT, 900 + 100 * (round % 3)));
            if (round % 4 == 0)
            {
                deadMan(h, ALICE, round % 8 == 0 ? SPOT : ProtectionCommands.ALL_MARKETS, 350);
            }
            if (round == 6)
            {
                closed(h, 1);
                closed(h, 2);
            }
            if (round == 12)
            {
                opened(h, 3, ALICE, CREDENTIAL, false, true, 500);
                opened(h, 4, BOB, 0, true, false, 0);
            }
            if (round % 3 == 0)
            {
                tick(h);
            }
        }
        h.protection(b -> write.sessionsReset(b, 0));
        h.now += 1_000;
        tick(h);
    }

    @Test
    void replaySeveralShardsAndARestartFromTheStateGiveTheSameEvents(@TempDir final Path folder) throws Exception
    {
        final EngineHarness one = new EngineHarness(new EngineConfig(), true);
        stream(one);
        assertTrue(one.log.lines().stream().anyMatch(l -> l.contains("CANCELLED_DEAD_MAN")));
        assertTrue(one.log.lines().stream().anyMatch(l -> l.contains("CANCELLED_DISCONNECT")));

        final Engine[] replayed = new Engine[1];
        assertArrayEquals(one.log.bytes(),
            EngineHarness.replay(new EngineConfig(), one.commands, one.commandsLength(), replayed));
        assertArrayEquals(one.engine.stateHash(), replayed[0].stateHash());

        final EngineHarness sharded = new EngineHarness(new EngineConfig().shards(2), true);
        stream(sharded);
        assertArrayEquals(one.log.bytes(), sharded.log.bytes(), "two matching shards write the same events");
        sharded.engine.close();

        // half the stream, the state written and the engine closed, then the rest from the stored state
        final EngineState.Context context = new EngineState.Context().directory(folder.resolve("state"))
            .commandsPerFlush(3);
        final int half = one.commandsLength() / 2;
        int position = 0;
        final EventLog first = new EventLog(false);
        try (PersistedEngine persisted = PersistedEngine.open(new EngineConfig().operator(EngineHarness.OPERATOR),
            first, context))
        {
            while (position < half)
            {
                final int length = one.commands.getInt(position);
                persisted.engine().onCommand(one.commands, position + 4, length);
                position += 4 + length;
            }
            persisted.engine().flushState();
        }
        final EventLog rest = new EventLog(false);
        try (PersistedEngine persisted = PersistedEngine.open(new EngineConfig().operator(EngineHarness.OPERATOR),
            rest, context))
        {
            assertTrue(persisted.engine().protectionsInUse() > 0 || position == 0, "the table was stored");
            while (position < one.commandsLength())
            {
                final int length = one.commands.getInt(position);
                persisted.engine().onCommand(one.commands, position + 4, length);
                position += 4 + length;
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
