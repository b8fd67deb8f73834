package io.venue.engine;

import io.venue.action.Side;
import io.venue.engine.book.OrderBook;
import io.venue.engine.nonce.NonceWindow;
import io.venue.engine.protect.ProtectionTable;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Digests a shard's whole state in a fixed order: accounts with their nonce windows, rate buckets, kill
 * switches and vault owners; the venue switch; assets and every balance; markets with their books in
 * price-time order; agents; the priority counter. Equal digests mean equal state.
 */
final class StateHasher
{
    private final StateDigest digest = new StateDigest();
    private final UnsafeBuffer address = new UnsafeBuffer(new byte[20]);

    byte[] hash(final ShardState state)
    {
        digest.reset();
        final int accounts = state.accounts.count();
        digest.putInt(accounts);
        for (int account = 0; account < accounts; account++)
        {
            state.accounts.addressInto(account, address, 0);
            digest.putLong(address.getLong(0)).putLong(address.getLong(8)).putInt(address.getInt(16));
            for (int i = 0; i < NonceWindow.WORDS; i++)
            {
                digest.putLong(state.nonceWords[NonceWindow.WORDS * account + i]);
            }
            digest.putLong(state.rateWords[2 * account]).putLong(state.rateWords[2 * account + 1]);
            digest.putBoolean(state.accountKilled[account]).putInt(state.vaultOwner[account]);
        }
        digest.putBoolean(state.venueKilled);
        final int assets = state.assets.count();
        digest.putInt(assets);
        for (int asset = 0; asset < assets; asset++)
        {
            digest.putLong(state.assets.publicId(asset));
            for (int account = 0; account < accounts; account++)
            {
                digest.putLong(state.ledger.available(account, asset)).putLong(state.ledger.locked(account, asset));
            }
        }
        final int markets = state.markets.count();
        digest.putInt(markets);
        for (int market = 0; market < markets; market++)
        {
            digest.putLong(state.markets.id(market)).putBoolean(state.markets.isHalted(market))
                .putBoolean(state.markets.isKilled(market));
            for (int book = 2 * market; book <= 2 * market + 1; book++)
            {
                final OrderBook orderBook = state.books[book];
                if (orderBook != null)
                {
                    hashBook(state, book, orderBook, Side.BID);
                    hashBook(state, book, orderBook, Side.ASK);
                }
            }
        }
        state.agents.hashInto(digest);
        digest.putLong(state.priority);
        hashProtections(state);
        state.fixOnboarding.hashInto(digest);
        return digest.digest();
    }

    /**
     * The protection table slot by slot; nothing when it is empty, so a state without protections hashes as it did
     * before they existed.
     */
    private void hashProtections(final ShardState state)
    {
        final ProtectionTable table = state.protections;
        if (table.size() == 0)
        {
            return;
        }
        digest.putInt(table.size());
        for (int slot = 0; slot < table.capacity(); slot++)
        {
            final byte kind = table.kindOf(slot);
            if (kind == ProtectionTable.FREE)
            {
                continue;
            }
            table.accountInto(slot, address, 0);
            digest.putInt(slot).putInt(kind).putLong(address.getLong(0)).putLong(address.getLong(8))
                .putInt(address.getInt(16)).putLong(table.marketOf(slot)).putLong(table.credentialOf(slot))
                .putLong(table.sessionOf(slot)).putLong(table.deadlineOf(slot)).putLong(table.graceOf(slot))
                .putBoolean(table.sweepsOf(slot)).putInt(table.sessionKindOf(slot));
        }
    }

    private void hashBook(final ShardState state, final int book, final OrderBook orderBook, final Side side)
    {
        digest.putInt(orderBook.levelCount(side));
        for (int depth = 0, levels = orderBook.levelCount(side); depth < levels; depth++)
        {
            digest.putLong(orderBook.levelPrice(side, depth)).putLong(orderBook.levelQty(side, depth));
            for (int slot = orderBook.levelHead(side, depth); slot != OrderBook.NULL_SLOT;
                slot = orderBook.nextInLevel(slot))
            {
                for (int i = 0; i < 4; i++)
                {
                    digest.putLong(orderBook.orderIdWord(slot, i));
                }
                digest.putInt(orderBook.accountOf(slot)).putLong(orderBook.remainingOf(slot))
                    .putLong(orderBook.originalQtyOf(slot)).putLong(orderBook.sequenceOf(slot))
                    .putLong(orderBook.expiresAtOf(slot)).putLong(state.orders.reserved(Orders.handle(book, slot)));
            }
        }
    }
}
