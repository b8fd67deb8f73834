package io.venue.action;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

import java.util.List;

/**
 * Random payloads of every action variant, with values spread over the edges of their ranges.
 */
public final class ActionArbitraries
{
    private ActionArbitraries()
    {
    }

    public static Arbitrary<Long> u64()
    {
        return Arbitraries.oneOf(
            Arbitraries.of(0L, 1L, 9L, 10L, Long.MAX_VALUE, Long.MIN_VALUE, -1L, -2L),
            Arbitraries.longs(),
            Arbitraries.longs().between(0, 10_000_000_000L));
    }

    public static Arbitrary<Long> u32()
    {
        return Arbitraries.oneOf(Arbitraries.of(0L, 1L, 0xFFFF_FFFFL), Arbitraries.longs().between(0, 0xFFFF_FFFFL));
    }

    public static Arbitrary<Long> millis()
    {
        return Arbitraries.oneOf(Arbitraries.of(0L, Long.MAX_VALUE, 1_763_000_000_000L),
            Arbitraries.longs().between(0, Long.MAX_VALUE));
    }

    public static Arbitrary<byte[]> bytes(final int length)
    {
        return Arbitraries.bytes().array(byte[].class).ofSize(length);
    }

    public static Arbitrary<Address> addresses()
    {
        return bytes(Address.LENGTH).map(Address::new);
    }

    public static Arbitrary<OrderId> orderIds()
    {
        return bytes(OrderId.LENGTH).map(OrderId::new);
    }

    public static Arbitrary<ClientOrderId> clientOrderIds()
    {
        return bytes(ClientOrderId.LENGTH).map(ClientOrderId::new);
    }

    public static Arbitrary<SpotPlaceOrder> placeOrders()
    {
        final Arbitrary<Book> books = Arbitraries.of(Book.class).injectNull(0.5);
        final Arbitrary<StpMode> stp = Arbitraries.of(StpMode.class).injectNull(0.3);
        final Arbitrary<Long> expiry = Arbitraries.oneOf(Arbitraries.just(SpotPlaceOrder.NO_EXPIRY), millis());
        return Combinators.combine(
            u32(), books, Arbitraries.of(Side.class), u64(), u64(), stp, Arbitraries.of(TimeInForce.class),
            Arbitraries.of(true, false))
            .flatAs((market, book, side, price, qty, stpMode, tif, isMarket) ->
                Combinators.combine(Arbitraries.of(true, false), expiry).as((reduceOnly, expiresAt) ->
                    new SpotPlaceOrder(market, book, side, price, qty, stpMode, tif, isMarket, reduceOnly, expiresAt)));
    }

    public static Arbitrary<BatchLeg> batchLegs()
    {
        return Arbitraries.oneOf(
            placeOrders(),
            orderIds().map(Cancel::new),
            Combinators.combine(orderIds(), u64(), u64()).as(Amend::new),
            clientOrderIds().map(CancelByClientOrderId::new));
    }

    public static Arbitrary<Action> actions()
    {
        final Arbitrary<SetKillSwitch> killSwitches = Combinators.combine(
            Arbitraries.of(KillScope.class), addresses(), u32(), Arbitraries.of(true, false))
            .as((scope, account, market, active) -> switch (scope)
            {
                case ACCOUNT -> new SetKillSwitch(scope, account, SetKillSwitch.NO_MARKET, active);
                case MARKET -> new SetKillSwitch(scope, null, market, active);
                case VENUE -> new SetKillSwitch(scope, null, SetKillSwitch.NO_MARKET, active);
            });
        return Arbitraries.oneOf(List.of(
            placeOrders(),
            batchLegs(),
            batchLegs().list().ofMinSize(1).ofMaxSize(8).map(Batch::new),
            Arbitraries.oneOf(Arbitraries.just(CancelAll.ALL_MARKETS), u32()).map(CancelAll::new),
            Combinators.combine(u32(), u64()).as(Split::new),
            Combinators.combine(u32(), u64()).as(Merge::new),
            Combinators.combine(u32(), Arbitraries.strings().withChars("ABCXYZ0129").ofMinLength(1).ofMaxLength(12))
                .as(CreateAsset::new),
            Combinators.combine(u32(), u32(), u32(), u64(), u64(), u64()).as(CreateSpotMarket::new),
            Combinators.combine(u32(), u32(), u64(), u64(), u64()).as(CreateOutcomeMarket::new),
            u32().map(HaltMarket::new),
            u32().map(ResumeMarket::new),
            killSwitches,
            Combinators.combine(addresses(), u32(), u64()).as(Deposit::new),
            Combinators.combine(addresses(), u32(), u64()).as(Withdraw::new),
            Combinators.combine(addresses(), addresses().injectNull(0.3))
                .as((account, owner) -> new SetVaultOwner(account, account.equals(owner) ? null : owner)),
            fixOnboardings()));
    }

    /** Valid SetFixOnboarding records: markets ascending and distinct, or null for all. */
    public static Arbitrary<SetFixOnboarding> fixOnboardings()
    {
        final Arbitrary<String> ids = Arbitraries.longs().filter(id -> id != 0)
            .map(id -> "spk_" + String.format("%016x", id));
        final Arbitrary<List<Long>> markets = u32().set().ofMaxSize(SetFixOnboarding.MAX_MARKETS)
            .map(set -> set.stream().sorted().toList()).injectNull(0.3);
        return Combinators.combine(ids, Arbitraries.of(true, false), Arbitraries.of(true, false), markets,
            Arbitraries.of(FixRateTier.class).injectNull(0.3), Arbitraries.of(true, false),
            Arbitraries.longs().between(0, SetFixOnboarding.MAX_COD_GRACE_MS))
            .as(SetFixOnboarding::new);
    }

    public static Arbitrary<ActionPayload> payloads()
    {
        return Combinators.combine(addresses(), u64(), clientOrderIds().injectNull(0.5), millis(), actions())
            .as(ActionPayload::new);
    }

    public static Arbitrary<SignedAction> signedActions()
    {
        return Combinators.combine(payloads(), bytes(Signature65.LENGTH).map(Signature65::new)).as(SignedAction::new);
    }
}
