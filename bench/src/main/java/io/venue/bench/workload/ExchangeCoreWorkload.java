package io.venue.bench.workload;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.Cancel;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.engine.Engine;
import io.venue.engine.EngineConfig;
import io.venue.engine.EngineView;
import io.venue.journal.sbe.SignerMatch;
import io.venue.sequencer.ActionCommandEncoder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A command stream of the shape exchange-core publishes for its single-market benchmark, so the two can
 * be compared: one market, 2,000 accounts, about 1,000 resting orders within ±5% of mid, sizes 1 to 126
 * lots; 71% price amends, 12.6% GTC places, 1.8% IOC places, 7.2% cancels, 7.2% quantity reductions.
 * <p>
 * The stream is generated once against a reference engine so that every amend and cancel names an order
 * that is really open at that point; commands are stored as journal records back to back
 * ({@code int length} then the record). Signatures are not part of this stream: the engine trusts the
 * verifier's result recorded in the command, as it does in production.
 */
public final class ExchangeCoreWorkload
{
    public static final Address OPERATOR = Address.of("0x00000000000000000000000000000000000000ff");
    public static final long MARKET = 1;
    /**
     * With {@code -Dvenue.bench.amendKeepsSize=true} the runs generate the variant whose price amends keep the order's
     * size ({@link #generate(int, int, long, boolean)}): the stream exchange-core's move can follow exactly.
     */
    public static final String AMEND_KEEPS_SIZE_PROPERTY = "venue.bench.amendKeepsSize";
    private static final long BASE = 2;
    private static final long QUOTE = 1;
    private static final long TICK = 100;
    private static final long LOT = 1_000;
    private static final long MID = 1_000_000;
    private static final int TARGET_RESTING = 1_000;

    private final ExpandableDirectByteBuffer records;
    private final int length;
    private final int commands;
    private final int setupCommands;

    private final long[] mix;

    private ExchangeCoreWorkload(
        final ExpandableDirectByteBuffer records, final int length, final int commands, final int setupCommands,
        final long[] mix)
    {
        this.mix = mix;
        this.records = records;
        this.length = length;
        this.commands = commands;
        this.setupCommands = setupCommands;
    }

    /**
     * The configuration the stream is meant for: venue limits as usual, the per-account rate off (exchange-core
     * has none).
     */
    public static EngineConfig config()
    {
        return new EngineConfig().operator(OPERATOR).actionRate(1_000_000_000L, 1).expectedAccounts(4_096)
            .orderCapacityPerBook(1 << 16);
    }

    /** Takes the command records of {@link #stream}, one at a time; the buffer is reused after the call. */
    @FunctionalInterface
    public interface CommandSink
    {
        void onCommand(DirectBuffer buffer, int offset, int length);
    }

    public static ExchangeCoreWorkload generate(final int accounts, final int measuredCommands, final long seed)
    {
        return generate(accounts, measuredCommands, seed, false);
    }

    /**
     * The stream, or with {@code amendKeepsSize} its variant whose price amends give the order the size it was last
     * given (so only its price changes, as exchange-core's move does), all else the same: the same random numbers are
     * drawn, so the choices of command, order, price and the sizes of places are those of the stream itself until the
     * books differ.
     */
    public static ExchangeCoreWorkload generate(final int accounts, final int measuredCommands, final long seed,
        final boolean amendKeepsSize)
    {
        final Generator generator = new Generator(accounts, seed, null, amendKeepsSize);
        return generator.run(measuredCommands);
    }

    /** The variant {@link #AMEND_KEEPS_SIZE_PROPERTY} asks for: false unless set. */
    public static boolean amendKeepsSizeAsked()
    {
        return Boolean.getBoolean(AMEND_KEEPS_SIZE_PROPERTY);
    }

    /**
     * The same stream as {@link #generate}, handed record by record to {@code sink} instead of kept: for runs
     * longer than memory holds. The returned workload holds no records.
     */
    public static ExchangeCoreWorkload stream(final int accounts, final int measuredCommands, final long seed,
        final CommandSink sink)
    {
        final Generator generator = new Generator(accounts, seed, sink, false);
        return generator.run(measuredCommands);
    }

