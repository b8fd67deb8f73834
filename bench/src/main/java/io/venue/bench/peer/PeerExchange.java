package io.venue.bench.peer;

import exchange.core2.core.ExchangeApi;
import exchange.core2.core.ExchangeCore;
import exchange.core2.core.common.L2MarketData;
import exchange.core2.core.common.api.ApiCommand;
import exchange.core2.core.common.api.ApiPlaceOrder;
import exchange.core2.core.common.api.binary.BatchAddSymbolsCommand;
import exchange.core2.core.common.cmd.CommandResultCode;
import exchange.core2.core.common.cmd.OrderCommand;
import exchange.core2.core.common.cmd.OrderCommandType;
import exchange.core2.core.common.config.ExchangeConfiguration;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ObjLongConsumer;

/**
 * One started exchange-core with one market: set up from a {@link PeerStream}, fed its commands, asked for its book.
 * Counts the results of the order commands on exchange-core's results thread, so that the harness can check how many
 * it refused.
 */
final class PeerExchange implements AutoCloseable
{
    /** Not a measurement: how long a step may take before the run is failed instead of hanging. */
    private static final long STEP_TIMEOUT_SECONDS = 300;

    private final ExchangeCore core;
    private final ExchangeApi api;
    private final ResultCounter results = new ResultCounter();
    private int symbol;
    private long setupOrders;

    PeerExchange(final ExchangeConfiguration configuration)
    {
        core = ExchangeCore.builder().resultsConsumer(results).exchangeConfiguration(configuration).build();
        core.startup();
        api = core.getApi();
    }

    /** The market, the users and their funds, the resting orders to start from; back when all are applied. */
    void setUp(final PeerStream stream)
    {
        symbol = stream.symbol().symbolId;
        final CommandResultCode added = await(api.submitBinaryDataAsync(new BatchAddSymbolsCommand(stream.symbol())));
        if (added != CommandResultCode.SUCCESS)
        {
            throw new IllegalStateException("exchange-core refused the market: " + added);
        }
        api.submitCommandsSync(stream.setup());
        setupOrders = stream.setup().stream().filter(command -> command instanceof ApiPlaceOrder).count();
        final long refused = awaitResults(0);
        if (refused != 0)
        {
            throw new IllegalStateException("exchange-core refused " + refused + " set-up orders");
        }
    }

    /** Publishes the commands one after another, as exchange-core's tests do; back when the last one is done. */
    void submit(final List<ApiCommand> commands)
    {
        api.submitCommandsSync(commands);
    }

    /** Waits for the results of {@code measured} order commands after the set-up; the refused ones among them. */
    long awaitResults(final long measured)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STEP_TIMEOUT_SECONDS);
        while (results.orders.get() < setupOrders + measured)
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("exchange-core answered " + results.orders.get() + " of " +
                    (setupOrders + measured) + " order commands");
            }
            Thread.onSpinWait();
        }
        return results.refused.get();
    }

    /** Every level of the market's book. */
    BookLevels book()
    {
        final L2MarketData l2 = await(api.requestOrderBookAsync(symbol, Integer.MAX_VALUE));
        return new BookLevels(levels(l2.bidSize, l2.bidPrices, l2.bidVolumes, l2.bidOrders),
            levels(l2.askSize, l2.askPrices, l2.askVolumes, l2.askOrders));
    }

    @Override
    public void close()
    {
        core.shutdown();
    }

    private static long[][] levels(final int size, final long[] prices, final long[] volumes, final long[] orders)
    {
        final long[][] levels = new long[size][];
        for (int i = 0; i < size; i++)
        {
            levels[i] = new long[] {prices[i], volumes[i], orders[i]};
        }
        return levels;
    }

    private static <T> T await(final Future<T> future)
    {
        try
        {
            return future.get(STEP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** Written by exchange-core's one results thread only. */
    private static final class ResultCounter implements ObjLongConsumer<OrderCommand>
    {
        final AtomicLong orders = new AtomicLong();
        final AtomicLong refused = new AtomicLong();

        @Override
        public void accept(final OrderCommand command, final long sequence)
        {
            final OrderCommandType type = command.command;
            if (type == OrderCommandType.PLACE_ORDER || type == OrderCommandType.MOVE_ORDER ||
                type == OrderCommandType.CANCEL_ORDER || type == OrderCommandType.REDUCE_ORDER)
            {
                if (command.resultCode != CommandResultCode.SUCCESS)
                {
                    refused.lazySet(refused.get() + 1);
                }
                orders.lazySet(orders.get() + 1);
            }
        }
    }
}
