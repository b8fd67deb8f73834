package io.venue.engine.state;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.Arrays;

import static io.venue.engine.state.TestBytes.address;
import static io.venue.engine.state.TestBytes.inBuffer;
import static io.venue.engine.state.TestBytes.orderId;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Insert, read, update in place and remove for every store, on real files and in memory. */
class StoresTest
{
    @TempDir
    Path folder;

    private EngineState state;

    @AfterEach
    void close()
    {
        if (null != state)
        {
            state.close();
        }
    }

    private EngineState open(final boolean persisted) throws StateUnusableException
    {
        state = EngineState.open(new EngineState.Context().directory(folder).persisted(persisted)
            .sizeFor(1_000, 1_000));
        return state;
    }

    @ParameterizedTest(name = "persisted={0}")
    @ValueSource(booleans = {true, false})
    void nonceWindows(final boolean persisted) throws Exception
    {
        final NonceWindowStore store = open(persisted).nonceWindows();
        final byte[] account = address(1);
        final UnsafeBuffer wire = inBuffer(account, 13);
        final NonceWindow window = new NonceWindow();

        assertNull(store.find(wire, 13, window));
        assertFalse(window.isBound());
        assertSame(window, store.acquire(wire, 13, window));
        assertEquals(0, window.floor());
        for (int i = 0; i < NonceWindow.WORD_COUNT; i++)
        {
            assertEquals(0, window.word(i));
        }

        window.floor(Long.MIN_VALUE + 5).set(0).set(63).set(64).set(255);
        final NonceWindow read = new NonceWindow();
        assertSame(read, store.find(account, read));
        assertEquals(Long.MIN_VALUE + 5, read.floor());
        assertEquals(1L | 1L << 63, read.word(0));
        assertEquals(1L, read.word(1));
        assertEquals(0, read.word(2));
        assertEquals(1L << 63, read.word(3));
        assertTrue(read.isSet(255));
        assertFalse(read.isSet(254));

        store.acquire(account, window).clear(63).floor(7);
        assertEquals(7, store.find(wire, 13, read).floor());
        assertFalse(read.isSet(63));
        read.clearBits();
        assertEquals(0, store.find(account, window).word(0));
        assertEquals(7, window.floor());

        assertEquals(1, store.size());
        assertNull(store.find(address(2), read));
        assertTrue(store.remove(wire, 13));
        assertFalse(store.remove(account));
        assertNull(store.find(account, read));
        assertEquals(0, store.size());
        assertEquals(0, store.acquire(account, window).floor());
    }

    @ParameterizedTest(name = "persisted={0}")
    @ValueSource(booleans = {true, false})
    void balances(final boolean persisted) throws Exception
    {
        final BalanceStore store = open(persisted).balances();
        final byte[] account = address(3);
        final UnsafeBuffer wire = inBuffer(account, 5);
        final Balance usd = new Balance();
        final Balance btc = new Balance();

        assertNull(store.find(account, 1, usd));
        store.acquire(wire, 5, 1, usd).available(1_000).locked(25);
        store.acquire(account, 0xFFFF_FFFF, btc).available(-3).locked(Long.MAX_VALUE);
        // two flyweights stay on their own entries
        assertEquals(1_000, usd.available());
        assertEquals(-3, btc.available());

        final Balance read = new Balance();
        assertEquals(1_000, store.find(account, 1, read).available());
        assertEquals(25, read.locked());
        assertEquals(Long.MAX_VALUE, store.find(wire, 5, 0xFFFF_FFFF, read).locked());
        assertNull(store.find(address(4), 1, read));
        assertNull(store.find(account, 2, read));

        store.acquire(account, 1, usd).available(usd.available() - 100).locked(usd.locked() + 100);
        assertEquals(900, store.find(account, 1, read).available());
        assertEquals(125, read.locked());

        assertEquals(2, store.size());
        assertTrue(store.remove(account, 1));
        assertFalse(store.remove(wire, 5, 1));
        assertNull(store.find(account, 1, read));
        assertEquals(-3, store.find(account, 0xFFFF_FFFF, read).available());
        assertEquals(1, store.size());
    }

