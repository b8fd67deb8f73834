package io.venue.engine;

import io.venue.engine.index.FixedKeyIndex;
import org.agrona.DirectBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongArrayList;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * What the engine knows about open orders beyond the book: the order-id index, the client-order-id index,
 * each order's remaining credit reservation, and open-order counts per account and per account and
 * market. An order is named by a handle, {@code book << 20 | slot}.
 */
final class Orders
{
    static final int SLOT_BITS = 20;
    static final int MAX_SLOTS_PER_BOOK = 1 << SLOT_BITS;
    private static final int SLOT_MASK = MAX_SLOTS_PER_BOOK - 1;

    private final FixedKeyIndex byId;
    private final FixedKeyIndex byClientId;
    private final Long2LongHashMap openPerAccountMarket = new Long2LongHashMap(0);
    private final long[] idKey = new long[4];
    private final long[] clientKey = new long[3];
    private final int slotsPerBook;

    private long[][] reserved = new long[0][];
    private long[][] clientIdHi = new long[0][];
    private long[][] clientIdLo = new long[0][];
    private boolean[][] hasClientId = new boolean[0][];
    private boolean[][] bid = new boolean[0][];
    /** Per book: what its open bids, and its open asks, hold (the cross-shard credit's per-market locked amounts). */
    private long[] bidsReserved = new long[0];
    private long[] asksReserved = new long[0];
    private final boolean bookTotals;
    private int[] openPerAccount = new int[64];
    private Listener listener;

    /** For a write-through mirror: handles that rested or changed, and the ids (4 longs each) of orders that left. */
    private IntArrayList touched;
    private LongArrayList removed;
    private boolean[][] touchedMark = new boolean[0][];

    /**
     * @param bookTotals whether to keep what each book's bids and asks hold ({@link #reservedIn}): only spec 8.6's
     *                   admission reads them, so an engine without it does not pay for them on every fill.
     */
    Orders(final int slotsPerBook, final int expectedOrders, final long indexSeed, final boolean bookTotals)
    {
        this.bookTotals = bookTotals;
        this.slotsPerBook = slotsPerBook;
        byId = new FixedKeyIndex(4, expectedOrders, indexSeed);
        byClientId = new FixedKeyIndex(3, expectedOrders, indexSeed);
    }

    static int handle(final int book, final int slot)
    {
        return book << SLOT_BITS | slot;
    }

    static int bookOf(final int handle)
    {
        return handle >>> SLOT_BITS;
    }

    static int slotOf(final int handle)
    {
        return handle & SLOT_MASK;
    }

    /**
     * Told of every order registered or forgotten, after the change, and of every reservation before it changes
     * ({@link #listen}).
     */
    interface Listener
    {
        void added(int handle, long id0, long id1, long id2, long id3, int account, int market,
            boolean withClientId, long clientHi, long clientLo);

        void removed(int handle, long id0, long id1, long id2, long id3, int account, int market,
            boolean withClientId, long clientHi, long clientLo);

        /** Before a registered order's reservation changes or it is forgotten: its side and reservation until now. */
        default void reservationChanging(final int handle, final boolean isBid, final long reserved)
        {
        }
    }

    /** From now on tells {@code listener} of every add, remove and reservation change (null: nobody). */
    void listen(final Listener listener)
    {
        this.listener = listener;
    }

    /** Makes room for the extras of a new book. */
    void addBook(final int book)
    {
        if (book >= reserved.length)
        {
            final int capacity = Math.max(book + 1, reserved.length * 2);
            reserved = Arrays.copyOf(reserved, capacity);
            clientIdHi = Arrays.copyOf(clientIdHi, capacity);
            clientIdLo = Arrays.copyOf(clientIdLo, capacity);
            hasClientId = Arrays.copyOf(hasClientId, capacity);
            bid = Arrays.copyOf(bid, capacity);
            bidsReserved = Arrays.copyOf(bidsReserved, capacity);
            asksReserved = Arrays.copyOf(asksReserved, capacity);
            touchedMark = Arrays.copyOf(touchedMark, capacity);
        }
        reserved[book] = new long[slotsPerBook];
        clientIdHi[book] = new long[slotsPerBook];
        clientIdLo[book] = new long[slotsPerBook];
        hasClientId[book] = new boolean[slotsPerBook];
        bid[book] = new boolean[slotsPerBook];
        touchedMark[book] = new boolean[slotsPerBook];
    }

