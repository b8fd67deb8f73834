package io.venue.crypto;

import io.venue.action.Address;
import io.venue.action.OrderId;

/**
 * The text signed with EIP-191 for the cancel leg of an MM cancel-replace (spec 5.3):
 * <pre>
 * Service CancelById
 * orderId:0x&lt;64 lowercase hex&gt;
 * trader:0x&lt;40 lowercase hex&gt;
 * </pre>
 * Lines joined by a single line feed, no trailing line feed. Hex is lowercase (no EIP-55 checksum).
 */
public final class CancelByIdText
{
    public static final String FIRST_LINE = "Service CancelById";

    private CancelByIdText()
    {
    }

    public static String text(final OrderId orderId, final Address trader)
    {
        return FIRST_LINE + "\norderId:" + orderId + "\ntrader:" + trader;
    }
}
