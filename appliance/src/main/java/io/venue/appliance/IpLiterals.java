package io.venue.appliance;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashSet;
import java.util.Set;

/**
 * IP addresses written as literals only: a host name in the configuration would be resolved once, at start, and
 * go stale.
 */
final class IpLiterals
{
    private IpLiterals()
    {
    }

    /** One IP literal. */
    static InetAddress one(final String text)
    {
        if (!text.matches("[0-9.]+|[0-9a-fA-F:]+"))
        {
            throw new IllegalArgumentException("'" + text + "' is not an IP address");
        }
        try
        {
            return InetAddress.getByName(text);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("'" + text + "' is not an IP address", ex);
        }
    }

    /** A comma-separated list of IP literals; blanks between commas are skipped. */
    static Set<InetAddress> list(final String value)
    {
        final Set<InetAddress> addresses = new HashSet<>();
        for (final String address : value.split(","))
        {
            if (!address.isBlank())
            {
                addresses.add(one(address.trim()));
            }
        }
        return Set.copyOf(addresses);
    }
}
