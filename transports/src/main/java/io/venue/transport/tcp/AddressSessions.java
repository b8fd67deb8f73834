package io.venue.transport.tcp;

import io.venue.entry.admission.EdgeThrottle;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A session lane's per-address cap: at most {@code perAddress} connections open at once from one remote address (an
 * IPv6 address by its /64, as {@link EdgeThrottle#key} and the HTTP lane's connection caps count), checked when a
 * connection becomes active, before any login work is spent on it. The exempt addresses (edge.ip.exempt: a colocated
 * gateway, a load generator) are never refused and never counted.
 * <p>
 * Bounded: the table holds only addresses with a connection open, each once, and refuses a new address once it holds
 * {@code maxAddresses} (the lane's total cap, which the lane checks first, so a refusal here is a stranger racing it).
 * Called from the lane's I/O threads.
 */
public final class AddressSessions
{
    /** What {@link #acquire} answers for an exempt address: 0.0.0.0, never a peer's address. */
    private static final InetAddress EXEMPT = exemptMarker();

    private final int perAddress;
    private final int maxAddresses;
    private final Set<InetAddress> exempt;
    private final ConcurrentHashMap<InetAddress, Integer> open = new ConcurrentHashMap<>();

    /**
     * @param perAddress   connections one address (IPv6: one /64) may hold open at once; at least 1.
     * @param maxAddresses addresses the table tracks at most (the lane's total connection cap); at least 1.
     * @param exempt       addresses never refused (their own form: an IPv6 address is exempt by itself, not its /64).
     */
    public AddressSessions(final int perAddress, final int maxAddresses, final Set<InetAddress> exempt)
    {
        if (perAddress < 1 || maxAddresses < 1)
        {
            throw new IllegalArgumentException("perAddress and maxAddresses must be positive: " + perAddress + ", " +
                maxAddresses);
        }
        this.perAddress = perAddress;
        this.maxAddresses = maxAddresses;
        this.exempt = Set.copyOf(exempt);
    }

    /**
     * Counts a connection from {@code remote} and answers the key to give back to {@link #release} when it closes, or
     * null when the address holds its cap already (nothing counted). An exempt address is not counted (its key is one
     * that {@link #release} ignores).
     */
    public InetAddress acquire(final InetAddress remote)
    {
        if (exempt.contains(remote))
        {
            return EXEMPT;
        }
        final InetAddress key = EdgeThrottle.key(remote);
        final boolean[] taken = {false};
        open.compute(key, (address, count) ->
        {
            final int now = count == null ? 0 : count;
            if (now >= perAddress || count == null && open.size() >= maxAddresses)
            {
                return count;
            }
            taken[0] = true;
            return now + 1;
        });
        return taken[0] ? key : null;
    }

    /** Gives back a connection counted by {@link #acquire} (with the key it answered); an address at zero leaves. */
    public void release(final InetAddress key)
    {
        if (key == null || key == EXEMPT)
        {
            return;
        }
        open.computeIfPresent(key, (address, count) -> count <= 1 ? null : count - 1);
    }

    /** The cap per address. */
    public int perAddress()
    {
        return perAddress;
    }

    /** Addresses with a connection open now (the table's size). */
    public int addressesTracked()
    {
        return open.size();
    }

    private static InetAddress exemptMarker()
    {
        try
        {
            return InetAddress.getByAddress(new byte[4]);
        }
        catch (final UnknownHostException impossible)
        {
            throw new IllegalStateException(impossible);
        }
    }
}
