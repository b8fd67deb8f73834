package io.venue.transport.http;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class MmWindowsTest
{
    private final AtomicLong now = new AtomicLong(10_000);
    private final MmWindows windows = new MmWindows(new MmWindows.Limits(1_000, 3, 5, 100, 100, 100, 100),
        new MmWindows.Plans(4, 8, java.util.Set.of("basic-account"), java.util.Set.of("pro-account")), now::get);

    @Test
    void eachWindowRefusesPastItsLimitAndARefusalCostsNothing()
    {
        for (int i = 0; i < 3; i++)
        {
            assertNull(windows.charge("a", "k", "ip", 1, 1, 1));
        }
        final MmWindows.Refusal full = windows.charge("a", "k", "ip", 1, 1, 1);
        assertEquals("account", full.scope());
        assertEquals(3, full.usedActions());
        assertEquals(1_000, full.resetInMs());
        assertEquals(new MmWindows.Budget(3, 0, 1_000), windows.budget("a"), "the refusal charged nothing");
        assertNull(windows.charge("b", "k", "ip", 1, 1, 1), "another account has its own window");
        // cancels cost nothing against the action budget, only against the cancel window
        now.addAndGet(1_000);
        assertNull(windows.charge("c", "k2", "ip2", 2, 0, 5));
        assertEquals("account_cancels", windows.charge("c", "k2", "ip2", 2, 0, 1).scope());
    }

    @Test
    void aBuilderPlanCapsTheAccountPerMinute()
    {
        int admitted = 0;
        for (int second = 0; second < 10; second++)
        {
            for (int i = 0; i < 3; i++)
            {
                if (windows.charge("basic-account", "k", "ip", 1, 1, 0) == null)
                {
                    admitted++;
                }
            }
            now.addAndGet(1_000);
        }
        assertEquals(4, admitted, "the basic plan's 4 a minute, though the per-second window allows 3 a second");
        final MmWindows.Refusal refusal = windows.charge("basic-account", "k", "ip", 1, 1, 0);
        assertEquals("builder_plan", refusal.scope());
        assertEquals(4, refusal.maxActionsPerWindow());
        assertNull(windows.charge("no-plan", "k", "ip", 1, 1, 0));
    }

    @Test
    void aRefundGivesTheChargeBack()
    {
        assertNull(windows.charge("a", "k", "ip", 1, 1, 1));
        windows.refund("a", "k", "ip", 1, 1, 1);
        assertEquals(0, windows.budget("a").usedActions());
    }

    @Test
    void theWindowSlides()
    {
        for (int i = 0; i < 3; i++)
        {
            assertNull(windows.charge("a", "k", "ip", 1, 1, 0));
        }
        now.addAndGet(1_000); // the three are in the previous fixed window, fully inside the sliding one
        assertEquals("account", windows.charge("a", "k", "ip", 1, 1, 0).scope());
        now.addAndGet(500); // half of the previous window still overlaps: 1.5 actions of 3 used
        assertNull(windows.charge("a", "k", "ip", 1, 1, 0));
        now.addAndGet(1_000); // the previous window fell out
        assertEquals(new MmWindows.Budget(0, 3, 500), windows.budget("a"));
    }
}
