package io.venue.engine;

import io.venue.engine.onboard.FixOnboardingTable;
import io.venue.engine.protect.ProtectionTable;
import io.venue.engine.state.FixOnboardingRecord;
import io.venue.engine.state.ProtectionRecord;
import io.venue.action.StpMode;
import io.venue.engine.book.OrderBook;
import io.venue.engine.index.DirtySet;
import io.venue.engine.index.FixedKeyIndex;
import io.venue.engine.limit.TokenBucket;
import io.venue.engine.market.MarketKind;
import io.venue.engine.state.Agent;
import io.venue.engine.state.AssetRecord;
import io.venue.engine.state.Balance;
import io.venue.engine.state.Credential;
import io.venue.engine.state.EngineState;
import io.venue.engine.state.MarketRecord;
import io.venue.engine.state.NonceWindow;
import io.venue.engine.state.OpenOrder;
import io.venue.engine.state.Position;
import io.venue.engine.state.StateMeta;
import io.venue.journal.sbe.AgentState;
import io.venue.journal.sbe.Book;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Writes through to the Chronicle Map state what the commands since its last write changed in the engine's
 * in-memory state, between {@link StateMeta#beginApply} and {@link StateMeta#commitApplied}: so the maps always
 * reflect exactly the commands up to {@code appliedSequence}, or say that a write was cut short. The engine
 * calls {@link #flush} every {@code commandsPerFlush} commands and when idle.
 * <p>
 * The engine stays the one that decides; the maps are a copy it never reads while running. What changed is
 * collected in a {@link ChangeSet} (accounts, ledger cells, markets, agents, credentials by number; orders by
 * handle and by id when they leave), so a value touched several times between two writes is written once:
 * the write reads the value as it is now. New assets and markets are found by count, since neither is ever
 * removed. The priority counter and the venue kill switch go to the meta page. No allocation once the sets
 * and maps have warmed up.
 */
final class StateMirror
{
    private final ShardState state;
    private final EngineState stored;
    private final StateMeta meta;
    private final ChangeSet changes = new ChangeSet();
    private final NonceWindow window = new NonceWindow();
    private final Balance balance = new Balance();
    private final Position position = new Position();
    private final OpenOrder order = new OpenOrder();
    private final Agent agent = new Agent();
    private final Credential credential = new Credential();
    private final AssetRecord asset = new AssetRecord();
    private final MarketRecord market = new MarketRecord();
    private final ProtectionRecord protection = new ProtectionRecord();
    private final FixOnboardingRecord onboarding = new FixOnboardingRecord();
    private final int[] onboardingMarkets = new int[FixOnboardingTable.MAX_MARKETS];
    private final byte[] protectionAccount = new byte[20];
    private final UnsafeBuffer protectionAccountBuffer =
        new UnsafeBuffer(protectionAccount);
    private final UnsafeBuffer address = new UnsafeBuffer(new byte[20]);
    private final UnsafeBuffer orderId = new UnsafeBuffer(new byte[32]);
    private final UnsafeBuffer clientId = new UnsafeBuffer(new byte[16]);
    /** The market of each outcome share asset by ledger number, -1 for a listed asset. */
    private int[] shareMarket = new int[0];
    private int assetsWritten;
    private int marketsWritten;
    /**
     * Where each record's map entry is, once written: accounts (nonce windows) and balance cells by number, orders by
     * handle with the order id they held. Those entries are never removed while their record exists, and a present
     * entry never moves, so a write goes straight to the entry instead of through the map's lookup and segment lock
     * (STATE.md). An order's entry is removed when the order ends; its handle may then hold another order, which the
     * comparison of the whole id tells apart.
     */
    private long[] accountEntries = new long[0];
    private long[] cellEntries = new long[0];
    /** An order handle to its place in the arrays below: the entry's address, and the order's id as four longs. */
    private final Int2IntHashMap orderEntryIndex = new Int2IntHashMap(-1);
    private long[] orderEntryAddress = new long[64];
    private long[] orderEntryIds = new long[4 * 64];

    /** The sequence whose flush threw, or NO_SEQUENCE: the maps are then behind the engine for good. */
    private long failedAt = StateMeta.NO_SEQUENCE;
    /** The last sequence let through: the stored one, then each command's (the maps lag it until a flush). */
    private long lastChecked;

    /** Attaches to an engine state whose in-memory state equals the stored one (fresh, or just restored). */
    StateMirror(final ShardState state, final EngineState stored)
    {
        this.state = state;
        this.stored = stored;
        this.meta = stored.meta();
        this.lastChecked = meta.appliedSequence();
        assetsWritten = state.assets.count();
        for (int m = 0; m < state.markets.count(); m++)
        {
            noteShares(m);
        }
        marketsWritten = state.markets.count();
        state.changes = changes;
        state.ledger.track(changes.balances);
        state.agents.track(changes.agents, changes.credentials);
        state.orders.track(changes.orders, changes.removedOrders);
    }

    /**
     * Refuses, before the command changes anything, a sequence that is not after the stored one: the maps hold
     * one index for everything, so commands must arrive in journal order.
     */
    void checkSequence(final long sequence)
    {
        if (failedAt != StateMeta.NO_SEQUENCE)
        {
            // the pending mark of that command is still set; a later commit must not hide it
            throw new IllegalStateException(
                "writing the state failed at command " + failedAt + "; restart from the journal");
        }
        if (sequence <= lastChecked)
        {
            throw new IllegalStateException("command " + sequence + " is not after the state's " + lastChecked);
        }
        lastChecked = sequence;
    }

    /**
     * Writes what changed since the last flush and marks the maps as reflecting the commands up to {@code sequence}.
     */
    void flush(final long sequence)
    {
        failedAt = sequence;
        meta.beginApply(sequence);
        writeAssets();
        writeMarkets();
        writeAccounts();
        writeBalances();
        writeAgents();
        writeOrders();
        writeProtections();
        writeFixOnboarding();
        meta.priority(state.priority);
        meta.venueFlags(state.venueKilled ? StateMeta.VENUE_KILLED : 0);
        meta.commitApplied(sequence);
        failedAt = StateMeta.NO_SEQUENCE;
        changes.clear();
        state.orders.clearChanges();
    }

    /** Each changed slot of the protection table: written, or removed when it is free. */
    private void writeProtections()
    {
        final DirtySet slots = changes.protections;
        final ProtectionTable table = state.protections;
        for (int i = 0, n = slots.size(); i < n; i++)
        {
            final int slot = slots.get(i);
            final byte kind = table.kindOf(slot);
            if (kind == ProtectionTable.FREE)
            {
                stored.protections().remove(slot);
                continue;
            }
            table.accountInto(slot, protectionAccountBuffer, 0);
            stored.protections().acquire(slot, protection).set(kind, table.sweepsOf(slot), table.sessionKindOf(slot),
                table.marketOf(slot), table.credentialOf(slot), table.sessionOf(slot), table.deadlineOf(slot),
                table.graceOf(slot), protectionAccount);
        }
    }

    /** Each changed slot of the FIX onboarding table (slots are never freed). */
    private void writeFixOnboarding()
    {
        final DirtySet slots = changes.fixOnboarding;
        final FixOnboardingTable table = state.fixOnboarding;
        for (int i = 0, n = slots.size(); i < n; i++)
        {
            final int slot = slots.get(i);
            for (int m = 0; m < FixOnboardingTable.MAX_MARKETS; m++)
            {
                onboardingMarkets[m] = table.marketOf(slot, m);
            }
            stored.fixOnboarding().acquire(slot, onboarding).set(table.credentialOf(slot), table.flagsOf(slot),
                table.marketCountOf(slot), table.tierOf(slot), table.graceOf(slot), onboardingMarkets);
        }
    }

    private void writeAssets()
    {
        final int count = state.assets.count();
        for (int a = assetsWritten; a < count; a++)
        {
            stored.assets().acquire(a, asset).publicId(state.assets.publicId(a));
        }
        assetsWritten = count;
    }

    private void writeMarkets()
    {
        final int count = state.markets.count();
        for (int m = marketsWritten; m < count; m++)
        {
            noteShares(m);
            writeMarket(m);
        }
        marketsWritten = count;
        final DirtySet markets = changes.markets;
        for (int i = 0, n = markets.size(); i < n; i++)
        {
            writeMarket(markets.get(i));
        }
    }

    private void writeMarket(final int m)
    {
        final var markets = state.markets;
        stored.markets().acquire(m, market)
            .marketId(markets.id(m))
            .kind((byte)markets.kind(m).ordinal())
            .halted(markets.isHalted(m))
            .killed(markets.isKilled(m))
            .baseOrYes(markets.baseAssetOfBook(2 * m))
            .no(markets.baseAssetOfBook(2 * m + 1))
            .quote(markets.quoteAsset(m))
            .tickSize(markets.tickSize(m))
            .lotSize(markets.lotSize(m))
            .minQty(markets.minQty(m));
    }

    private void noteShares(final int m)
    {
        if (state.markets.kind(m) != MarketKind.OUTCOME)
        {
            return;
        }
        final int yes = state.markets.baseAssetOfBook(2 * m);
        final int no = state.markets.baseAssetOfBook(2 * m + 1);
        final int needed = Math.max(yes, no) + 1;
        if (needed > shareMarket.length)
        {
            final int from = shareMarket.length;
            shareMarket = Arrays.copyOf(shareMarket, Math.max(needed, state.ledger.assetCapacity()));
            Arrays.fill(shareMarket, from, shareMarket.length, -1);
        }
        shareMarket[yes] = m;
        shareMarket[no] = m;
    }

    private void writeAccounts()
    {
        final DirtySet accounts = changes.accounts;
        for (int i = 0, n = accounts.size(); i < n; i++)
        {
            final int account = accounts.get(i);
            // FQN-CLASH: the nonce window's layout (NonceWindow here is the stored flyweight)
            final int base = io.venue.engine.nonce.NonceWindow.WORDS * account;
            final long[] words = state.nonceWords;
            if (account >= accountEntries.length)
            {
                accountEntries = Arrays.copyOf(accountEntries, Math.max(account + 1, 2 * accountEntries.length));
            }
            if (accountEntries[account] == 0)
            {
                state.accounts.addressInto(account, address, 0);
                stored.nonceWindows().acquire(address, 0, window);
                accountEntries[account] = window.address();
            }
            else
            {
                window.wrapAddress(accountEntries[account]);
            }
            window
                .floor(words[base])
                .word(0, words[base + 1])
                .word(1, words[base + 2])
                .word(2, words[base + 3])
                .word(3, words[base + 4])
                .account(account)
                .flags(state.accountKilled[account] ? NonceWindow.KILLED : 0)
                .vaultOwner(state.vaultOwner[account])
                .rateDeficit(state.rateWords[TokenBucket.WORDS * account])
                .rateUpdatedMs(state.rateWords[TokenBucket.WORDS * account + 1]);
        }
    }

    private void writeBalances()
    {
        final DirtySet cells = changes.balances;
        final int assetCapacity = state.ledger.assetCapacity();
        final var ledger = state.ledger;
        for (int i = 0, n = cells.size(); i < n; i++)
        {
            final int cell = cells.get(i);
            final int account = cell / assetCapacity;
            final int ledgerAsset = cell - account * assetCapacity;
            final long publicId = state.assets.publicId(ledgerAsset);
            if (publicId >= 0)
            {
                if (cell >= cellEntries.length)
                {
                    cellEntries = Arrays.copyOf(cellEntries, Math.max(cell + 1, 2 * cellEntries.length));
                }
                if (cellEntries[cell] == 0)
                {
                    state.accounts.addressInto(account, address, 0);
                    stored.balances().acquire(address, 0, (int)publicId, balance);
                    cellEntries[cell] = balance.address();
                }
                else
                {
                    balance.wrapAddress(cellEntries[cell]);
                }
                balance.available(ledger.available(account, ledgerAsset)).locked(ledger.locked(account, ledgerAsset));
                continue;
            }
            state.accounts.addressInto(account, address, 0);
            // outcome shares: the YES and NO sides of one market share a position record
            final int m = shareMarket[ledgerAsset];
            final int yes = state.markets.baseAssetOfBook(2 * m);
            final int no = state.markets.baseAssetOfBook(2 * m + 1);
            stored.positions().acquire(address, 0, (int)state.markets.id(m), position)
                .yesShares(ledger.available(account, yes))
                .noShares(ledger.available(account, no))
                .yesLocked(ledger.locked(account, yes))
                .noLocked(ledger.locked(account, no));
        }
    }

    private void writeAgents()
    {
        final var agents = state.agents;
        final DirtySet changedAgents = changes.agents;
        for (int i = 0, n = changedAgents.size(); i < n; i++)
        {
            final int a = changedAgents.get(i);
            state.accounts.addressInto(agents.owner(a), address, 0);
            stored.agents().acquire(a, agent)
                .owner(address, 0)
                .scopes((byte)agents.scopes(a))
                .state((byte)(agents.isRevoked(a) ? AgentState.REVOKED.value() : AgentState.ACTIVE.value()))
                .agentId(agents.agentId(a))
                .expiresAtMs(agents.expiresAt(a));
        }
        final DirtySet changedCredentials = changes.credentials;
        for (int i = 0, n = changedCredentials.size(); i < n; i++)
        {
            final int c = changedCredentials.get(i);
            final Credential record = stored.credentials().acquire(c, credential);
            if (agents.signs(c))
            {
                agents.signerInto(c, address, 0);
                record.signer(address, 0);
            }
            else
            {
                record.clearSigner();
            }
            record.agent(agents.credentialAgent(c))
                .credentialId(agents.credentialId(c))
                .validUntilMs(agents.credentialValidUntil(c))
                .flags((byte)((agents.signs(c) ? Credential.SIGNS : 0) | (agents.isCredentialRevoked(c) ?
                    Credential.REVOKED : 0)));
        }
    }

    private void writeOrders()
    {
        // removals first: a slot freed and reused is also in the touched list, and what is live now is written after
        final LongArrayList removed = changes.removedOrders;
        for (int i = 0, n = removed.size(); i < n; i += 4)
        {
            orderId.putLong(0, removed.getLong(i), ByteOrder.BIG_ENDIAN);
            orderId.putLong(8, removed.getLong(i + 1), ByteOrder.BIG_ENDIAN);
            orderId.putLong(16, removed.getLong(i + 2), ByteOrder.BIG_ENDIAN);
            orderId.putLong(24, removed.getLong(i + 3), ByteOrder.BIG_ENDIAN);
            // an order that left and came back (a price amend) is rewritten below from the touched list
            if (state.orders.find(orderId, 0) == FixedKeyIndex.MISSING)
            {
                stored.openOrders().remove(orderId, 0);
            }
        }
        final IntArrayList touched = changes.orders;
        for (int i = 0, n = touched.size(); i < n; i++)
        {
            final int handle = touched.getInt(i);
            final int book = Orders.bookOf(handle);
            final int slot = Orders.slotOf(handle);
            final OrderBook orderBook = state.books[book];
            if (orderBook.isLive(slot))
            {
                writeOrder(handle, book, slot, orderBook);
            }
        }
    }

    /**
     * Points {@link #order} at the order's map entry: where it was last written when the handle still holds the same
     * order, else looked up.
     *
     * @return true when looked up: the entry may be new, so every field is written; false for an entry written before,
     * whose order's fixed fields (account, market, book, side, time in force, STP, expiry, client id) are there.
     */
    private boolean orderEntry(final int handle)
    {
        int index = orderEntryIndex.get(handle);
        if (index >= 0 && sameId(index))
        {
            order.wrapAddress(orderEntryAddress[index]);
            return false;
        }
        stored.openOrders().acquire(orderId, 0, order);
        if (index < 0)
        {
            index = orderEntryIndex.size();
            if (index == orderEntryAddress.length)
            {
                orderEntryAddress = Arrays.copyOf(orderEntryAddress, 2 * index);
                orderEntryIds = Arrays.copyOf(orderEntryIds, 8 * index);
            }
            orderEntryIndex.put(handle, index);
        }
        orderEntryAddress[index] = order.address();
        for (int word = 0; word < 4; word++)
        {
            orderEntryIds[4 * index + word] = orderId.getLong(8 * word);
        }
        return true;
    }

    /** Whether the order in {@link #orderId} is the one whose entry is kept at {@code index} (all 32 bytes). */
    private boolean sameId(final int index)
    {
        for (int word = 0; word < 4; word++)
        {
            if (orderEntryIds[4 * index + word] != orderId.getLong(8 * word))
            {
                return false;
            }
        }
        return true;
    }

    private void writeOrder(final int handle, final int book, final int slot, final OrderBook orderBook)
    {
        final int m = book >>> 1;
        orderBook.orderIdInto(slot, orderId, 0);
        final boolean fresh = orderEntry(handle);
        final OpenOrder record = order.price(orderBook.priceOf(slot))
            .originalQty(orderBook.originalQtyOf(slot))
            .remainingQty(orderBook.remainingOf(slot))
            .prioritySequence(orderBook.sequenceOf(slot))
            .reservedCredit(state.orders.reserved(handle));
        if (!fresh)
        {
            return;
        }
        state.accounts.addressInto(orderBook.accountOf(slot), address, 0);
        final long expiresAt = orderBook.expiresAtOf(slot);
        final StpMode stp = orderBook.stpModeOf(slot);
        record.account(address, 0)
            .market((int)state.markets.id(m))
            .expiresAt(expiresAt == OrderBook.NO_EXPIRY ? 0 : expiresAt)
            .book((byte)(state.markets.kind(m) == MarketKind.SPOT ? Book.NONE.value() :
                (book & 1) == 0 ? Book.YES.value() : Book.NO.value()))
            .side((byte)orderBook.sideOf(slot).ordinal())
            .timeInForce((byte)orderBook.timeInForceOf(slot).ordinal())
            .stp((byte)(null == stp ? -1 : stp.ordinal()));
        if (state.orders.hasClientId(handle))
        {
            clientId.putLong(0, state.orders.clientIdHi(handle), ByteOrder.BIG_ENDIAN);
            clientId.putLong(8, state.orders.clientIdLo(handle), ByteOrder.BIG_ENDIAN);
            record.clientOrderId(clientId, 0);
        }
        else
        {
            record.clearClientOrderId();
        }
    }
}
