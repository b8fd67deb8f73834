package io.venue.engine.risk;

import io.venue.engine.index.DirtySet;

import java.util.Arrays;

/**
 * Balances per account and asset: available and locked, as longs in micro-units, indexed by the
 * engine's dense account and asset numbers. Outcome-market shares are assets of their own (one YES and
 * one NO asset per market), so the same four moves serve spot and outcome trading.
 * <p>
 * Every method either applies completely or changes nothing and returns false: a balance never goes
 * negative and never overflows.
 * <p>
 * A cell is <em>open</em> once any method has touched it; each open cell is one stored record: a balance
 * record for a listed asset, or, for outcome shares, one position record per account and YES/NO pair. The
 * ledger counts both kinds, so the engine can refuse an action before a record beyond its limits is made
 * ({@link #newBalanceRecords}, {@link #newPositionRecords}).
 */
public final class Ledger
{
    private final int assetCapacity;
    /** Available then locked of each cell, side by side: a move reads and writes one cache line, not two. */
    private long[] cells;
    private boolean[] open;
    /** For each share asset its partner (YES ↔ NO), -1 for a listed asset. */
    private int[] partner;
    private long balanceRecords;
    private long positionRecords;
    private DirtySet changed;
    private Watcher watcher;

    public Ledger(final int assetCapacity, final int initialAccounts)
    {
        this.assetCapacity = assetCapacity;
        open = new boolean[assetCapacity * Math.max(1, initialAccounts)];
        cells = new long[2 * open.length];
        partner = new int[assetCapacity];
        Arrays.fill(partner, -1);
    }

    /** Declares two share assets the YES and NO of one outcome market: their cells share a position record. */
    public void pairShares(final int yes, final int no)
    {
        partner[yes] = no;
        partner[no] = yes;
    }

    public long balanceRecords()
    {
        return balanceRecords;
    }

    public long positionRecords()
    {
        return positionRecords;
    }

    public boolean isOpen(final int account, final int asset)
    {
        final int index = index(account, asset);
        return index < open.length && open[index];
    }

    /** Opens a cell (a record, zero until something moves) so that later moves on it make no new record. */
    public void open(final int account, final int asset)
    {
        ensure(account, asset);
    }

    /** Balance records that opening these cells would add; {@code assetB} may be -1. */
    public int newBalanceRecords(final int account, final int assetA, final int assetB)
    {
        int records = 0;
        if (partner[assetA] < 0 && !isOpen(account, assetA))
        {
            records++;
        }
        if (assetB >= 0 && assetB != assetA && partner[assetB] < 0 && !isOpen(account, assetB))
        {
            records++;
        }
        return records;
    }

    /** Position records that opening these cells would add; {@code assetB} may be -1. */
    public int newPositionRecords(final int account, final int assetA, final int assetB)
    {
        final boolean a = partner[assetA] >= 0 && !positionOpen(account, assetA);
        final boolean b = assetB >= 0 && partner[assetB] >= 0 && !positionOpen(account, assetB) &&
            assetB != assetA && assetB != partner[assetA];
        return (a ? 1 : 0) + (b ? 1 : 0);
    }

    private boolean positionOpen(final int account, final int share)
    {
        return isOpen(account, share) || isOpen(account, partner[share]);
    }

    public int assetCapacity()
    {
        return assetCapacity;
    }

    /**
     * From now on, every (account, asset) a mutator is called for is first shown to {@code watcher} with its
     * values as they are ({@code account × assetCapacity + asset}; null stops it): a pipeline's credit stage keeps
     * the values a group of commands started from this way.
     */
    public void watch(final Watcher watcher)
    {
        this.watcher = watcher;
    }

    /** Told of a cell about to be changed, with its values before (see {@link #watch}). */
    @FunctionalInterface
    public interface Watcher
    {
        void beforeChange(int cell, long available, long locked);
    }

    /**
     * From now on, every (account, asset) a mutator is called for is added to {@code changed} as
     * {@code account × assetCapacity + asset}, for a write-through mirror (a refused call may add it too).
     */
    public void track(final DirtySet changed)
    {
        this.changed = changed;
    }

