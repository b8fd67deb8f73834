package io.venue.engine;

import io.venue.engine.onboard.FixOnboardingTable;
import io.venue.engine.protect.ProtectionTable;

import io.venue.action.Address;
import io.venue.engine.account.Accounts;
import io.venue.engine.account.AddressKeys;
import io.venue.engine.agent.Agents;
import io.venue.engine.book.OrderBook;
import io.venue.engine.book.RestingLimit;
import io.venue.engine.limit.TokenBucket;
import io.venue.engine.market.Assets;
import io.venue.engine.market.Markets;
import io.venue.engine.nonce.NonceWindow;
import io.venue.engine.risk.Ledger;
import io.venue.engine.index.FixedKeyIndex;
import io.venue.engine.state.StateLimits;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;

/**
 * Everything the engine holds, in one place: accounts and their nonce windows, rate buckets and kill
 * switches; assets, markets and their books; balances; open orders; agents; operator keys.
 */
final class ShardState
{
    final EngineConfig config;
    final Accounts accounts;
    final Assets assets;
    final Markets markets = new Markets();
    final Ledger ledger;
    final Agents agents;
    final Orders orders;
    /** Sessions, pending sweeps, dead-man timers and cancel-on-disconnect arms ({@link Protections}). */
    final ProtectionTable protections;
    /** The FIX onboarding records, by credential ({@link Operator#onSetFixOnboarding}). */
    final FixOnboardingTable fixOnboarding;
    /**
     * The events writer; a pipeline's credit stage points it at its staging while it admits ({@link ShardPipeline}).
     */
    Events events;
    OrderBook[] books = new OrderBook[16];
    long[] nonceWords;
    long[] rateWords;
    boolean[] accountKilled;
    /** Each account's vault owner (an account number), or -1. */
    int[] vaultOwner;
    boolean venueKilled;
    /** Time priority of resting orders: one step per order entering a book, in command order. */
    long priority;
    /**
     * Each ledger asset's total supply (available plus locked over all accounts). Deposits keep it at most
     * {@link #MAX_SUPPLY}, so no balance can ever overflow: every credit in settlement, split and merge moves
     * amounts that already exist.
     */
    final long[] supply;
    static final long MAX_SUPPLY = 1L << 62;
    /** What the commands since the mirror's last write changed, when a mirror is attached; null otherwise. */
    ChangeSet changes;
    /** The open-order record limit, shared by the books of each matching shard (split evenly between shards). */
    final RestingLimit[] restingLimits;
    private final FixedKeyIndex operators = new FixedKeyIndex(3, 4);
    private final long[] operatorKey = new long[3];

    ShardState(final EngineConfig config, final EventSink sink)
    {
        this.config = config;
        final int expected = config.expectedAccounts();
        accounts = new Accounts(expected);
        supply = new long[config.assetCapacity()];
        restingLimits = new RestingLimit[config.shards()];
        for (int shard = 0; shard < restingLimits.length; shard++)
        {
            // the remainder goes to the first shards, one each
            final long limit = config.stateLimits().openOrders();
            restingLimits[shard] = new RestingLimit(
                limit / restingLimits.length + (shard < limit % restingLimits.length ? 1 : 0));
        }
        assets = new Assets(config.assetCapacity());
        ledger = new Ledger(config.assetCapacity(), expected);
        agents = new Agents(expected);
        orders = new Orders(config.orderCapacityPerBook(), 1024, config.indexSeed(), config.crossShardCreditActive());
        events = new Events(sink, accounts);
        protections = new ProtectionTable(config.protectionCapacity());
        fixOnboarding = new FixOnboardingTable(config.fixOnboardingCapacity());
        nonceWords = new long[NonceWindow.WORDS * expected];
        rateWords = new long[TokenBucket.WORDS * expected];
        accountKilled = new boolean[expected];
        vaultOwner = new int[expected];
        Arrays.fill(vaultOwner, -1);
        for (final Address operator : config.operators())
        {
            AddressKeys.load(new UnsafeBuffer(operator.toBytes()), 0, operatorKey);
            operators.put(operatorKey, 0, 1);
        }
    }

    /** The account number of an address, numbering it (and sizing its tables) if new. */
    int addAccount(final DirectBuffer buffer, final int offset)
    {
        final int known = accounts.count();
        final int account = accounts.findOrAdd(buffer, offset);
        if (NonceWindow.WORDS * (account + 1) > nonceWords.length)
        {
            final int capacity = Math.max(account + 1, accountKilled.length * 2);
            nonceWords = Arrays.copyOf(nonceWords, NonceWindow.WORDS * capacity);
            rateWords = Arrays.copyOf(rateWords, TokenBucket.WORDS * capacity);
            accountKilled = Arrays.copyOf(accountKilled, capacity);
            final int old = vaultOwner.length;
            vaultOwner = Arrays.copyOf(vaultOwner, capacity);
            Arrays.fill(vaultOwner, old, capacity, -1);
        }
        if (account == known)
        {
            accountChanged(account);
        }
        return account;
    }

    /** Recounts every asset's supply from the balances (after a restart from stored state). */
    void recomputeSupply()
    {
        for (int asset = 0; asset < assets.count(); asset++)
        {
            supply[asset] = ledger.total(asset, accounts.count());
        }
    }

    /** Marks an account's gate state (nonce window, rate bucket, kill switch) for the mirror. */
    void accountChanged(final int account)
    {
        if (null != changes)
        {
            changes.accounts.add(account);
        }
    }

    /** Marks a slot of the protection table for the mirror. */
    void protectionChanged(final int slot)
    {
        if (null != changes)
        {
            changes.protections.add(slot);
        }
    }

    /** Marks a slot of the FIX onboarding table for the mirror. */
    void fixOnboardingChanged(final int slot)
    {
        if (null != changes)
        {
            changes.fixOnboarding.add(slot);
        }
    }

    /** Marks a market's status (halt, kill switch) for the mirror. */
    void marketChanged(final int market)
    {
        if (null != changes)
        {
            changes.markets.add(market);
        }
    }

    boolean isOperator(final DirectBuffer buffer, final int offset)
    {
        AddressKeys.load(buffer, offset, operatorKey);
        return operators.get(operatorKey, 0) != FixedKeyIndex.MISSING;
    }

    /** Whether {@code count} more accounts may be numbered ({@link StateLimits#accounts()}). */
    boolean roomForAccounts(final int count)
    {
        return accounts.count() + (long)count <= config.stateLimits().accounts();
    }

    /**
     * Whether the ledger cells of {@code account} (numbered, or {@code accounts.count()} for one about to be)
     * in {@code assetA} and {@code assetB} (-1 for none) may be opened within the balance and position
     * record limits.
     */
    boolean roomForCells(final int account, final int assetA, final int assetB)
    {
        final StateLimits limits = config.stateLimits();
        return ledger.balanceRecords() + ledger.newBalanceRecords(account, assetA, assetB) <= limits.balances() &&
            ledger.positionRecords() + ledger.newPositionRecords(account, assetA, assetB) <= limits.positions();
    }

    /** The matching shard of a book: its market's number modulo the shard count. */
    int shardOf(final int book)
    {
        return (book >>> 1) % restingLimits.length;
    }

    /** Creates the book with this number. */
    OrderBook addBook(final int book)
    {
        if (book >= books.length)
        {
            books = Arrays.copyOf(books, Math.max(book + 1, books.length * 2));
        }
        books[book] = new OrderBook(config.orderCapacityPerBook(), config.maxLevelsPerSide(),
            restingLimits[shardOf(book)]);
        orders.addBook(book);
        return books[book];
    }
}