    /** Hands every record, set-up included, to {@code sink} in order. */
    public void forEach(final CommandSink sink)
    {
        int position = 0;
        while (position < length)
        {
            final int recordLength = records.getInt(position);
            sink.onCommand(records, position + 4, recordLength);
            position += 4 + recordLength;
        }
    }

    public DirectBuffer records()
    {
        return records;
    }

    public int length()
    {
        return length;
    }

    /** All commands, setup included. */
    public int commands()
    {
        return commands;
    }

    /** The realized mix of the measured commands: GTC, IOC, price amend, cancel, quantity reduction, in percent. */
    public String mix()
    {
        final double total = mix[0] + mix[1] + mix[2] + mix[3] + mix[4];
        return String.format(Locale.ROOT, "GTC %.1f%%, IOC %.1f%%, amend price %.1f%%, cancel %.1f%%, reduce %.1f%%",
            100 * mix[0] / total, 100 * mix[1] / total, 100 * mix[2] / total, 100 * mix[3] / total,
            100 * mix[4] / total);
    }

    /** The first commands list the market and fund the accounts; measurements skip them. */
    public int setupCommands()
    {
        return setupCommands;
    }

    private static final class Generator
    {
        private final SplittableRandom random;
        private final Address[] accounts;
        private final long[] nonces;
        private final ActionCommandEncoder encoder = new ActionCommandEncoder();
        private final ExpandableDirectByteBuffer records = new ExpandableDirectByteBuffer(1 << 20);
        private final Engine reference;
        private final List<OrderId> open = new ArrayList<>();
        private final List<Address> openOwners = new ArrayList<>();
        private final List<Long> openPrices = new ArrayList<>();
        private final List<Side> openSides = new ArrayList<>();
        /** The size each open order was last given (placed or amended), for the variant whose amends keep it. */
        private final List<Long> openQtys = new ArrayList<>();
        private final boolean amendKeepsSize;
        private final byte[] digest = new byte[32];
        private final byte[] zero = new byte[20];
        private int length;
        private int count;
        private long sequence;
        private long now = 1_763_000_000_000L;
        private long digestCounter;
        private final long[] mix = new long[5];
        private final CommandSink sink;

        Generator(final int accountCount, final long seed, final CommandSink sink, final boolean amendKeepsSize)
        {
            this.sink = sink;
            this.amendKeepsSize = amendKeepsSize;
            random = new SplittableRandom(seed);
            accounts = new Address[accountCount];
            nonces = new long[accountCount + 1];
            for (int i = 0; i < accountCount; i++)
            {
                accounts[i] = Address.of(String.format("0x%040x", 0x10000 + i));
            }
            reference = new Engine(config(), (buffer, offset, len) -> { });
        }

        ExchangeCoreWorkload run(final int measured)
        {
            emit(OPERATOR, accounts.length, new CreateAsset(QUOTE, "USD"));
            emit(OPERATOR, accounts.length, new CreateAsset(BASE, "BTC"));
            emit(OPERATOR, accounts.length, new CreateSpotMarket(MARKET, BASE, QUOTE, TICK, LOT, LOT));
            for (final Address account : accounts)
            {
                emit(OPERATOR, accounts.length, new Deposit(account, QUOTE, 1_000_000_000_000_000L));
                emit(OPERATOR, accounts.length, new Deposit(account, BASE, 1_000_000_000_000L));
            }
            while (reference.openOrders() < TARGET_RESTING)
            {
                place(TimeInForce.GTC);
            }
            final int setup = count;
            for (int i = 0; i < measured; i++)
            {
                int pick = random.nextInt(1000);
                // keep about TARGET_RESTING orders: a GTC above the band becomes a cancel and the reverse
                final int resting = reference.openOrders();
                if (pick < 126 && resting > TARGET_RESTING * 21 / 20)
                {
                    pick = 900;
                }
                else if (pick >= 854 && pick < 926 && resting < TARGET_RESTING * 19 / 20)
                {
                    pick = 0;
                }
                if (open.isEmpty() || pick < 126)
                {
                    place(TimeInForce.GTC);
                    mix[0]++;
                }
                else if (pick < 144)
                {
                    place(TimeInForce.IOC);
                    mix[1]++;
                }
                else if (pick < 854)
                {
                    amendPrice();
                    mix[2]++;
                }
                else if (pick < 926)
                {
                    cancel();
                    mix[3]++;
                }
                else
                {
                    reduce();
                    mix[4]++;
                }
            }
            return new ExchangeCoreWorkload(records, length, count, setup, mix);
        }