    /** Sets a balance as it was stored: start-up only, before any command. */
    public void restore(final int account, final int asset, final long available, final long locked)
    {
        final int index = ensure(account, asset);
        cells[2 * index] = available;
        cells[2 * index + 1] = locked;
    }

    /** Whether the account holds anything, available or locked, in any asset. */
    public boolean holdsAnything(final int account)
    {
        for (int asset = 0; asset < assetCapacity; asset++)
        {
            if (available(account, asset) != 0 || locked(account, asset) != 0)
            {
                return true;
            }
        }
        return false;
    }

    public long available(final int account, final int asset)
    {
        final int index = index(account, asset);
        return index < open.length ? cells[2 * index] : 0;
    }

    public long locked(final int account, final int asset)
    {
        final int index = index(account, asset);
        return index < open.length ? cells[2 * index + 1] : 0;
    }

    /** Adds to available (a deposit, a fill's proceeds, minted shares). */
    public boolean credit(final int account, final int asset, final long amount)
    {
        final int cell = 2 * ensure(account, asset);
        if (amount < 0 || cells[cell] > Long.MAX_VALUE - amount ||
            cells[cell + 1] > Long.MAX_VALUE - cells[cell] - amount)
        {
            return false;
        }
        cells[cell] += amount;
        return true;
    }

    /** Takes from available (a withdrawal, burnt shares, split collateral). */
    public boolean debit(final int account, final int asset, final long amount)
    {
        final int cell = 2 * ensure(account, asset);
        if (amount < 0 || cells[cell] < amount)
        {
            return false;
        }
        cells[cell] -= amount;
        return true;
    }

    /** Moves available to locked (a reservation for an open order). */
    public boolean lock(final int account, final int asset, final long amount)
    {
        final int cell = 2 * ensure(account, asset);
        if (amount < 0 || cells[cell] < amount)
        {
            return false;
        }
        cells[cell] -= amount;
        cells[cell + 1] += amount;
        return true;
    }

    /** Moves locked back to available (a cancel, the unused rest of a reservation). */
    public boolean unlock(final int account, final int asset, final long amount)
    {
        final int cell = 2 * ensure(account, asset);
        if (amount < 0 || cells[cell + 1] < amount)
        {
            return false;
        }
        cells[cell + 1] -= amount;
        cells[cell] += amount;
        return true;
    }

    /** Removes from locked (what a fill pays out of a reservation). */
    public boolean spendLocked(final int account, final int asset, final long amount)
    {
        final int cell = 2 * ensure(account, asset);
        if (amount < 0 || cells[cell + 1] < amount)
        {
            return false;
        }
        cells[cell + 1] -= amount;
        return true;
    }

    /** Sum of available plus locked of one asset over the first {@code accounts} accounts; for checks and tests. */
    public long total(final int asset, final int accounts)
    {
        long sum = 0;
        for (int account = 0; account < accounts; account++)
        {
            sum = Math.addExact(sum, Math.addExact(available(account, asset), locked(account, asset)));
        }
        return sum;
    }

    private int index(final int account, final int asset)
    {
        if (asset < 0 || asset >= assetCapacity || account < 0)
        {
            throw new IllegalArgumentException("account " + account + " asset " + asset + " out of range");
        }
        return account * assetCapacity + asset;
    }

    private int ensure(final int account, final int asset)
    {
        final int index = index(account, asset);
        if (index >= open.length)
        {
            final int capacity = Math.max(index + 1, open.length * 2);
            cells = Arrays.copyOf(cells, 2 * capacity);
            open = Arrays.copyOf(open, capacity);
        }
        if (!open[index])
        {
            if (partner[asset] < 0)
            {
                balanceRecords++;
            }
            else if (!isOpen(account, partner[asset]))
            {
                positionRecords++;
            }
            open[index] = true;
        }
        if (null != changed)
        {
            changed.add(index);
        }
        if (null != watcher)
        {
            watcher.beforeChange(index, cells[2 * index], cells[2 * index + 1]);
        }
        return index;
    }
}
