package io.venue.bench.peer;

import exchange.core2.core.common.CoreWaitStrategy;
import exchange.core2.core.common.config.ExchangeConfiguration;
import exchange.core2.core.common.config.InitialStateConfiguration;
import exchange.core2.core.common.config.PerformanceConfiguration;
import exchange.core2.core.common.config.SerializationConfiguration;
import exchange.core2.core.orderbook.OrderBookDirectImpl;
import exchange.core2.core.orderbook.OrderBookNaiveImpl;
import exchange.core2.core.processors.journaling.DiskSerializationProcessor;
import exchange.core2.core.processors.journaling.DiskSerializationProcessorConfiguration;

import java.nio.file.Path;
import java.util.Locale;

/**
 * A named exchange-core configuration: {@code PRESET[,WAIT][,naive|direct][,journal]}, e.g. {@code latency},
 * {@code throughput,YIELDING} or {@code latency,BUSY_SPIN,journal}.
 * <ul>
 *   <li>PRESET: {@code base} (exchange-core's default: 1 matching and 1 risk engine, BLOCKING, the naive book),
 *   {@code latency} (its latency preset: 1 and 1, BUSY_SPIN, the direct book, threads pinned where the host lets it)
 *   or {@code throughput} (its throughput preset: 4 matching and 2 risk engines, BUSY_SPIN, the direct book, a 64K
 *   ring and large groups).</li>
 *   <li>WAIT: one of {@link CoreWaitStrategy} in place of the preset's.</li>
 *   <li>{@code naive} or {@code direct}: the order book implementation in place of the preset's.</li>
 *   <li>{@code journal}: its own disk journal (DISK_JOURNALING's processor) into a folder of the run's, else none.
 *   </li>
 * </ul>
 */
record PeerConfig(String name, String preset, CoreWaitStrategy waitStrategy, String book, boolean journal)
{
    static PeerConfig parse(final String spec)
    {
        final String[] parts = spec.split(",");
        final String preset = parts[0];
        if (!"base".equals(preset) && !"latency".equals(preset) && !"throughput".equals(preset))
        {
            throw new IllegalArgumentException("preset base, latency or throughput: " + spec);
        }
        CoreWaitStrategy wait = null;
        String book = null;
        boolean journal = false;
        for (int i = 1; i < parts.length; i++)
        {
            final String part = parts[i];
            if ("journal".equals(part))
            {
                journal = true;
            }
            else if ("naive".equals(part) || "direct".equals(part))
            {
                book = part;
            }
            else
            {
                wait = CoreWaitStrategy.valueOf(part.toUpperCase(Locale.ROOT));
            }
        }
        return new PeerConfig(spec, preset, wait, book, journal);
    }

    /** The configuration, journaling (if asked) into {@code folder} under the exchange id {@code exchangeId}. */
    ExchangeConfiguration build(final Path folder, final String exchangeId)
    {
        final PerformanceConfiguration.PerformanceConfigurationBuilder performance = switch (preset)
        {
            case "latency" -> PerformanceConfiguration.latencyPerformanceBuilder();
            case "throughput" -> PerformanceConfiguration.throughputPerformanceBuilder();
            default -> PerformanceConfiguration.baseBuilder();
        };
        if (null != waitStrategy)
        {
            performance.waitStrategy(waitStrategy);
        }
        if ("naive".equals(book))
        {
            performance.orderBookFactory(OrderBookNaiveImpl::new);
        }
        else if ("direct".equals(book))
        {
            performance.orderBookFactory(OrderBookDirectImpl::new);
        }
        final ExchangeConfiguration.ExchangeConfigurationBuilder config = ExchangeConfiguration.defaultBuilder()
            .performanceCfg(performance.build());
        if (journal)
        {
            // DISK_JOURNALING's processor with its default settings, but in the run's folder instead of ./dumps
            final DiskSerializationProcessorConfiguration defaults =
                DiskSerializationProcessorConfiguration.createDefaultConfig();
            final DiskSerializationProcessorConfiguration disk = new DiskSerializationProcessorConfiguration(
                folder.toString(), defaults.getSnapshotLz4CompressorFactory(), defaults.getJournalFileMaxSize(),
                defaults.getJournalBufferSize(), defaults.getJournalBatchCompressThreshold(),
                defaults.getJournalLz4CompressorFactory());
            config.serializationCfg(SerializationConfiguration.builder().enableJournaling(true)
                .serializationProcessorFactory(exchange -> new DiskSerializationProcessor(exchange, disk)).build())
                .initStateCfg(InitialStateConfiguration.cleanStartJournaling(exchangeId));
        }
        else
        {
            config.serializationCfg(SerializationConfiguration.DEFAULT)
                .initStateCfg(InitialStateConfiguration.cleanStart(exchangeId));
        }
        return config.build();
    }

    /** What the configuration resolves to, for the run's header. */
    String describe()
    {
        final PerformanceConfiguration performance = build(Path.of("."), "describe").getPerformanceCfg();
        return String.format(Locale.ROOT, "%s: %d matching and %d risk engines, %s, %s book, ring %,d, groups of %,d " +
            "or %,d ns, %s", name, performance.getMatchingEnginesNum(), performance.getRiskEnginesNum(),
            performance.getWaitStrategy(), null != book ? book : "latency".equals(preset) ||
            "throughput".equals(preset) ? "direct" : "naive", performance.getRingBufferSize(),
            performance.getMsgsInGroupLimit(), performance.getMaxGroupDurationNs(),
            journal ? "its disk journal" : "no journal");
    }
}
