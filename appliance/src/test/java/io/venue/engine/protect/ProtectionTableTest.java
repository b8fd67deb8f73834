package io.venue.engine.protect;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The protection table: its capacity, slot reuse, the order due entries come out in (deadline, then kind, account
 * bytes, market, credential, session), and a property test against a plain model: the same operations give the same
 * table and the same fires, whatever the slots.
 */
class ProtectionTableTest
{
    private static UnsafeBuffer account(final int seed)
    {
        final byte[] bytes = new byte[20];
        Arrays.fill(bytes, (byte)seed);
        return new UnsafeBuffer(bytes);
    }

    @Test
    void aFullTableRefusesAndAFreedSlotIsTakenLowestFirst()
    {
        assertThrows(IllegalArgumentException.class, () -> new ProtectionTable(0));
        final ProtectionTable table = new ProtectionTable(3);
        assertEquals(0, table.add(ProtectionTable.DEAD_MAN, account(1), 0, 7, 0, 0, 100, 50));
        assertEquals(1, table.add(ProtectionTable.SESSION, account(2), 0, -1, 9, 11, ProtectionTable.NONE, 5));
        assertEquals(2, table.add(ProtectionTable.CANCEL_ON_DISCONNECT, account(3), 0, -1, 0, 0,
            ProtectionTable.NONE, 5));
        assertEquals(-1, table.add(ProtectionTable.DEAD_MAN, account(4), 0, 7, 0, 0, 100, 50), "full");
        assertEquals(3, table.size());
        table.remove(1);
        assertEquals(2, table.size());
        assertEquals(1, table.add(ProtectionTable.DEAD_MAN, account(4), 0, 7, 0, 0, 200, 50), "the freed slot");
        assertEquals(0, table.find(ProtectionTable.DEAD_MAN, account(1), 0, 7));
        assertEquals(-1, table.find(ProtectionTable.DEAD_MAN, account(1), 0, 8), "another market");
        assertEquals(-1, table.findSession(11), "removed");
        assertEquals(100, table.nextDeadline());
    }

    @Test
    void dueEntriesComeOutByDeadlineThenKeyAndTheNextDeadlineBecomesExact()
    {
        final ProtectionTable table = new ProtectionTable(8);
        table.add(ProtectionTable.DEAD_MAN, account(9), 0, -1, 0, 0, 300, 0);
        table.add(ProtectionTable.DISCONNECT, account(9), 0, -1, 1, 5, 300, 0);
        table.add(ProtectionTable.DEAD_MAN, account(2), 0, 4, 0, 0, 300, 0);
        table.add(ProtectionTable.DEAD_MAN, account(2), 0, 3, 0, 0, 300, 0);
        table.add(ProtectionTable.DEAD_MAN, account(5), 0, -1, 0, 0, 100, 0);
        table.add(ProtectionTable.DEAD_MAN, account(1), 0, -1, 0, 0, 900, 0);
        table.add(ProtectionTable.SESSION, account(0), 0, -1, 0, 1, ProtectionTable.NONE, 0);
        assertEquals(-1, table.nextDue(99));
        assertEquals(100, table.nextDeadline());
        final List<String> fired = new ArrayList<>();
        for (int slot = table.nextDue(300); slot >= 0; slot = table.nextDue(300))
        {
            final UnsafeBuffer who = new UnsafeBuffer(new byte[20]);
            table.accountInto(slot, who, 0);
            fired.add(table.deadlineOf(slot) + "/" + table.kindOf(slot) + "/" + who.getByte(0) + "/" +
                table.marketOf(slot));
            table.remove(slot);
        }
        // the disconnect sweep (kind 2) before the dead-man timers (kind 3) of the same deadline; then account bytes,
        // then market (-1, every market, first)
        assertEquals(List.of("100/3/5/-1", "300/2/9/-1", "300/3/2/3", "300/3/2/4", "300/3/9/-1"), fired);
        assertEquals(900, table.nextDeadline(), "exact once nothing was due");
        assertEquals(2, table.size());
    }

