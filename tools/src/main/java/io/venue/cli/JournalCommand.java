package io.venue.cli;

import io.venue.action.Address;
import io.venue.engine.Engine;
import io.venue.engine.EngineConfig;
import io.venue.journal.JournalRecords;
import io.venue.journal.RecordPrinter;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Reading journals for incident analysis: print them, re-run the engine over a command journal and
 * compare with the recorded events.
 */
@Command(name = "journal", mixinStandardHelpOptions = true,
    description = "Inspect command and event journals.",
    subcommands = {JournalCommand.Dump.class, JournalCommand.Replay.class})
final class JournalCommand
{
    @Command(name = "dump", mixinStandardHelpOptions = true,
        description = "Print every record of a journal as one JSON line, optionally only a range of sequences.")
    static final class Dump implements Callable<Integer>
    {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", description = "The journal folder (commands or events).")
        Path folder;

        @Option(names = "--from-sequence", description = "Only records whose sequence is at least this.")
        Long fromSequence;

        @Option(names = "--to-sequence", description = "Only records whose sequence is at most this.")
        Long toSequence;

        @Override
        public Integer call()
        {
            final RecordPrinter printer = new RecordPrinter();
            final PrintWriter out = spec.commandLine().getOut();
            final StringBuilder line = new StringBuilder();
            try (Journal journal = Journal.openReadOnly(folder))
            {
                final JournalTailer tailer = journal.tailer();
                while (tailer.read((buffer, offset, length, index) ->
                {
                    if (inRange(buffer, offset, length))
                    {
                        line.setLength(0);
                        out.println(printer.print(buffer, offset, length, line));
                    }
                }))
                {
                    // to the end of the journal
                }
            }
            out.flush();
            return 0;
        }

        private boolean inRange(final DirectBuffer buffer, final int offset, final int length)
        {
            if (length < JournalRecords.SEQUENCE_OFFSET + 8)
            {
                return fromSequence == null && toSequence == null;
            }
            final long sequence = JournalRecords.sequence(buffer, offset);
            return (fromSequence == null || sequence >= fromSequence) && (toSequence == null || sequence <= toSequence);
        }
    }

    @Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Re-run the engine over a command journal and compare the events it produces, byte for byte, with an event journal.")
    static final class Replay implements Callable<Integer>
    {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", description = "The command journal folder.")
        Path commands;

        @Parameters(index = "1", description = "The event journal folder the run wrote.")
        Path events;

        @Option(names = "--operator", required = true,
            description = "An operator key of the run (0x address); repeat for several. The engine configuration must be the run's.")
        List<String> operators;

        @Override
        public Integer call()
        {
            final EngineConfig config = new EngineConfig();
            operators.forEach(operator -> config.operator(Address.of(operator)));
            final PrintWriter out = spec.commandLine().getOut();
            final ExpandableArrayBuffer produced = new ExpandableArrayBuffer(4096);
            final int[] producedLength = {0};
            final Engine engine = new Engine(config, (buffer, offset, length) ->
            {
                produced.putInt(producedLength[0], length);
                produced.putBytes(producedLength[0] + 4, buffer, offset, length);
                producedLength[0] += 4 + length;
            });
            try (Journal commandJournal = Journal.openReadOnly(commands); Journal eventJournal = Journal.openReadOnly(events))
            {
                final JournalTailer commandTailer = commandJournal.tailer();
                final JournalTailer eventTailer = eventJournal.tailer();
                final long[] counts = new long[2];
                final String[] divergence = {null};
                while (divergence[0] == null && commandTailer.read((buffer, offset, length, index) ->
                {
                    producedLength[0] = 0;
                    engine.onCommand(buffer, offset, length);
                    counts[0]++;
                    int position = 0;
                    while (divergence[0] == null && position < producedLength[0])
                    {
                        final int eventLength = produced.getInt(position);
                        final int at = position + 4;
                        final boolean present = eventTailer.read((recorded, recordedOffset, recordedLength, eventIndex) ->
                        {
                            if (recordedLength != eventLength || !equal(produced, at, recorded, recordedOffset, eventLength))
                            {
                                divergence[0] = "first divergence at command index " + index + ", event index " + eventIndex +
                                    "\n  recorded: " + new RecordPrinter().print(recorded, recordedOffset, recordedLength) +
                                    "\n  replayed: " + new RecordPrinter().print(produced, at, eventLength);
                            }
                        });
                        if (!present)
                        {
                            divergence[0] = "the event journal ends before the replay's events of command index " + index;
                        }
                        counts[1]++;
                        position = at + eventLength;
                    }
                }))
                {
                    // to the end of the command journal or the first divergence
                }
                if (divergence[0] == null && eventTailer.read((buffer, offset, length, index) -> { }))
                {
                    divergence[0] = "the event journal holds more events than the replay produced";
                }
                if (divergence[0] != null)
                {
                    out.println(divergence[0]);
                    out.flush();
                    return 1;
                }
                out.printf("replayed %d commands, %d events identical; state hash %s%n", counts[0], counts[1],
                    io.venue.codec.Hex.to0x(engine.stateHash()));
                out.flush();
                return 0;
            }
        }

        private static boolean equal(final DirectBuffer a, final int aOffset, final DirectBuffer b, final int bOffset, final int length)
        {
            for (int i = 0; i < length; i++)
            {
                if (a.getByte(aOffset + i) != b.getByte(bOffset + i))
                {
                    return false;
                }
            }
            return true;
        }
    }
}
