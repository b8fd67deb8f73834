package io.venue.engine;

import io.venue.engine.onboard.FixOnboardingTable;
import io.venue.engine.state.FixOnboardingRecord;
import io.venue.engine.state.ProtectionRecord;
import io.venue.action.Side;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.engine.book.OrderBook;
import io.venue.engine.book.PlaceRequest;
import io.venue.engine.index.FixedKeyIndex;
import io.venue.engine.limit.TokenBucket;
import io.venue.engine.market.Assets;
import io.venue.engine.market.MarketKind;
import io.venue.engine.market.Markets;
import io.venue.engine.state.AccountIdKey;
import io.venue.engine.state.Agent;
import io.venue.engine.state.AssetRecord;
import io.venue.engine.state.Credential;
import io.venue.engine.state.EngineState;
import io.venue.engine.state.MarketRecord;
import io.venue.engine.state.NonceWindow;
import io.venue.engine.state.StateMeta;
import io.venue.engine.state.StateUnusableException;
import io.venue.journal.sbe.AgentState;
import io.venue.journal.sbe.Book;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Rebuilds a fresh engine's in-memory state from a consistent stored state, at start-up. Everything is put
 * back in the engine's own numbering, so tables, the state hash and later events are those of an engine that
 * never stopped:
 * <ol>
 *   <li>accounts sorted by the number kept in their nonce-window record, then numbered again in that order,
 *   with their nonce windows, rate buckets and kill switches;</li>
 *   <li>ledger assets and markets by number (with halt and kill switches), and the books they own;</li>
 *   <li>balances and outcome positions, each copied into its ledger cell;</li>
 *   <li>agents and credentials by number;</li>
 *   <li>open orders sorted by priority sequence and put back into their books with {@link OrderBook#restore}:
 *   no matching, no events;</li>
 *   <li>the priority counter and the venue kill switch from the meta page.</li>
 * </ol>
 * Hash-ordered iteration is used only where it is sorted away (accounts, orders) or where each entry lands in
 * its own cell (balances, positions). A stored state that does not hold together (a gap in a numbering, a
 * reference to an unknown account, an order that no longer fits its book) is refused as
 * {@code MAP_FILE_CORRUPT}: the caller replays the journal instead. Allocates freely: start-up only.
 */
final class StateRestore
{
    private final ShardState state;
    private final EngineState stored;
    private final UnsafeBuffer address = new UnsafeBuffer(new byte[20]);
    private String problem;

    private StateRestore(final ShardState state, final EngineState stored)
    {
        this.state = state;
        this.stored = stored;
    }

    /** Fills {@code state}, which must be fresh, from {@code stored}. */
    static void restore(final ShardState state, final EngineState stored) throws StateUnusableException
    {
        if (state.accounts.count() != 0 || state.markets.count() != 0)
        {
            throw new IllegalStateException("restore needs a fresh engine");
        }
        final StateRestore restore = new StateRestore(state, stored);
        restore.accounts();
        restore.assetsAndMarkets();
        restore.balances();
        restore.agents();
        restore.orders();
        restore.protections();
        restore.fixOnboarding();
        state.recomputeSupply();
        state.priority = stored.meta().priority();
        state.venueKilled = (stored.meta().venueFlags() & StateMeta.VENUE_KILLED) != 0;
    }

    /**
     * The protection table, slot by slot: slots are the map's keys (a free slot has no entry), so the table comes back
     * as it was, whatever order the map holds them in.
     */
    private void protections() throws StateUnusableException
    {
        final ProtectionRecord record = new ProtectionRecord();
        final byte[] account = new byte[20];
        final int capacity = state.protections.capacity();
        final long stored = this.stored.protections().size();
        if (stored > capacity)
        {
            throw corrupt("the state holds " + stored + " protections, more than the engine's " + capacity);
        }
        long found = 0;
        for (int slot = 0; slot < capacity && found < stored; slot++)
        {
            if (null == this.stored.protections().find(slot, record))
            {
                continue;
            }
            found++;
            record.getAccount(account);
            if (!state.protections.restore(slot, record.kind(), account, record.market(), record.credential(),
                record.session(), record.deadline(), record.grace(), record.sweeps(), record.sessionKind()))
            {
                throw corrupt("protection slot " + slot + " holds kind " + record.kind());
            }
        }
        if (found != stored)
        {
            throw corrupt("protections outside the engine's " + capacity + " slots");
        }
    }

    /** The FIX onboarding table: slots 0 to size - 1, each back in its own slot and index. */
    private void fixOnboarding() throws StateUnusableException
    {
        final FixOnboardingRecord record = new FixOnboardingRecord();
        final int[] markets = new int[FixOnboardingTable.MAX_MARKETS];
        final long stored = this.stored.fixOnboarding().size();
        if (stored > state.fixOnboarding.capacity())
        {
            throw corrupt("the state holds " + stored + " FIX onboarding records, more than the engine's " +
                state.fixOnboarding.capacity());
        }
        for (int slot = 0; slot < stored; slot++)
        {
            if (null == this.stored.fixOnboarding().find(slot, record))
            {
                throw corrupt("FIX onboarding slot " + slot + " is missing below " + stored);
            }
            for (int m = 0; m < markets.length; m++)
            {
                markets[m] = record.market(m);
            }
            if (!state.fixOnboarding.restore(slot, record.credential(), record.flags(), record.marketCount(), markets,
                record.tier(), record.grace()))
            {
                throw corrupt("FIX onboarding slot " + slot + " breaks the table's rules");
            }
        }
    }

    private void accounts() throws StateUnusableException
    {
        final int count = count(stored.nonceWindows().size(), "nonce windows");
        final byte[][] addresses = new byte[count][];
        // FQN-CLASH: the nonce window's layout (NonceWindow here is the stored flyweight)
        final long[] nonce = new long[io.venue.engine.nonce.NonceWindow.WORDS * count];
        final long[] rate = new long[TokenBucket.WORDS * count];
        final boolean[] killed = new boolean[count];
        final int[] owners = new int[count];
        stored.nonceWindows().forEach((key, window) ->
        {
            final int account = window.account();
            if (account < 0 || account >= count || null != addresses[account])
            {
                fail("account number " + account + " is out of 0.." + (count - 1) + " or given twice");
                return;
            }
            addresses[account] = new byte[20];
            key.getAddress(addresses[account], 0);
            // FQN-CLASH: the nonce window's layout (NonceWindow here is the stored flyweight)
            final int base = io.venue.engine.nonce.NonceWindow.WORDS * account;
            nonce[base] = window.floor();
            for (int i = 0; i < NonceWindow.WORD_COUNT; i++)
            {
                nonce[base + 1 + i] = window.word(i);
            }
            rate[TokenBucket.WORDS * account] = window.rateDeficit();
            rate[TokenBucket.WORDS * account + 1] = window.rateUpdatedMs();
            killed[account] = (window.flags() & NonceWindow.KILLED) != 0;
            owners[account] = window.vaultOwner();
        });
        check();
        for (int account = 0; account < count; account++)
        {
            address.putBytes(0, addresses[account]);
            if (state.addAccount(address, 0) != account)
            {
                fail("the address of account " + account + " is stored twice");
                check();
            }
        }
        System.arraycopy(nonce, 0, state.nonceWords, 0, nonce.length);
        System.arraycopy(rate, 0, state.rateWords, 0, rate.length);
        System.arraycopy(killed, 0, state.accountKilled, 0, count);
        System.arraycopy(owners, 0, state.vaultOwner, 0, count);
    }

    private boolean isShare(final int asset)
    {
        return asset >= 0 && asset < state.assets.count() && state.assets.publicId(asset) < 0;
    }

    private void assetsAndMarkets() throws StateUnusableException
    {
        final AssetRecord asset = new AssetRecord();
        for (int a = 0, n = count(stored.assets().size(), "assets"); a < n; a++)
        {
            if (null == stored.assets().find(a, asset))
            {
                throw corrupt("asset " + a + " of " + n + " is missing");
            }
            final int number = asset.publicId() < 0 ? state.assets.addShare() : state.assets.add(asset.publicId());
            if (number != a)
            {
                throw corrupt("asset " + a + " (id " + asset.publicId() + ") does not fit the ledger");
            }
        }
        final MarketRecord market = new MarketRecord();
        final Markets markets = state.markets;
        for (int m = 0, n = count(stored.markets().size(), "markets"); m < n; m++)
        {
            if (null == stored.markets().find(m, market))
            {
                throw corrupt("market " + m + " of " + n + " is missing");
            }
            final MarketKind kind = MarketKind.values()[market.kind()];
            if (markets.add(market.marketId(), kind, market.baseOrYes(), market.no(), market.quote(),
                market.tickSize(), market.lotSize(), market.minQty()) != m)
            {
                throw corrupt("market " + m + " is out of order");
            }
            markets.halted(m, market.halted());
            markets.killed(m, market.killed());
            state.addBook(2 * m);
            if (kind == MarketKind.OUTCOME)
            {
                if (!isShare(market.baseOrYes()) || !isShare(market.no()) || market.baseOrYes() == market.no())
                {
                    throw corrupt(
                        "outcome market " + m + " names shares " + market.baseOrYes() + " and " + market.no());
                }
                state.ledger.pairShares(market.baseOrYes(), market.no());
                state.addBook(2 * m + 1);
            }
        }
    }

    private void balances() throws StateUnusableException
    {
        stored.balances().forEach((key, balance) ->
        {
            final int account = account(key);
            final int asset = state.assets.find(key.id() & 0xFFFF_FFFFL);
            if (account < 0 || asset == Assets.MISSING)
            {
                fail("a balance names an unknown account or asset " + (key.id() & 0xFFFF_FFFFL));
                return;
            }
            state.ledger.restore(account, asset, balance.available(), balance.locked());
        });
        check();
        stored.positions().forEach((key, position) ->
        {
            final int account = account(key);
            final int market = state.markets.find(key.id() & 0xFFFF_FFFFL);
            if (account < 0 || market == Markets.MISSING || state.markets.kind(market) != MarketKind.OUTCOME)
            {
                fail("a position names an unknown account or outcome market " + (key.id() & 0xFFFF_FFFFL));
                return;
            }
            state.ledger.restore(account, state.markets.baseAssetOfBook(2 * market), position.yesShares(),
                position.yesLocked());
            state.ledger.restore(account, state.markets.baseAssetOfBook(2 * market + 1), position.noShares(),
                position.noLocked());
        });
        check();
    }

    private void agents() throws StateUnusableException
    {
        final Agent agent = new Agent();
        for (int a = 0, n = count(stored.agents().size(), "agents"); a < n; a++)
        {
            if (null == stored.agents().find(a, agent))
            {
                throw corrupt("agent " + a + " of " + n + " is missing");
            }
            agent.getOwner(address, 0);
            final int owner = state.accounts.find(address, 0);
            if (owner == FixedKeyIndex.MISSING)
            {
                throw corrupt("agent " + a + " names an unknown owner");
            }
            state.agents.restoreAgent(agent.agentId(), owner, agent.scopes() & 0xFF, agent.expiresAtMs(),
                agent.state() == AgentState.REVOKED.value());
        }
        final Credential credential = new Credential();
        for (int c = 0, n = count(stored.credentials().size(), "credentials"); c < n; c++)
        {
            if (null == stored.credentials().find(c, credential))
            {
                throw corrupt("credential " + c + " of " + n + " is missing");
            }
            if (credential.agent() < 0 || credential.agent() >= state.agents.agentCount())
            {
                throw corrupt("credential " + c + " names an unknown agent " + credential.agent());
            }
            final boolean signs = (credential.flags() & Credential.SIGNS) != 0;
            if (signs)
            {
                credential.getSigner(address, 0);
            }
            state.agents.restoreCredential(credential.agent(), credential.credentialId(), signs ? address : null, 0,
                credential.validUntilMs(), (credential.flags() & Credential.REVOKED) != 0);
        }
    }

    private void orders() throws StateUnusableException
    {
        final List<StoredOrder> orders = new ArrayList<>((int)Math.min(Integer.MAX_VALUE, stored.openOrders().size()));
        stored.openOrders().forEach((key, order) ->
        {
            final StoredOrder copy = new StoredOrder();
            key.getOrderId(copy.id, 0);
            order.getAccount(copy.account, 0);
            copy.marketId = order.market() & 0xFFFF_FFFFL;
            copy.price = order.price();
            copy.originalQty = order.originalQty();
            copy.remainingQty = order.remainingQty();
            copy.expiresAt = order.expiresAt();
            copy.priority = order.prioritySequence();
            copy.reserved = order.reservedCredit();
            copy.withClientId = order.hasClientOrderId();
            order.getClientOrderId(copy.clientId, 0);
            copy.book = order.book();
            copy.side = order.side();
            copy.timeInForce = order.timeInForce();
            copy.stp = order.stp();
            orders.add(copy);
        });
        // hash order out, time priority in: each book gets its orders back in the order they queued
        orders.sort(Comparator.comparingLong(o -> o.priority));
        final PlaceRequest request = new PlaceRequest();
        final UnsafeBuffer id = new UnsafeBuffer(new byte[32]);
        final UnsafeBuffer client = new UnsafeBuffer(new byte[16]);
        for (final StoredOrder order : orders)
        {
            address.putBytes(0, order.account);
            final int account = state.accounts.find(address, 0);
            final int market = state.markets.find(order.marketId);
            if (account == FixedKeyIndex.MISSING || market == Markets.MISSING ||
                order.side < 0 || order.side > 1 || order.timeInForce < 0 ||
                order.timeInForce >= TimeInForce.values().length ||
                order.stp < -1 || order.stp >= StpMode.values().length)
            {
                throw corrupt("an open order names an unknown account or market, or holds an unknown code");
            }
            final int book = 2 * market + (order.book == Book.NO.value() ? 1 : 0);
            final OrderBook orderBook = state.books[book];
            id.putBytes(0, order.id);
            request.reset()
                .orderId(id, 0)
                .accountIndex(account)
                .side(Side.values()[order.side])
                .price(order.price)
                .qty(order.originalQty)
                .timeInForce(TimeInForce.values()[order.timeInForce])
                .stpMode(order.stp < 0 ? null : StpMode.values()[order.stp])
                .market(false)
                .expiresAt(order.expiresAt == 0 ? OrderBook.NO_EXPIRY : order.expiresAt)
                .sequence(order.priority);
            final int slot = null == orderBook ? OrderBook.NULL_SLOT : orderBook.restore(request, order.remainingQty);
            if (slot == OrderBook.NULL_SLOT || state.orders.find(id, 0) != FixedKeyIndex.MISSING)
            {
                throw corrupt("open order with priority " + order.priority + " does not fit its book");
            }
            client.putBytes(0, order.clientId);
            state.orders.add(Orders.handle(book, slot), orderBook.orderIdWord(slot, 0), orderBook.orderIdWord(slot, 1),
                orderBook.orderIdWord(slot, 2), orderBook.orderIdWord(slot, 3), account, market,
                orderBook.sideOf(slot) == Side.BID, order.reserved,
                order.withClientId, order.withClientId ? client.getLong(0, ByteOrder.BIG_ENDIAN) : 0,
                order.withClientId ? client.getLong(8, ByteOrder.BIG_ENDIAN) : 0);
        }
    }

    private int account(final AccountIdKey key)
    {
        key.getAccount(address, 0);
        return state.accounts.find(address, 0);
    }

    private void fail(final String what)
    {
        if (null == problem)
        {
            problem = what;
        }
    }

    private void check() throws StateUnusableException
    {
        if (null != problem)
        {
            throw corrupt(problem);
        }
    }

    private static int count(final long size, final String what) throws StateUnusableException
    {
        if (size > Integer.MAX_VALUE)
        {
            throw corrupt(size + " " + what + " cannot be numbered");
        }
        return (int)size;
    }

    private static StateUnusableException corrupt(final String detail)
    {
        return StateUnusableException.inconsistent("stored state does not hold together: " + detail);
    }

    /** One open order copied out of the map, so the map's hash order can be sorted away. */
    private static final class StoredOrder
    {
        final byte[] id = new byte[32];
        final byte[] account = new byte[20];
        final byte[] clientId = new byte[16];
        long marketId;
        long price;
        long originalQty;
        long remainingQty;
        long expiresAt;
        long priority;
        long reserved;
        boolean withClientId;
        byte book;
        byte side;
        byte timeInForce;
        byte stp;
    }
}
