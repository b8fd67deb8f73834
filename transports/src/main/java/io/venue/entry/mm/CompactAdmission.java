package io.venue.entry.mm;

import io.venue.action.Address;
import io.venue.action.OrderId;
import io.venue.action.typed.TypedOrder;
import io.venue.entry.TypedOrders;
import org.agrona.DirectBuffer;

import java.util.function.LongPredicate;
import java.util.function.ToLongFunction;

/**
 * The lane-neutral admission of a request of compact orders (spec 8.2), whatever carried it (the HTTP compact routes,
 * a BSL TCP session): the market listed, every order of the account the session or credential acts for, every order's
 * ts within the skew, and the MM windows charged (cancels in their own scope, places and amends as actions of their
 * market). A lane renders the {@link Fault} or the {@link MmWindows.Refusal} in its wire form, and gives back the
 * charge of what the verifier pool did not take ({@link #refund}). Thread safe (the windows lock themselves).
 */
public final class CompactAdmission
{
    /** What an order that is a cancel charges in {@link Admitted#markets}: no market window counts it. */
    private static final long CANCEL = -1;

    /** Why a request was refused before any window was charged: where ({@code field}) and why. */
    public enum FaultKind
    {
        MARKET_NOT_LISTED, WRONG_ACCOUNT, TS_SKEW
    }

    public record Fault(FaultKind kind, String field, String message)
    {
    }

    /**
     * An admitted request, charged at {@code chargedAtMs}: {@code markets[i]} is the market whose window order i was
     * charged to as an action, or a cancel's mark, to refund what the pool does not take.
     */
    public record Admitted(String account, String apiKeyId, String address, long chargedAtMs, long[] markets)
    {
    }

    /** One of: admitted, a fault (nothing charged), or a full window (nothing charged). */
    public record Verdict(Admitted admitted, Fault fault, MmWindows.Refusal full)
    {
    }

    private final MmWindows windows;
    private final long tsSkewMs;
    private final LongPredicate marketListed;
    private final ToLongFunction<String> orderMarket;

    /**
     * @param marketListed whether the venue lists a market (null: every market).
     * @param orderMarket  the market of a known order by its 0x id, or below 0 (null: none known).
     */
    public CompactAdmission(final MmWindows windows, final long tsSkewMs, final LongPredicate marketListed,
        final ToLongFunction<String> orderMarket)
    {
        this.windows = windows;
        this.tsSkewMs = tsSkewMs;
        this.marketListed = marketListed;
        this.orderMarket = orderMarket;
    }

    public long tsSkewMs()
    {
        return tsSkewMs;
    }

    public MmWindows windows()
    {
        return windows;
    }

    /**
     * Checks and charges a request of {@code account} (its 20 bytes {@code accountBytes}) through {@code apiKeyId}
     * (the windows' key scope) from {@code address} (the per-address window's key), with the server's clock at
     * {@code nowMs}.
     */
    public Verdict admit(final TypedOrders orders, final String account, final byte[] accountBytes,
        final String apiKeyId, final String address, final long nowMs)
    {
        if (marketListed != null && !marketListed.test(orders.market()))
        {
            // the request's market carries the per-market window's charge: it must be one the venue lists
            return new Verdict(null, new Fault(FaultKind.MARKET_NOT_LISTED, "market",
                "market " + Long.toUnsignedString(orders.market()) + " is not listed"), null);
        }
        final DirectBuffer buffer = orders.buffer();
        final long[] markets = new long[orders.size()];
        for (int i = 0; i < orders.size(); i++)
        {
            final int at = orders.offset(i);
            if (!sameAccount(buffer, at, accountBytes))
            {
                final byte[] other = new byte[Address.LENGTH];
                buffer.getBytes(at + TypedOrder.ACCOUNT, other);
                return new Verdict(null, new Fault(FaultKind.WRONG_ACCOUNT, "orders[" + i + "].account",
                    "the credential acts for " + account + ", not for " + new Address(other)), null);
            }
            final long ts = TypedOrder.ts(buffer, at);
            if (ts < nowMs - tsSkewMs || ts > nowMs + tsSkewMs)
            {
                return new Verdict(null, new Fault(FaultKind.TS_SKEW, "orders[" + i + "].ts",
                    "must be within " + tsSkewMs + " ms of the server's clock (" + nowMs + ")"), null);
            }
            markets[i] = chargedMarket(orders, i);
        }
        final long chargedAtMs = windows.nowMs();
        final MmWindows.Refusal full = windows.charge(chargedAtMs, account, apiKeyId, address, cost(markets, 0));
        if (full != null)
        {
            return new Verdict(null, null, full);
        }
        return new Verdict(new Admitted(account, apiKeyId, address, chargedAtMs, markets), null, null);
    }

    /** Gives back the charge of the orders from {@code from} on: the pool did not take them. */
    public void refund(final Admitted admitted, final int from)
    {
        windows.refund(admitted.chargedAtMs(), admitted.account(), admitted.apiKeyId(), admitted.address(),
            cost(admitted.markets(), from));
    }

    /** The account's budget, as every accepted answer carries it (spec 8.2). */
    public MmWindows.Budget budget(final String account)
    {
        return windows.budget(account);
    }

    private static boolean sameAccount(final DirectBuffer buffer, final int at, final byte[] account)
    {
        for (int i = 0; i < Address.LENGTH; i++)
        {
            if (buffer.getByte(at + TypedOrder.ACCOUNT + i) != account[i])
            {
                return false;
            }
        }
        return true;
    }

    /**
     * The market whose window an order counts in as an action (spec 8.2: cancels cost nothing against the action budget
     * and count in their own scope): a place's is the request's; an amend's is its order's, when the node knows the
     * order, else the request's (an order not yet journaled, or gone, which the engine will refuse).
     */
    private long chargedMarket(final TypedOrders orders, final int index)
    {
        final int kind = TypedOrder.kind(orders.buffer(), orders.offset(index));
        if (kind == TypedOrder.PLACE)
        {
            return orders.market();
        }
        if (kind == TypedOrder.AMEND)
        {
            final byte[] id = new byte[OrderId.LENGTH];
            orders.buffer().getBytes(orders.offset(index) + TypedOrder.ORDER_ID, id);
            final long known = orderMarket == null ? -1 : orderMarket.applyAsLong(new OrderId(id).toString());
            return known < 0 ? orders.market() : known;
        }
        return CANCEL;
    }

    /** What the orders from {@code from} on cost in the MM windows. */
    private static MmWindows.Cost cost(final long[] markets, final int from)
    {
        final MmWindows.Cost cost = new MmWindows.Cost();
        for (int i = from; i < markets.length; i++)
        {
            if (markets[i] == CANCEL)
            {
                cost.cancels(1);
            }
            else
            {
                cost.action(markets[i]);
            }
        }
        return cost;
    }
}