    @Test
    void aRestoredEntryMustFitAFreeSlotAndHaveAKind()
    {
        final ProtectionTable table = new ProtectionTable(2);
        final byte[] bytes = new byte[20];
        assertFalse(table.restore(2, ProtectionTable.DEAD_MAN, bytes, -1, 0, 0, 10, 10, false, (byte)0));
        assertFalse(table.restore(0, (byte)0, bytes, -1, 0, 0, 10, 10, false, (byte)0));
        assertFalse(table.restore(0, (byte)5, bytes, -1, 0, 0, 10, 10, false, (byte)0));
        assertTrue(table.restore(1, ProtectionTable.DEAD_MAN, bytes, -1, 0, 0, 10, 10, false, (byte)0));
        assertFalse(table.restore(1, ProtectionTable.DEAD_MAN, bytes, -1, 0, 0, 10, 10, false, (byte)0), "taken");
        assertEquals(10, table.nextDeadline());
        assertEquals(1, table.size());
    }

    /** One entry of the model: what the table holds, without its slot. */
    private record Entry(byte kind, int account, long market, long deadline)
    {
    }

    @Test
    void randomOperationsFireInTheModelsOrderAndTwoTablesStayEqual()
    {
        final Random random = new Random(26);
        for (int run = 0; run < 200; run++)
        {
            final int capacity = 1 + random.nextInt(16);
            final ProtectionTable table = new ProtectionTable(capacity);
            final ProtectionTable twin = new ProtectionTable(capacity);
            final List<Entry> model = new ArrayList<>();
            long now = 0;
            for (int step = 0; step < 300; step++)
            {
                final int op = random.nextInt(4);
                if (op <= 1)
                {
                    final byte kind = op == 0 ? ProtectionTable.DEAD_MAN : ProtectionTable.DISCONNECT;
                    final int who = random.nextInt(4);
                    final long market = random.nextInt(3) - 1;
                    final long deadline = now + random.nextInt(50);
                    if (table.find(kind, account(who), 0, market) >= 0)
                    {
                        // one entry per key, as the engine keeps them
                        continue;
                    }
                    final int slot = table.add(kind, account(who), 0, market, 0, 0, deadline, 0);
                    assertEquals(slot, twin.add(kind, account(who), 0, market, 0, 0, deadline, 0));
                    assertEquals(model.size() == capacity, slot < 0, "refused only when full");
                    if (slot >= 0)
                    {
                        model.add(new Entry(kind, who, market, deadline));
                    }
                }
                else if (op == 2)
                {
                    now += random.nextInt(30);
                    final long at = now;
                    final List<Entry> due = new ArrayList<>(model.stream().filter(e -> e.deadline() <= at).toList());
                    due.sort(Comparator.comparingLong(Entry::deadline).thenComparingInt(Entry::kind)
                        .thenComparingInt(Entry::account).thenComparingLong(Entry::market));
                    for (final Entry expected : due)
                    {
                        final int slot = table.nextDue(now);
                        assertEquals(slot, twin.nextDue(now));
                        assertTrue(slot >= 0);
                        final UnsafeBuffer who = new UnsafeBuffer(new byte[20]);
                        table.accountInto(slot, who, 0);
                        assertEquals(expected.deadline(), table.deadlineOf(slot));
                        assertEquals(expected.kind(), table.kindOf(slot));
                        assertEquals(expected.account(), who.getByte(0));
                        assertEquals(expected.market(), table.marketOf(slot));
                        table.remove(slot);
                        twin.remove(slot);
                        model.remove(expected);
                    }
                    assertEquals(-1, table.nextDue(now));
                    assertEquals(-1, twin.nextDue(now));
                    final long earliest = model.stream().mapToLong(Entry::deadline).min().orElse(ProtectionTable.NONE);
                    assertEquals(earliest, table.nextDeadline());
                }
                else if (!model.isEmpty())
                {
                    // renew one: its deadline moves later, the table's bound may stay early
                    final Entry renewed = model.get(random.nextInt(model.size()));
                    final int slot = table.find(renewed.kind(), account(renewed.account()), 0, renewed.market());
                    assertTrue(slot >= 0);
                    final long later = now + 50 + random.nextInt(50);
                    table.deadline(slot, later);
                    twin.deadline(slot, later);
                    model.set(model.indexOf(renewed), new Entry(renewed.kind(), renewed.account(), renewed.market(),
                        later));
                    assertTrue(table.nextDeadline() <= model.stream().mapToLong(Entry::deadline).min().orElseThrow(),
                        "a lower bound");
                }
                assertEquals(model.size(), table.size());
            }
        }
    }
}
