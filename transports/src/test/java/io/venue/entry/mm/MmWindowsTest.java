package io.venue.entry.mm;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class MmWindowsTest
{
    private final AtomicLong now = new AtomicLong(10_000);
    private final MmWindows windows = new MmWindows(new MmWindows.Limits(1_000, 3, 5, 100, 100, 100, 100),
        new MmWindows.Plans(4, 8, Set.of("basic-account"), Set.of("pro-account")), now::get);

    @Test
    void eachWindowRefusesPastItsLimitAndARefusalCostsNothing()
    {
        for (int i = 0; i < 3; i++)
        {
            assertNull(windows.charge(now.get(), "a", "k", "ip", 1, 1, 1));
        }
        final MmWindows.Refusal full = windows.charge(now.get(), "a", "k", "ip", 1, 1, 1);
        assertEquals("account", full.scope());
        assertEquals(3, full.usedActions());
        assertEquals(1_099, full.resetInMs(), "the three leave once their 100 ms bucket has left the window");
        assertEquals(new MmWindows.Budget(1_000, 3, 0, 1_099), windows.budget("a"), "the refusal charged nothing");
        assertNull(windows.charge(now.get(), "b", "k", "ip", 1, 1, 1), "another account has its own window");
        // cancels cost nothing against the action budget, only against the cancel window
        now.addAndGet(1_099);
        assertNull(windows.charge(now.get(), "c", "k2", "ip2", 2, 0, 5));
        assertEquals("account_cancels", windows.charge(now.get(), "c", "k2", "ip2", 2, 0, 1).scope());
    }

    @Test
    void aRequestLargerThanAWindowsWholeLimitNeverFitsAndChargesNothing()
    {
        final MmWindows.Refusal actions = windows.charge(now.get(), "a", "k", "ip", 1, 4, 0);
        assertEquals("account", actions.scope());
        assertTrue(actions.neverFits(), "4 actions in a window of 3: no wait helps");
        assertEquals(MmWindows.NEVER, actions.resetInMs());
        final MmWindows.Refusal cancels = windows.charge(now.get(), "a", "k", "ip", 1, 1, 6);
        assertEquals("account_cancels", cancels.scope());
        assertTrue(cancels.neverFits());
        final MmWindows.Refusal plan = windows.charge(now.get(), "basic-account", "k", "ip", 1, 3, 0);
        assertEquals(null, plan, "3 fit the second's window and the plan's minute of 4");
        final MmWindows.Refusal overPlan = new MmWindows(new MmWindows.Limits(1_000, 10, 10, 100, 100, 100, 100),
            new MmWindows.Plans(4, 8, Set.of("basic-account"), Set.of()), now::get)
            .charge(now.get(), "basic-account", "k", "ip", 1, 5, 0);
        assertEquals("builder_plan", overPlan.scope());
        assertTrue(overPlan.neverFits(), "5 actions in a plan of 4 a minute");
        assertEquals(new MmWindows.Budget(1_000, 0, 3, 0), windows.budget("a"), "the refusals charged nothing");
        // one that only waits for room is not told never
        for (int i = 0; i < 3; i++)
        {
            assertNull(windows.charge(now.get(), "b", "k2", "ip2", 2, 1, 0));
        }
        assertFalse(windows.charge(now.get(), "b", "k2", "ip2", 2, 1, 0).neverFits());
    }

    @Test
    void aBuilderPlanCapsTheAccountPerMinute()
    {
        int admitted = 0;
        for (int second = 0; second < 10; second++)
        {
            for (int i = 0; i < 3; i++)
            {
                if (windows.charge(now.get(), "basic-account", "k", "ip", 1, 1, 0) == null)
                {
                    admitted++;
                }
            }
            now.addAndGet(1_000);
        }
        assertEquals(4, admitted, "the basic plan's 4 a minute, though the per-second window allows 3 a second");
        final MmWindows.Refusal refusal = windows.charge(now.get(), "basic-account", "k", "ip", 1, 1, 0);
        assertEquals("builder_plan", refusal.scope());
        assertEquals(4, refusal.maxActionsPerWindow());
        assertNull(windows.charge(now.get(), "no-plan", "k", "ip", 1, 1, 0));
    }

    @Test
    void aRefundGivesTheChargeBack()
    {
        assertNull(windows.charge(now.get(), "a", "k", "ip", 1, 1, 1));
        windows.refund(now.get(), "a", "k", "ip", 1, 1, 1);
        assertEquals(0, windows.budget("a").usedActions());
    }

    @Test
    void aRequestsActionsCountInTheWindowsOfTheMarketsAndShardsTheyActOn()
    {
        // markets 1 and 3 on shard 1, market 2 on shard 0; three actions a market, four a shard
        final MmWindows w = new MmWindows(new MmWindows.Limits(1_000, 100, 100, 100, 100, 3, 4), MmWindows.Plans.NONE,
            now::get, market -> (int)(market % 2));
        assertNull(w.charge(now.get(), "a", "k", "ip", new MmWindows.Cost().action(1).action(2).action(2).cancels(5)));
        assertNull(w.charge(now.get(), "a", "k", "ip", 2, 1, 0));
        final MmWindows.Refusal market = w.charge(now.get(), "a", "k", "ip", new MmWindows.Cost().action(1).action(2));
        assertEquals("market", market.scope(), "market 2's window is full");
        assertEquals(3, market.usedActions());
        assertNull(w.charge(now.get(), "a", "k", "ip", 1, 2, 0), "market 1 has room");
        final MmWindows.Refusal shard = w.charge(now.get(), "a", "k", "ip", 3, 2, 0);
        assertEquals("shard", shard.scope(), "markets 1 and 3 share shard 1's window, which holds 3 of 4");
        assertEquals(3, shard.usedActions());
        assertEquals(6, w.budget("a").usedActions(),
            "the account counts every action on every market, the refused none");

        // a refund gives each market its own share back
        w.refund(now.get(), "a", "k", "ip", new MmWindows.Cost().action(1).action(2).cancels(5));
        assertNull(w.charge(now.get(), "a", "k", "ip", new MmWindows.Cost().action(2).actions(3, 2)));
        assertEquals("market", w.charge(now.get(), "a", "k", "ip", 2, 1, 0).scope());
        assertEquals("shard", w.charge(now.get(), "a", "k", "ip", 3, 1, 0).scope());
    }

    @Test
    void theWindowSlides()
    {
        for (int i = 0; i < 3; i++)
        {
            assertNull(windows.charge(now.get(), "a", "k", "ip", 1, 1, 0));
        }
        now.addAndGet(500);
        assertEquals("account", windows.charge(now.get(), "a", "k", "ip", 1, 1, 0).scope());
        now.addAndGet(598); // 1,098 ms on: the three still count
        assertEquals("account", windows.charge(now.get(), "a", "k", "ip", 1, 1, 0).scope());
        now.addAndGet(1); // their bucket has left the window
        assertNull(windows.charge(now.get(), "a", "k", "ip", 1, 1, 0));
        assertEquals(new MmWindows.Budget(1_000, 1, 2, 1_000), windows.budget("a"), "charged at the end of its bucket");
    }

    @Test
    void aRefundReachesThePlansMinute()
    {
        for (int i = 0; i < 3; i++)
        {
            assertNull(windows.charge(now.get(), "basic-account", "k", "ip", 1, 1, 0));
        }
        now.addAndGet(1_100); // out of the one-second window, still in the minute
        assertNull(windows.charge(now.get(), "basic-account", "k", "ip", 1, 1, 0));
        windows.refund(now.get(), "basic-account", "k", "ip", 1, 1, 0);
        assertNull(windows.charge(now.get(), "basic-account", "k", "ip", 1, 1, 0),
            "the refund gave the plan's fourth action back");
        assertEquals(new MmWindows.Budget(60_000, 4, 0, 60_899), windows.budget("basic-account"),
            "the budget shows the plan's minute once it has less left than the second; the first three, charged in " +
            "the 6 s " + "bucket from 6,000 ms, count until 71,999 ms");
        assertEquals("builder_plan", windows.charge(now.get(), "basic-account", "k", "ip", 1, 1, 0).scope());
    }

    @Test
    void aPlanRefusalLeavesTheOtherWindowsUncharged()
    {
        // the API key's window holds 5 a second: four plan actions and one other account's fit, a sixth would not
        final MmWindows tight = new MmWindows(new MmWindows.Limits(1_000, 100, 100, 5, 100, 100, 100),
            new MmWindows.Plans(4, 8, Set.of("basic-account"), Set.of()), now::get);
        for (int i = 0; i < 4; i++)
        {
            assertNull(tight.charge(now.get(), "basic-account", "k", "ip", 1, 1, 0));
        }
        assertEquals("builder_plan", tight.charge(now.get(), "basic-account", "k", "ip", 1, 1, 0).scope());
        assertNull(tight.charge(now.get(), "other", "k", "ip", 1, 1, 0),
            "the refused request took nothing from the key's window");
        assertEquals("api_key", tight.charge(now.get(), "other", "k", "ip", 1, 1, 0).scope());
    }

    @Test
    void aRefundTakesBackFromTheBucketItWasChargedIn()
    {
        // the key holds 2 a second: R is charged at the end of one bucket, O at the start of the next, then R
        // is refunded
        final MmWindows keyOfTwo = new MmWindows(new MmWindows.Limits(1_000, 100, 100, 2, 100, 100, 100),
            MmWindows.Plans.NONE, now::get);
        final long r = 10_099;
        assertNull(keyOfTwo.charge(r, "r", "k", "ip", 1, 1, 0));
        assertNull(keyOfTwo.charge(r + 1, "o", "k", "ip", 1, 1, 0));
        keyOfTwo.refund(r, "r", "k", "ip", 1, 1, 0);
        assertNull(keyOfTwo.charge(r + 2, "x", "k", "ip", 1, 1, 0), "R's place is free again");
        assertEquals("api_key", keyOfTwo.charge(r + 3, "y", "k", "ip", 1, 1, 0).scope());
        // O, charged at 10,100, counts until 11,199: had the refund emptied O's bucket, one more would pass at 11,100
        assertEquals("api_key", keyOfTwo.charge(11_100, "y", "k", "ip", 1, 1, 0).scope());
        assertNull(keyOfTwo.charge(11_199, "y", "k", "ip", 1, 1, 0));
    }

    @Test
    void aRefusalsResetWaitsForEveryFullWindow()
    {
        final MmWindows threes = new MmWindows(new MmWindows.Limits(1_000, 3, 100, 3, 100, 100, 100),
            MmWindows.Plans.NONE, now::get);
        for (int i = 0; i < 3; i++)
        {
            assertNull(threes.charge(10_000, "a", "k2", "ip", 1, 1, 0));
            assertNull(threes.charge(10_900, "b", "k", "ip", 1, 1, 0));
        }
        final MmWindows.Refusal refusal = threes.charge(10_950, "a", "k", "ip", 1, 1, 0);
        assertEquals("account", refusal.scope(), "the first full window is named");
        assertEquals(11_999 - 10_950, refusal.resetInMs(), "the key's window, full until 11,999, is waited for too");
        assertNull(threes.charge(10_950 + refusal.resetInMs(), "a", "k", "ip", 1, 1, 0));
    }

    @Test
    void theProPlanHasItsOwnLimitAndNoAccountIsOnBoth()
    {
        int admitted = 0;
        for (int second = 0; second < 5; second++)
        {
            for (int i = 0; i < 3; i++)
            {
                admitted += windows.charge(now.get(), "pro-account", "k" + second, "ip" + second, second, 1, 0) ==
                    null ?
                    1 : 0;
            }
            now.addAndGet(1_000);
        }
        assertEquals(8, admitted);
        assertThrows(IllegalArgumentException.class,
            () -> new MmWindows.Plans(4, 8, Set.of("both"), Set.of("both")));
    }

    @Test
    void aRefusalsResetIsWhenTheSameRequestFitsAgain()
    {
        final Random random = new Random(7);
        for (int trial = 0; trial < 2_000; trial++)
        {
            final AtomicLong clock = new AtomicLong(random.nextInt(1_000_000));
            final long max = 1 + random.nextInt(50);
            final MmWindows w = new MmWindows(new MmWindows.Limits(1_000, max, 1_000_000, 1_000_000, 1_000_000,
                1_000_000, 1_000_000), MmWindows.Plans.NONE, clock::get);
            // random traffic up to the limit, then one request of a random cost that is refused
            MmWindows.Refusal refusal = null;
            final long cost = 1 + random.nextInt((int)max);
            for (int charges = 0; refusal == null; charges++)
            {
                // at most 39 ms a charge against a window of 1,000 ms and at most 50 actions: refused long before this
                assertTrue(charges < 100_000, "trial " + trial + ": never refused");
                clock.addAndGet(random.nextInt(40));
                refusal = w.charge(clock.get(), "a", "k", "ip", 1, cost, 0);
            }
            final long wait = refusal.resetInMs();
            if (wait > 1)
            {
                clock.addAndGet(wait - 1);
                assertNotNull(w.charge(clock.get(), "a", "k", "ip", 1, cost, 0),
                    "trial " + trial + ": not yet after " + (wait - 1) + " ms");
                clock.addAndGet(1);
            }
            else
            {
                clock.addAndGet(wait);
            }
            assertNull(w.charge(clock.get(), "a", "k", "ip", 1, cost, 0),
                "trial " + trial + ": fits after " + wait + " ms");
        }
    }
}