    @ParameterizedTest(name = "persisted={0}")
    @ValueSource(booleans = {true, false})
    void positions(final boolean persisted) throws Exception
    {
        final PositionStore store = open(persisted).positions();
        final byte[] account = address(5);
        final UnsafeBuffer wire = inBuffer(account, 1);
        final Position position = new Position();

        assertNull(store.find(wire, 1, 9, position));
        store.acquire(wire, 1, 9, position).yesShares(10).noShares(4);
        final Position read = new Position();
        assertEquals(10, store.find(account, 9, read).yesShares());
        assertEquals(4, read.noShares());
        assertNull(store.find(account, 10, read));

        store.acquire(account, 9, position).noShares(position.noShares() + 6);
        assertEquals(10, store.find(account, 9, read).noShares());
        assertTrue(store.remove(account, 9));
        assertFalse(store.remove(wire, 1, 9));
        assertNull(store.find(account, 9, read));
    }

    @ParameterizedTest(name = "persisted={0}")
    @ValueSource(booleans = {true, false})
    void openOrders(final boolean persisted) throws Exception
    {
        final OpenOrderStore store = open(persisted).openOrders();
        final byte[] id = orderId(1);
        final UnsafeBuffer wire = inBuffer(id, 3);
        final byte[] account = address(6);
        final byte[] clientOrderId = TestBytes.bytes(16, 99);
        final OpenOrder order = new OpenOrder();

        assertNull(store.find(id, order));
        assertSame(order, store.insert(wire, 3, order));
        assertEquals(0, order.remainingQty());
        assertFalse(order.hasClientOrderId());
        OpenOrderFixtures.fill(order, account, clientOrderId, 42);

        final OpenOrder read = new OpenOrder();
        assertNull(store.insert(id, read), "a duplicate id is refused");
        assertNotNull(store.find(wire, 3, read));
        OpenOrderFixtures.assertFilled(read, account, clientOrderId, 42);
        assertTrue(read.accountEquals(inBuffer(account, 2), 2));
        assertTrue(read.clientOrderIdEquals(inBuffer(clientOrderId, 0), 0));

        store.find(id, order).remainingQty(3).reservedCredit(300).clearClientOrderId();
        assertEquals(3, store.find(id, read).remainingQty());
        assertEquals(300, read.reservedCredit());
        assertFalse(read.hasClientOrderId());
        assertFalse(read.clientOrderIdEquals(inBuffer(new byte[16], 0), 0));
        final byte[] cleared = new byte[16];
        read.getClientOrderId(cleared, 0);
        assertArrayEquals(new byte[16], cleared);

        assertEquals(1, store.size());
        assertTrue(store.remove(wire, 3));
        assertFalse(store.remove(id));
        assertNull(store.find(id, read));
        assertNotNull(store.insert(id, order), "the id is free again");
        assertEquals(0, order.price());
    }

    @ParameterizedTest(name = "persisted={0}")
    @ValueSource(booleans = {true, false})
    void agents(final boolean persisted) throws Exception
    {
        final NumberedStore<Agent> store = open(persisted).agents();
        final byte[] owner = address(8);
        final byte[] publicKey = TestBytes.bytes(32, 77);
        final Agent agent = new Agent();

        assertNull(store.find(7, agent));
        assertSame(agent, store.acquire(7, agent));
        agent.owner(owner).agentId(0x0102030405060708L).scopes((byte)0x85).kind((byte)2).state((byte)1)
            .expiresAtMs(1_900_000_000_000L).validUntilMs(1_800_000_000_000L).ed25519PublicKey(publicKey);
        assertEquals(0x0102030405060708L, store.acquire(7, new Agent()).agentId(), "acquire finds the record");

        final Agent read = new Agent();
        assertSame(read, store.find(7, read));
        final byte[] bytes = new byte[32];
        read.getOwner(bytes, 3);
        assertArrayEquals(owner, Arrays.copyOfRange(bytes, 3, 23));
        assertTrue(read.ownerEquals(inBuffer(owner, 1), 1));
        assertEquals(0x0102030405060708L, read.agentId());
        assertEquals((byte)0x85, read.scopes());
        assertEquals(2, read.kind());
        assertEquals(1, read.state());
        assertEquals(1_900_000_000_000L, read.expiresAtMs());
        assertEquals(1_800_000_000_000L, read.validUntilMs());
        read.getEd25519PublicKey(bytes, 0);
        assertArrayEquals(publicKey, bytes);

        store.find(7, agent).state((byte)3).validUntilMs(5).clearEd25519PublicKey();
        assertEquals(3, store.find(7, read).state());
        assertEquals(5, read.validUntilMs());
        read.getEd25519PublicKey(bytes, 0);
        assertArrayEquals(new byte[32], bytes);

        assertEquals(1, store.size());
        assertTrue(store.remove(7));
        assertFalse(store.remove(7));
        assertNull(store.find(7, read));
    }
}