    /**
     * From now on, record what changes for a write-through mirror: the handle of every order that rests or whose
     * remaining quantity or reservation changes goes to {@code touched} (once until {@link #clearChanges}), and
     * the id of every order that leaves goes to {@code removed}. A slot freed and reused in one command is in
     * both: apply the removals first.
     */
    void track(final IntArrayList touched, final LongArrayList removed)
    {
        this.touched = touched;
        this.removed = removed;
    }

    /** Notes that a resting order changed (a fill, a smaller quantity): its record must be written again. */
    void touch(final int handle)
    {
        if (null != touched)
        {
            final boolean[] marks = touchedMark[bookOf(handle)];
            if (!marks[slotOf(handle)])
            {
                marks[slotOf(handle)] = true;
                touched.addInt(handle);
            }
        }
    }

    /** Empties the change lists after the mirror wrote them. */
    void clearChanges()
    {
        for (int i = 0, n = touched.size(); i < n; i++)
        {
            final int handle = touched.getInt(i);
            touchedMark[bookOf(handle)][slotOf(handle)] = false;
        }
        touched.clear();
        removed.clear();
    }

    /** The handle of the order id at {@code buffer[offset, offset + 32)}, or {@link FixedKeyIndex#MISSING}. */
    int find(final DirectBuffer buffer, final int offset)
    {
        loadId(buffer, offset);
        return byId.get(idKey, 0);
    }

    /** As {@link #find(DirectBuffer, int)} for an id already in four big-endian words. */
    int find(final long[] id)
    {
        return byId.get(id, 0);
    }

    /** The handle of the account's open order with this client order id, or {@link FixedKeyIndex#MISSING}. */
    int findByClientId(final int account, final DirectBuffer buffer, final int offset)
    {
        loadClientKey(account, buffer, offset);
        return byClientId.get(clientKey, 0);
    }

    /** Registers a resting order. The id words are big-endian, as the book holds them. */
    void add(
        final int handle,
        final long id0,
        final long id1,
        final long id2,
        final long id3,
        final int account,
        final int market,
        final boolean isBid,
        final long reservation,
        final boolean withClientId,
        final long clientHi,
        final long clientLo)
    {
        idKey[0] = id0;
        idKey[1] = id1;
        idKey[2] = id2;
        idKey[3] = id3;
        byId.put(idKey, 0, handle);
        final int book = bookOf(handle);
        final int slot = slotOf(handle);
        reserved[book][slot] = reservation;
        bid[book][slot] = isBid;
        addReserved(book, slot, reservation);
        hasClientId[book][slot] = withClientId;
        clientIdHi[book][slot] = clientHi;
        clientIdLo[book][slot] = clientLo;
        if (withClientId)
        {
            clientKey[0] = account;
            clientKey[1] = clientHi;
            clientKey[2] = clientLo;
            byClientId.put(clientKey, 0, handle);
        }
        ensureAccount(account);
        openPerAccount[account]++;
        openPerAccountMarket.merge(accountMarketKey(account, market), 1, Orders::sum);
        touch(handle);
        if (null != listener)
        {
            listener.added(handle, id0, id1, id2, id3, account, market, withClientId, clientHi, clientLo);
        }
    }