        private void place(final TimeInForce tif)
        {
            final int who = random.nextInt(accounts.length);
            final Side side = random.nextBoolean() ? Side.BID : Side.ASK;
            // resting orders sit on their own side within 5% of mid; IOCs reach across
            final long offset = TICK * (1 + random.nextInt((int)(MID / 20 / TICK)));
            final long price = tif == TimeInForce.IOC ?
                (side == Side.BID ? MID + offset : MID - offset) : (side == Side.BID ? MID - offset : MID + offset);
            final long qty = LOT * (1 + random.nextInt(126));
            final int before = reference.openOrders();
            emit(accounts[who], who, new SpotPlaceOrder(MARKET, null, side, price, qty, null, tif, false, false, -1));
            if (tif == TimeInForce.GTC && reference.openOrders() > before)
            {
                open.add(new OrderId(digest.clone()));
                openOwners.add(accounts[who]);
                openPrices.add(price);
                openSides.add(side);
                openQtys.add(qty);
            }
            pruneFilled();
        }

        private void amendPrice()
        {
            final int i = random.nextInt(open.size());
            // a move stays on its own side of mid, as in exchange-core's workload
            final long offset = TICK * (1 + random.nextInt((int)(MID / 20 / TICK)));
            final long price = openSides.get(i) == Side.BID ? MID - offset : MID + offset;
            final long drawn = LOT * (1 + random.nextInt(126));
            final long qty = amendKeepsSize ? openQtys.get(i) : drawn;
            emit(openOwners.get(i), indexOf(openOwners.get(i)), new Amend(open.get(i), price, qty));
            openPrices.set(i, price);
            openQtys.set(i, qty);
            pruneFilled();
        }

        private void reduce()
        {
            final int i = random.nextInt(open.size());
            // same price, the smallest size: a reduction that keeps priority
            emit(openOwners.get(i), indexOf(openOwners.get(i)), new Amend(open.get(i), openPrices.get(i), LOT));
            openQtys.set(i, LOT);
            pruneFilled();
        }

        private void cancel()
        {
            final int i = random.nextInt(open.size());
            emit(openOwners.get(i), indexOf(openOwners.get(i)), new Cancel(open.get(i)));
            pruneFilled();
        }

        /** Drops orders the reference engine no longer holds (filled by IOCs or amended across the spread). */
        private void pruneFilled()
        {
            if (reference.openOrders() == open.size())
            {
                return;
            }
            final EngineView view = reference.view();
            for (int i = open.size() - 1; i >= 0; i--)
            {
                if (!view.isOpen(open.get(i).toBytes()))
                {
                    final int last = open.size() - 1;
                    open.set(i, open.get(last));
                    openOwners.set(i, openOwners.get(last));
                    openPrices.set(i, openPrices.get(last));
                    openSides.set(i, openSides.get(last));
                    openQtys.set(i, openQtys.get(last));
                    openSides.remove(last);
                    openQtys.remove(last);
                    open.remove(last);
                    openOwners.remove(last);
                    openPrices.remove(last);
                }
            }
        }

        private int indexOf(final Address account)
        {
            return (int)(Long.parseLong(account.toString().substring(2), 16) - 0x10000);
        }

        private void emit(final Address account, final int nonceSlot, final Action action)
        {
            now += 1;
            final ActionPayload payload = new ActionPayload(account, nonces[nonceSlot]++, null, now, action);
            // a unique digest per command stands in for the v2 digest: the engine only uses it as an id
            final long id = ++digestCounter;
            Arrays.fill(digest, (byte)0);
            for (int i = 0; i < 8; i++)
            {
                digest[24 + i] = (byte)(id >>> (56 - 8 * i));
            }
            records.checkLimit(length + 4 + 1024);
            final int recordLength = encoder.encode(++sequence, now, 1, payload, digest, SignerMatch.ACCOUNT_RAW,
                account.toBytes(), zero, records, length + 4);
            records.putInt(length, recordLength);
            reference.onCommand(records, length + 4, recordLength);
            count++;
            if (null != sink)
            {
                sink.onCommand(records, length + 4, recordLength);
                return;
            }
            length += 4 + recordLength;
        }
    }
}
