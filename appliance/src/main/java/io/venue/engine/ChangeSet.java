package io.venue.engine;

import io.venue.engine.index.DirtySet;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;

/**
 * What the commands since the mirror's last write changed, by number: filled while they run, written and
 * cleared by the next flush, so a value changed several times is written once. Only exists when a mirror is
 * attached; without one the engine makes no marks at all.
 */
final class ChangeSet
{
    /** Account numbers whose nonce window, rate bucket or kill switch changed, or that were just numbered. */
    final DirtySet accounts = new DirtySet(1024);
    /** Ledger cells, {@code account × assetCapacity + asset}. */
    final DirtySet balances = new DirtySet(1024);
    /** Market numbers whose halt or kill switch changed (new markets are found by count). */
    final DirtySet markets = new DirtySet(64);
    final DirtySet agents = new DirtySet(64);
    final DirtySet credentials = new DirtySet(64);
    /** Slots of the protection table that changed (written or freed). */
    final DirtySet protections = new DirtySet(64);
    /** Slots of the FIX onboarding table that changed. */
    final DirtySet fixOnboarding = new DirtySet(16);
    /** Order handles that rested or changed. */
    final IntArrayList orders = new IntArrayList(64, -1);
    /** Ids of orders that left, four longs each. */
    final LongArrayList removedOrders = new LongArrayList(256, Long.MIN_VALUE);

    /** The records the next write will touch (an account, a cell, an order, a removal each). */
    int records()
    {
        return accounts.size() + balances.size() + markets.size() + agents.size() + credentials.size() +
            protections.size() + fixOnboarding.size() + orders.size() + removedOrders.size() / 4;
    }

    void clear()
    {
        accounts.clear();
        balances.clear();
        markets.clear();
        agents.clear();
        credentials.clear();
        protections.clear();
        fixOnboarding.clear();
    }
}
