package io.venue.engine;

import io.venue.engine.index.FixedKeyIndex;
import io.venue.engine.risk.Ledger;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;

import java.nio.ByteOrder;

/**
 * What the credit stage of a pipeline sees while it admits the commands of one group: the balances and open
 * orders as they stood when the group began, plus what the group's own admitted orders hold. Settlement runs
 * on the same thread and changes the live state while the group is admitted, at moments that depend on the
 * matching threads' timing; this view undoes those changes, so every admission is a function of the commands
 * alone.
 * <p>
 * Settlement's changes are learnt as they happen: the ledger shows each cell before its first change
 * ({@link Ledger.Watcher}), {@link Orders} each order it registers or forgets and each reservation before its first
 * change (what an amend is judged on). Everything is forgotten at the next group ({@link #clear}).
 */
final class GroupView implements OrderChecks, Ledger.Watcher, Orders.Listener
{
    private static final long MISSING = Long.MIN_VALUE;

    private final ShardState state;
    /** Ledger cell to its available and locked amounts when the group began (cells changed since only). */
    private final Long2LongHashMap startAvailable = new Long2LongHashMap(64, 0.65f, MISSING);
    private final Long2LongHashMap startLocked = new Long2LongHashMap(64, 0.65f, MISSING);
    /** Ledger cell to what the group's admitted orders hold of it. */
    private final Long2LongHashMap held = new Long2LongHashMap(64, 0.65f, 0);
    /** Open orders per account, and per account and market, added less removed by settlement in this group. */
    private final Long2LongHashMap settledOrders = new Long2LongHashMap(64, 0.65f, 0);
    /** The same, for the orders admitted in this group. */
    private final Long2LongHashMap admittedOrders = new Long2LongHashMap(64, 0.65f, 0);
    /**
     * Order ids admitted in this group to their book; ids settlement removed in it to the handle they had at its start.
     */
    private final FixedKeyIndex admittedIds;
    private final FixedKeyIndex removedIds;
    /**
     * Handle to its order's side (bit 0, set for a bid) and reservation (the rest) when the group began: changed
     * ones only.
     */
    private final Long2LongHashMap startReservations = new Long2LongHashMap(64, 0.65f, MISSING);
    /** Client order ids (account, high, low) admitted in this group, and those settlement removed in it. */
    private final FixedKeyIndex admittedClientIds;
    private final FixedKeyIndex removedClientIds;
    private final long[] key = new long[4];
    /**
     * With the cross-shard credit admission active: per book, what its bids and asks held at the group's start and
     * hold now.
     */
    private final boolean perBook;
    private long[] startBids = new long[0];
    private long[] startAsks = new long[0];
    private long[] heldBids = new long[0];
    private long[] heldAsks = new long[0];

    GroupView(final ShardState state)
    {
        this.state = state;
        this.perBook = state.config.crossShardCreditActive();
        // clients choose the ids: the deployment's seed keeps them from being ground into one probe run
        final long seed = state.config.indexSeed();
        admittedIds = new FixedKeyIndex(4, 64, seed);
        removedIds = new FixedKeyIndex(4, 64, seed);
        admittedClientIds = new FixedKeyIndex(3, 64, seed);
        removedClientIds = new FixedKeyIndex(3, 64, seed);
    }

    /** A new group begins from the state as it is now. */
    void clear()
    {
        startAvailable.clear();
        startLocked.clear();
        held.clear();
        settledOrders.clear();
        admittedOrders.clear();
        admittedIds.clear();
        removedIds.clear();
        startReservations.clear();
        admittedClientIds.clear();
        removedClientIds.clear();
        if (perBook)
        {
            final int books = state.books.length;
            if (startBids.length < books)
            {
                startBids = new long[books];
                startAsks = new long[books];
                heldBids = new long[books];
                heldAsks = new long[books];
            }
            for (int book = 0; book < books; book++)
            {
                startBids[book] = state.orders.reservedIn(book, true);
                startAsks[book] = state.orders.reservedIn(book, false);
                heldBids[book] = 0;
                heldAsks[book] = 0;
            }
        }
    }

