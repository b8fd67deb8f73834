package io.venue.engine.book;

import java.util.Arrays;

/**
 * Binary min-heap of the slots of resting orders that have an expiry, ordered by (expiresAt, sequence, slot)
 * so that expiry is reported in one deterministic order. Each slot knows its heap position, so an order that
 * leaves the book for any other reason is taken out in O(log n).
 */
final class ExpiryQueue
{
    private static final int ABSENT = -1;

    private final OrderPool pool;
    private final int[] heap;
    private final int[] positions;
    private int size;

    ExpiryQueue(final OrderPool pool)
    {
        this.pool = pool;
        heap = new int[pool.capacity()];
        positions = new int[pool.capacity()];
        Arrays.fill(positions, ABSENT);
    }

    int size()
    {
        return size;
    }

    boolean isEmpty()
    {
        return size == 0;
    }

    /** @return the slot expiring first, or {@link OrderPool#NULL_SLOT}. */
    int peek()
    {
        return size == 0 ? OrderPool.NULL_SLOT : heap[0];
    }

    void add(final int slot)
    {
        final int position = size++;
        heap[position] = slot;
        positions[slot] = position;
        siftUp(position);
    }

    /** Removes the slot if it is queued; does nothing otherwise. */
    void remove(final int slot)
    {
        final int position = positions[slot];
        if (position == ABSENT)
        {
            return;
        }
        positions[slot] = ABSENT;
        final int last = --size;
        if (position != last)
        {
            final int moved = heap[last];
            heap[position] = moved;
            positions[moved] = position;
            if (!siftUp(position))
            {
                siftDown(position);
            }
        }
    }

    private boolean siftUp(final int start)
    {
        int position = start;
        final int slot = heap[position];
        while (position > 0)
        {
            final int parentPosition = (position - 1) >>> 1;
            final int parent = heap[parentPosition];
            if (!before(slot, parent))
            {
                break;
            }
            heap[position] = parent;
            positions[parent] = position;
            position = parentPosition;
        }
        heap[position] = slot;
        positions[slot] = position;
        return position != start;
    }

    private void siftDown(final int start)
    {
        int position = start;
        final int slot = heap[position];
        final int half = size >>> 1;
        while (position < half)
        {
            int childPosition = 2 * position + 1;
            int child = heap[childPosition];
            final int rightPosition = childPosition + 1;
            if (rightPosition < size && before(heap[rightPosition], child))
            {
                childPosition = rightPosition;
                child = heap[childPosition];
            }
            if (!before(child, slot))
            {
                break;
            }
            heap[position] = child;
            positions[child] = position;
            position = childPosition;
        }
        heap[position] = slot;
        positions[slot] = position;
    }

    private boolean before(final int a, final int b)
    {
        final long expiresA = pool.expiresAt(a);
        final long expiresB = pool.expiresAt(b);
        if (expiresA != expiresB)
        {
            return expiresA < expiresB;
        }
        final long sequenceA = pool.sequence(a);
        final long sequenceB = pool.sequence(b);
        if (sequenceA != sequenceB)
        {
            return sequenceA < sequenceB;
        }
        return a < b;
    }
}
