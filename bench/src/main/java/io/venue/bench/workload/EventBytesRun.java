package io.venue.bench.workload;

import io.venue.engine.Engine;
import io.venue.engine.EventSink;
import io.venue.journal.JournalRecords;
import io.venue.journal.RecordType;
import io.venue.journal.sbe.PlaceOrderDecoder;
import io.venue.journal.sbe.TimeInForce;
import org.agrona.DirectBuffer;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Bytes of events per command on the exchange-core workload, by event message and by command kind: what the engine
 * hands its journal (every record as the journal frames it: a 4-byte length, then the SBE record), measured on the
 * measured commands only (the setup's listing and deposits left out). The figure the journal, the standby's link and
 * the responder all pay per command (docs/PERFORMANCE.md, "Event bytes per command").
 * <p>
 * Usage: {@code EventBytesRun [commands] [accounts]} (defaults 1,000,000 and 2,000, seed 42 as EngineLoadRun).
 */
public final class EventBytesRun
{
    /** The journal's frame before each record (JOURNAL-SCHEMA.md, "Journals on disk"). */
    static final int FRAME = 4;

    private EventBytesRun()
    {
    }

    public static void main(final String[] args)
    {
        final int commands = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        final int accounts = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        final ExchangeCoreWorkload workload = ExchangeCoreWorkload.generate(accounts, commands, 42,
            ExchangeCoreWorkload.amendKeepsSizeAsked());
        final Tally tally = measure(workload);
        System.out.println("measured mix: " + workload.mix());
        System.out.print(tally.table());
    }

    /** Runs the workload's measured commands through a fresh engine and tallies their events. */
    static Tally measure(final ExchangeCoreWorkload workload)
    {
        final Tally tally = new Tally();
        final Engine engine = new Engine(ExchangeCoreWorkload.config(), tally);
        final DirectBuffer records = workload.records();
        int position = EngineLoadRun.applySetup(engine, workload);
        tally.counting = true;
        while (position < workload.length())
        {
            final int length = records.getInt(position);
            tally.command(records, position + 4, length);
            engine.onCommand(records, position + 4, length);
            position += 4 + length;
        }
        engine.close();
        return tally;
    }

    /** Counts and bytes per event message, and per kind of the command that caused them. */
    static final class Tally implements EventSink
    {
        private final JournalRecords reader = new JournalRecords();
        private final PlaceOrderDecoder place = new PlaceOrderDecoder();
        private final Map<String, long[]> byEvent = new TreeMap<>();
        private final Map<String, long[]> byCommand = new TreeMap<>();
        private boolean counting;
        private long[] kind;
        long commands;
        long events;
        long bytes;

        void command(final DirectBuffer buffer, final int offset, final int length)
        {
            final RecordType type = reader.typeOf(buffer, offset, length);
            String name = null == type ? "unknown" : type.name();
            if (type == RecordType.PLACE_ORDER)
            {
                place.wrap(buffer, reader.bodyOffset(), reader.blockLength(), reader.version());
                name = place.timeInForce() == TimeInForce.IOC ? "PLACE_ORDER IOC" : "PLACE_ORDER " +
                    place.timeInForce();
            }
            kind = byCommand.computeIfAbsent(name, k -> new long[3]);
            kind[0]++;
            commands++;
        }

        @Override
        public void onEvent(final DirectBuffer buffer, final int offset, final int length)
        {
            if (!counting)
            {
                return;
            }
            final RecordType type = reader.typeOf(buffer, offset, length);
            final long[] event = byEvent.computeIfAbsent(null == type ? "unknown" : type.name(), k -> new long[2]);
            event[0]++;
            event[1] += FRAME + length;
            kind[1]++;
            kind[2] += FRAME + length;
            events++;
            bytes += FRAME + length;
        }

        long[] event(final String name)
        {
            return byEvent.get(name);
        }

        double bytesPerCommand()
        {
            return (double)bytes / commands;
        }

        String table()
        {
            final StringBuilder out = new StringBuilder();
            out.append(String.format(Locale.ROOT, "%,d commands, %,d events (%.2f a command), %,d bytes " +
                "(%.1f a command, frames included)%n", commands, events, (double)events / commands, bytes,
                bytesPerCommand()));
            out.append(String.format(Locale.ROOT, "%-26s %12s %14s %10s %12s%n", "event", "count", "bytes",
                "per cmd", "bytes/cmd"));
            for (final Map.Entry<String, long[]> e : byEvent.entrySet())
            {
                out.append(String.format(Locale.ROOT, "%-26s %,12d %,14d %10.3f %12.1f%n", e.getKey(),
                    e.getValue()[0], e.getValue()[1], (double)e.getValue()[0] / commands,
                    (double)e.getValue()[1] / commands));
            }
            out.append(String.format(Locale.ROOT, "%-26s %12s %12s %14s %12s%n", "command kind", "commands",
                "events/cmd", "bytes", "bytes/cmd"));
            for (final Map.Entry<String, long[]> e : byCommand.entrySet())
            {
                final long[] v = e.getValue();
                out.append(String.format(Locale.ROOT, "%-26s %,12d %12.2f %,14d %12.1f%n", e.getKey(), v[0],
                    (double)v[1] / v[0], v[2], (double)v[2] / v[0]));
            }
            return out.toString();
        }
    }
}