    /** What a book's open bids (or asks) held when the group began, plus what the group's orders for it hold. */
    @Override
    public long reservedIn(final int book, final boolean bids)
    {
        return bids ? startBids[book] + heldBids[book] : startAsks[book] + heldAsks[book];
    }

    /** Counts a hold of the group's in its book and side (with the cross-shard credit admission active). */
    void holdIn(final int book, final boolean bids, final long amount)
    {
        if (perBook)
        {
            if (bids)
            {
                heldBids[book] += amount;
            }
            else
            {
                heldAsks[book] += amount;
            }
        }
    }

    @Override
    public void beforeChange(final int cell, final long available, final long locked)
    {
        if (startAvailable.get(cell) == MISSING)
        {
            startAvailable.put(cell, available);
            startLocked.put(cell, locked);
        }
    }

    /** Available to the group's next order: as at the group's start, less what the group's orders hold. */
    @Override
    public long available(final int account, final int asset)
    {
        final int cell = cell(account, asset);
        final long start = startAvailable.get(cell);
        return (start == MISSING ? state.ledger.available(account, asset) : start) - held.get(cell);
    }

    /** Available plus locked as at the group's start (what a reduce-only order may sell). */
    @Override
    public long holding(final int account, final int asset)
    {
        final int cell = cell(account, asset);
        final long start = startAvailable.get(cell);
        return start == MISSING ? state.ledger.available(account, asset) + state.ledger.locked(account, asset) :
            start + startLocked.get(cell);
    }

    /** Locked as at the group's start, plus what the group's orders hold. */
    @Override
    public long locked(final int account, final int asset)
    {
        final int cell = cell(account, asset);
        final long start = startLocked.get(cell);
        return (start == MISSING ? state.ledger.locked(account, asset) : start) + held.get(cell);
    }

    void hold(final int account, final int asset, final long amount)
    {
        held.put(cell(account, asset), held.get(cell(account, asset)) + amount);
    }

    @Override
    public int openOrders(final int account)
    {
        return (int)(state.orders.openOrders(account) - settledOrders.get(accountKey(account)) +
            admittedOrders.get(accountKey(account)));
    }

    @Override
    public int openOrders(final int account, final int market)
    {
        final long key = accountMarketKey(account, market);
        return (int)(state.orders.openOrders(account, market) - settledOrders.get(key) + admittedOrders.get(key));
    }

    /**
     * The book of an order id that was open when the group began or was admitted in it, or
     * {@link FixedKeyIndex#MISSING}: whether it is still open is for its shard to say.
     */
    @Override
    public int bookOf(final DirectBuffer buffer, final int offset)
    {
        loadId(buffer, offset);
        final int admitted = admittedIds.get(key, 0);
        return admitted != FixedKeyIndex.MISSING ? admitted : OrderChecks.book(startHandle());
    }

    /** Whether the group admitted an order with the id at {@code buffer[offset..)}. */
    boolean admittedInGroup(final DirectBuffer buffer, final int offset)
    {
        loadId(buffer, offset);
        return admittedIds.get(key, 0) != FixedKeyIndex.MISSING;
    }

    /**
     * The handle the order with the id at {@code buffer[offset..)} had when the group began, or
     * {@link FixedKeyIndex#MISSING} if none was open then (orders the group admitted are not asked for).
     */
    int startHandle(final DirectBuffer buffer, final int offset)
    {
        loadId(buffer, offset);
        return startHandle();
    }

    /**
     * Of the id in {@link #key}: where it was when first removed in the group, or else where it still is (settlement
     * adds only orders the group admitted, asked for before this, and orders an amend re-entered, removed first).
     */
    private int startHandle()
    {
        final int removed = removedIds.get(key, 0);
        return removed != FixedKeyIndex.MISSING ? removed : state.orders.find(key);
    }

    /** What the order at {@code handle} reserved when the group began (a handle from {@link #startHandle}). */
    long startReservation(final int handle)
    {
        final long start = startReservations.get(handle);
        return start == MISSING ? state.orders.reserved(handle) : start >> 1;
    }

    /** Whether the order at {@code handle} when the group began was a bid. */
    boolean startIsBid(final int handle)
    {
        final long start = startReservations.get(handle);
        return start == MISSING ? state.orders.isBid(handle) : (start & 1) != 0;
    }

