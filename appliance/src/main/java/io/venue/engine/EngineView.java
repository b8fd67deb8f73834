package io.venue.engine;

import io.venue.engine.book.OrderBook;
import io.venue.engine.index.FixedKeyIndex;
import io.venue.engine.market.Markets;
import io.venue.engine.nonce.NonceWindow;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A read-only window on an engine's state by public ids, for invariant checks, tests and tools. Not for
 * the hot path: lookups here may allocate.
 */
public final class EngineView
{
    private final ShardState state;

    EngineView(final ShardState state)
    {
        this.state = state;
    }

    public int accountCount()
    {
        return state.accounts.count();
    }

    /** The account number of an address, or -1. */
    public int account(final byte[] address)
    {
        return state.accounts.find(new UnsafeBuffer(address), 0);
    }

    public byte[] addressOf(final int account)
    {
        final byte[] address = new byte[20];
        state.accounts.addressInto(account, new UnsafeBuffer(address), 0);
        return address;
    }

    /**
     * Available balance of a public asset, or of an outcome market's shares with {@link #yesAsset}/{@link #noAsset}.
     */
    public long available(final int account, final int ledgerAsset)
    {
        return state.ledger.available(account, ledgerAsset);
    }

    public long locked(final int account, final int ledgerAsset)
    {
        return state.ledger.locked(account, ledgerAsset);
    }

    /** The ledger number of a public asset id, or -1. */
    public int asset(final long assetId)
    {
        return state.assets.find(assetId);
    }

    public int ledgerAssetCount()
    {
        return state.assets.count();
    }

    public int yesAsset(final long marketId)
    {
        return state.markets.baseAssetOfBook(2 * market(marketId));
    }

    public int noAsset(final long marketId)
    {
        return state.markets.baseAssetOfBook(2 * market(marketId) + 1);
    }

    /** Sum of available + locked of a ledger asset over all accounts. */
    public long total(final int ledgerAsset)
    {
        return state.ledger.total(ledgerAsset, state.accounts.count());
    }

    /** What deposits, withdrawals, splits and merges made of a ledger asset: {@link #total} must always equal it. */
    public long supply(final int ledgerAsset)
    {
        return state.supply[ledgerAsset];
    }

    public long nonceFloor(final int account)
    {
        return NonceWindow.floor(state.nonceWords, NonceWindow.WORDS * account);
    }

    public int marketCount()
    {
        return state.markets.count();
    }

    public long marketId(final int market)
    {
        return state.markets.id(market);
    }

    /** Book {@code which} (0 = spot or YES, 1 = NO) of a market, or null. */
    public OrderBook book(final long marketId, final int which)
    {
        final int market = market(marketId);
        return market == Markets.MISSING ? null : state.books[2 * market + which];
    }

    /** The ledger asset a book's asks lock: the base of a spot market, the YES or NO shares of an outcome market. */
    public int baseAssetOfBook(final long marketId, final int which)
    {
        return state.markets.baseAssetOfBook(2 * market(marketId) + which);
    }

    /** The ledger asset a market's bids lock: its quote asset or collateral. */
    public int quoteAsset(final long marketId)
    {
        return state.markets.quoteAsset(market(marketId));
    }

    /** The credit an open order still holds, or -1 if no such order is open. */
    public long reservedOf(final byte[] orderId)
    {
        final int handle = state.orders.find(new UnsafeBuffer(orderId), 0);
        return handle == FixedKeyIndex.MISSING ? -1 : state.orders.reserved(handle);
    }

    public boolean isOpen(final byte[] orderId)
    {
        return state.orders.find(new UnsafeBuffer(orderId), 0) != FixedKeyIndex.MISSING;
    }

    public int openOrders(final int account)
    {
        return state.orders.openOrders(account);
    }

    private int market(final long marketId)
    {
        return state.markets.find(marketId);
    }
}