    /** Forgets an order that left the book. */
    void remove(
        final int handle, final long id0, final long id1, final long id2, final long id3, final int account,
        final int market)
    {
        idKey[0] = id0;
        idKey[1] = id1;
        idKey[2] = id2;
        idKey[3] = id3;
        byId.remove(idKey, 0);
        if (null != removed)
        {
            removed.addLong(id0);
            removed.addLong(id1);
            removed.addLong(id2);
            removed.addLong(id3);
        }
        final int book = bookOf(handle);
        final int slot = slotOf(handle);
        reservationChanging(handle, book, slot);
        final boolean withClientId = hasClientId[book][slot];
        if (withClientId)
        {
            clientKey[0] = account;
            clientKey[1] = clientIdHi[book][slot];
            clientKey[2] = clientIdLo[book][slot];
            byClientId.remove(clientKey, 0);
            hasClientId[book][slot] = false;
        }
        addReserved(book, slot, -reserved[book][slot]);
        reserved[book][slot] = 0;
        openPerAccount[account]--;
        // one probe; a count that reaches 0 (the map's missing value) removes its entry
        openPerAccountMarket.merge(accountMarketKey(account, market), -1, Orders::sum);
        if (null != listener)
        {
            listener.removed(handle, id0, id1, id2, id3, account, market, withClientId, clientIdHi[book][slot],
                clientIdLo[book][slot]);
        }
    }

    private static long sum(final long a, final long b)
    {
        return a + b;
    }

    long reserved(final int handle)
    {
        return reserved[bookOf(handle)][slotOf(handle)];
    }

    void reserved(final int handle, final long value)
    {
        final int book = bookOf(handle);
        final int slot = slotOf(handle);
        reservationChanging(handle, book, slot);
        addReserved(book, slot, value - reserved[book][slot]);
        reserved[book][slot] = value;
        touch(handle);
    }

    private void reservationChanging(final int handle, final int book, final int slot)
    {
        if (null != listener)
        {
            listener.reservationChanging(handle, bid[book][slot], reserved[book][slot]);
        }
    }

    private void addReserved(final int book, final int slot, final long amount)
    {
        if (!bookTotals)
        {
            return;
        }
        if (bid[book][slot])
        {
            bidsReserved[book] += amount;
        }
        else
        {
            asksReserved[book] += amount;
        }
    }

    /**
     * What the open bids (or asks) of a book hold: bids lock the market's quote asset, asks the book's base. Kept only
     * with spec 8.6's admission active; 0 otherwise.
     */
    long reservedIn(final int book, final boolean bids)
    {
        return book < bidsReserved.length ? (bids ? bidsReserved[book] : asksReserved[book]) : 0;
    }

    /** Whether a registered order is a bid (which locks the quote asset) rather than an ask (the book's base). */
    boolean isBid(final int handle)
    {
        return bid[bookOf(handle)][slotOf(handle)];
    }

    boolean hasClientId(final int handle)
    {
        return hasClientId[bookOf(handle)][slotOf(handle)];
    }

    long clientIdHi(final int handle)
    {
        return clientIdHi[bookOf(handle)][slotOf(handle)];
    }

    long clientIdLo(final int handle)
    {
        return clientIdLo[bookOf(handle)][slotOf(handle)];
    }

    int openOrders(final int account)
    {
        return account < openPerAccount.length ? openPerAccount[account] : 0;
    }

    int openOrders(final int account, final int market)
    {
        return (int)openPerAccountMarket.get(accountMarketKey(account, market));
    }

    int size()
    {
        return byId.size();
    }

    private void ensureAccount(final int account)
    {
        if (account >= openPerAccount.length)
        {
            openPerAccount = Arrays.copyOf(openPerAccount, Math.max(account + 1, openPerAccount.length * 2));
        }
    }

    private static long accountMarketKey(final int account, final int market)
    {
        return ((long)account << 32) | (market & 0xFFFF_FFFFL);
    }

    private void loadId(final DirectBuffer buffer, final int offset)
    {
        idKey[0] = buffer.getLong(offset, ByteOrder.BIG_ENDIAN);
        idKey[1] = buffer.getLong(offset + 8, ByteOrder.BIG_ENDIAN);
        idKey[2] = buffer.getLong(offset + 16, ByteOrder.BIG_ENDIAN);
        idKey[3] = buffer.getLong(offset + 24, ByteOrder.BIG_ENDIAN);
    }

    private void loadClientKey(final int account, final DirectBuffer buffer, final int offset)
    {
        clientKey[0] = account;
        clientKey[1] = buffer.getLong(offset, ByteOrder.BIG_ENDIAN);
        clientKey[2] = buffer.getLong(offset + 8, ByteOrder.BIG_ENDIAN);
    }
}