    @Override
    public void reservationChanging(final int handle, final boolean isBid, final long reserved)
    {
        if (startReservations.get(handle) == MISSING)
        {
            startReservations.put(handle, reserved << 1 | (isBid ? 1 : 0));
        }
    }

    /**
     * The book of the account's order with this client id if it was open when the group began or was admitted in it,
     * or {@link FixedKeyIndex#MISSING}: whether it is still open is for its shard to say.
     */
    @Override
    public int clientBookOf(final int account, final DirectBuffer buffer, final int offset)
    {
        key[0] = account;
        key[1] = buffer.getLong(offset, ByteOrder.BIG_ENDIAN);
        key[2] = buffer.getLong(offset + 8, ByteOrder.BIG_ENDIAN);
        final int admitted = admittedClientIds.get(key, 0);
        final int known = admitted != FixedKeyIndex.MISSING ? admitted : removedClientIds.get(key, 0);
        // neither: the live index answers, as settlement adds only orders the group admitted or removed first
        return known != FixedKeyIndex.MISSING ? known :
            OrderChecks.book(state.orders.findByClientId(account, buffer, offset));
    }

    /** Counts an order admitted in this group (its id at {@code buffer[offset..)}), bound for {@code book}. */
    void admitted(
        final int account, final int market, final int book, final DirectBuffer buffer, final int offset,
        final boolean withClientId, final long clientHi, final long clientLo)
    {
        add(admittedOrders, accountKey(account), 1);
        final long perMarket = accountMarketKey(account, market);
        add(admittedOrders, perMarket, 1);
        loadId(buffer, offset);
        admittedIds.put(key, 0, book);
        if (withClientId)
        {
            key[0] = account;
            key[1] = clientHi;
            key[2] = clientLo;
            admittedClientIds.put(key, 0, book);
        }
    }

    @Override
    public void added(
        final int handle, final long id0, final long id1, final long id2, final long id3, final int account,
        final int market, final boolean withClientId, final long clientHi, final long clientLo)
    {
        add(settledOrders, accountKey(account), 1);
        final long perMarket = accountMarketKey(account, market);
        add(settledOrders, perMarket, 1);
    }

    @Override
    public void removed(
        final int handle, final long id0, final long id1, final long id2, final long id3, final int account,
        final int market, final boolean withClientId, final long clientHi, final long clientLo)
    {
        add(settledOrders, accountKey(account), -1);
        final long perMarket = accountMarketKey(account, market);
        add(settledOrders, perMarket, -1);
        key[0] = id0;
        key[1] = id1;
        key[2] = id2;
        key[3] = id3;
        // an amend may remove and add an order again in one group: its first removal is where it was at the start
        if (removedIds.get(key, 0) == FixedKeyIndex.MISSING)
        {
            removedIds.put(key, 0, handle);
        }
        if (withClientId)
        {
            key[0] = account;
            key[1] = clientHi;
            key[2] = clientLo;
            removedClientIds.put(key, 0, Orders.bookOf(handle));
        }
    }

    /** Adds to a count kept with 0 as its missing value (a count back at 0 leaves the map). */
    private static void add(final Long2LongHashMap counts, final long key, final long delta)
    {
        final long value = counts.get(key) + delta;
        if (value == 0)
        {
            counts.remove(key);
        }
        else
        {
            counts.put(key, value);
        }
    }

    private int cell(final int account, final int asset)
    {
        return account * state.ledger.assetCapacity() + asset;
    }

    /** Accounts and (account, market) pairs share one map: an account alone has the top bit set. */
    private static long accountKey(final int account)
    {
        return Long.MIN_VALUE | account;
    }

    private static long accountMarketKey(final int account, final int market)
    {
        return ((long)account << 32) | (market & 0xFFFF_FFFFL);
    }

    private void loadId(final DirectBuffer buffer, final int offset)
    {
        for (int word = 0; word < 4; word++)
        {
            key[word] = buffer.getLong(offset + 8 * word, ByteOrder.BIG_ENDIAN);
        }
    }
}
