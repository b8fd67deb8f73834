package io.venue.cli;

import io.venue.action.Side;
import io.venue.codec.Hex;
import io.venue.engine.Engine;
import io.venue.engine.EngineConfig;
import io.venue.engine.EngineView;
import io.venue.engine.EventSink;
import io.venue.engine.book.OrderBook;
import io.venue.engine.state.EngineState;
import io.venue.journal.JournalRecords;
import io.venue.journal.RecordKind;
import io.venue.journal.RecordPrinter;
import io.venue.journal.RecordType;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.queue.RecordCursor;
import io.venue.sequencer.SignatureAudit;
import io.venue.snapshot.SnapshotDamagedException;
import io.venue.snapshot.SnapshotReader;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.LongHashSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * Reading journals for incident analysis: print them, re-run the engine over a command journal and
 * compare with the recorded events.
 */
@Command(name = "journal", mixinStandardHelpOptions = true,
    description = "Inspect command and event journals.",
    subcommands = {JournalCommand.Dump.class, JournalCommand.Replay.class, JournalCommand.Timeline.class,
        JournalCommand.BookAt.class, JournalCommand.Diff.class})
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

        @Option(names = "--account",
            description = "Only records naming this address (as account, maker, taker, owner…).")
        String account;

        @Option(names = "--order", description = "Only records naming this order id.")
        String order;

        @Option(names = "--market", description = "Only records of this market.")
        Long market;

        @Option(names = "--from-time",
            description = "Only command records stamped at or after this Unix ms (events carry no time).")
        Long fromTime;

        @Option(names = "--to-time", description = "Only command records stamped at or before this Unix ms.")
        Long toTime;

        @Override
        public Integer call()
        {
            final RecordPrinter printer = new RecordPrinter();
            final JournalRecords records = new JournalRecords();
            final PrintWriter out = spec.commandLine().getOut();
            final StringBuilder line = new StringBuilder();
            final Pattern marketField = market == null ? null :
                Pattern.compile("\"market\":" + market + "[,}]");
            try (Journal journal = Journal.openReadOnly(folder))
            {
                final JournalTailer tailer = journal.tailer();
                final boolean[] eventsTimed = {false};
                while (!eventsTimed[0] && tailer.read((buffer, offset, length, index) ->
                {
                    final RecordType type = records.typeOf(buffer, offset, length);
                    if (type == null)
                    {
                        // a record that does not read is shown whatever the filters: a filtered dump never hides damage
                        line.setLength(0);
                        out.println(printer.print(buffer, offset, length, line) + " at journal index " + index);
                        return;
                    }
                    if ((fromTime != null || toTime != null) && type.kind() != RecordKind.COMMAND)
                    {
                        eventsTimed[0] = true;
                        return;
                    }
                    if (inRange(buffer, offset, length) && inTime(buffer, offset))
                    {
                        line.setLength(0);
                        final String text = printer.print(buffer, offset, length, line).toString();
                        if ((account == null || text.contains(account.toLowerCase(Locale.ROOT))) &&
                            (order == null || text.contains(order.toLowerCase(Locale.ROOT))) &&
                            (marketField == null || marketField.matcher(text).find()))
                        {
                            out.println(text);
                        }
                    }
                }))
                {
                    // to the end of the journal
                }
                if (eventsTimed[0])
                {
                    out.flush();
                    spec.commandLine().getErr()
                        .println("--from-time and --to-time filter a command journal: events carry no " +
                        "time (dump the commands with the time filter, then the events by --from-sequence and " +
                        "--to-sequence)");
                    return 2;
                }
            }
            out.flush();
            return 0;
        }

        private boolean inTime(final DirectBuffer buffer, final int offset)
        {
            if (fromTime == null && toTime == null)
            {
                return true;
            }
            final long time = JournalRecords.timestampMs(buffer, offset);
            return (fromTime == null || time >= fromTime) && (toTime == null || time <= toTime);
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
        description = "Re-run the engine over a command journal and compare the events it produces, byte for byte, " +
            "with an event journal.")
    static final class Replay implements Callable<Integer>
    {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", description = "The command journal folder.")
        Path commands;

        @Parameters(index = "1", description = "The event journal folder the run wrote.")
        Path events;

        @Mixin
        EngineOptions engineOptions;

        @Option(names = "--verify-signatures",
            description = "Verify every signed command again from its record (the request rebuilt, its digest, " +
                "signer match and " +
                "signers) instead of trusting what the verifier recorded; stops at the first that fails.")
        boolean verifySignatures;

        @Option(names = "--accept-v1",
            description = "With --verify-signatures: the run accepted v1 digests (the migration flag).")
        boolean acceptV1;

        @Option(names = "--allow-unsigned",
            description = "With --verify-signatures: let signed-action commands without a kept signature pass " +
                "(journals written " + "by tests or load runs); by default such a command fails the check.")
        boolean allowUnsigned;

        @Option(names = "--snapshot",
            description =
                "Start from this snapshot file (snapshot-<sequence>.sbe) instead of the journal's first command.")
        Path snapshot;

        @Option(names = "--to-sequence", description = "Stop after the command with this sequence.")
        Long toSequence;

        @Mixin
        DeploymentOptions deployment;

        @Override
        public Integer call() throws Exception
        {
            final SignatureAudit audit = verifySignatures ?
                new SignatureAudit(deployment.chainId, deployment.contractAddress(), acceptV1) :
                null;
            final long[] signatures = new long[2];
            final EngineConfig config = engineOptions.config();
            final PrintWriter out = spec.commandLine().getOut();
            final ExpandableArrayBuffer produced = new ExpandableArrayBuffer(4096);
            final int[] producedLength = {0};
            final EventSink sink = (buffer, offset, length) ->
            {
                produced.putInt(producedLength[0], length);
                produced.putBytes(producedLength[0] + 4, buffer, offset, length);
                producedLength[0] += 4 + length;
            };
            final EngineState state = null == snapshot ? null :
                EngineState.openEmpty(new EngineState.Context().persisted(false));
            final long from;
            try
            {
                from = null == state ? 0 : SnapshotReader.load(snapshot, state);
            }
            catch (final SnapshotDamagedException ex)
            {
                state.close();
                out.println(ex.getMessage());
                out.flush();
                return 2;
            }
            final Engine engine = null == state ? new Engine(config, sink) : Engine.open(config, sink, state);
            try (engine; state; Journal commandJournal = Journal.openReadOnly(commands);
                Journal eventJournal = Journal.openReadOnly(events))
            {
                final JournalTailer commandTailer = commandJournal.tailer();
                final JournalTailer eventTailer = eventJournal.tailer();
                commandTailer.moveAfterSequence(from);
                eventTailer.moveAfterSequence(from);
                final RecordCursor eventCursor = new RecordCursor(eventTailer);
                final boolean[] stopped = {false};
                final long[] counts = new long[2];
                final String[] divergence = {null};
                final long[] unreadable = {0};
                while (divergence[0] == null && !stopped[0] && commandTailer.read((buffer, offset, length, index) ->
                {
                    if (divergence[0] != null || stopped[0])
                    {
                        // the rest of an excerpt that holds several commands
                        return;
                    }
                    if (null != toSequence && JournalRecords.sequence(buffer, offset) > toSequence)
                    {
                        stopped[0] = true;
                        return;
                    }
                    if (null != audit)
                    {
                        final SignatureAudit.Verdict verdict = audit.check(buffer, offset, length);
                        if (verdict == SignatureAudit.Verdict.NO_SIGNATURE && !allowUnsigned)
                        {
                            divergence[0] = "signature check failed at command index " + index + " (sequence " +
                                JournalRecords.sequence(buffer, offset) +
                                "): a signed action without a kept signature " +
                                "(--allow-unsigned lets such commands pass)";
                            return;
                        }
                        if (verdict == SignatureAudit.Verdict.FAILED)
                        {
                            divergence[0] = "signature check failed at command index " + index + " (sequence " +
                                JournalRecords.sequence(buffer, offset) + "): " + audit.failure() +
                                "\n  record: " + new RecordPrinter().print(buffer, offset, length);
                            return;
                        }
                        if (verdict == SignatureAudit.Verdict.VERIFIED)
                        {
                            signatures[0]++;
                        }
                        else
                        {
                            signatures[1]++;
                        }
                    }
                    producedLength[0] = 0;
                    if (!engine.onCommand(buffer, offset, length))
                    {
                        // the live engine skips such a record too (and counts it): said here, never passed over
                        // in silence
                        unreadable[0]++;
                        out.println(
                            "command index " + index + (length >= JournalRecords.SEQUENCE_OFFSET + 8 ? " (sequence " +
                            JournalRecords.sequence(buffer, offset) + ")" : "") +
                            " is not a record the engine reads: skipped");
                    }
                    // with several shards a command's events come when it is settled: each one is compared before
                    // the next
                    engine.drain();
                    counts[0]++;
                    int position = 0;
                    while (divergence[0] == null && position < producedLength[0])
                    {
                        final int eventLength = produced.getInt(position);
                        final int at = position + 4;
                        final boolean present = eventCursor.next(
                            (recorded, recordedOffset, recordedLength, eventIndex) ->
                        {
                            if (recordedLength != eventLength ||
                                !JournalRecords.sameBytes(produced, at, recorded, recordedOffset,
                                eventLength))
                            {
                                divergence[0] = "first divergence at command index " + index +
                                    ", event journal index " + eventIndex + "\n  recorded: " +
                                    new RecordPrinter().print(recorded, recordedOffset, recordedLength) +
                                    "\n  replayed: " + new RecordPrinter().print(produced, at, eventLength);
                            }
                        });
                        if (!present)
                        {
                            divergence[0] = "the event journal ends before the replay's events of command index " +
                                index;
                        }
                        counts[1]++;
                        position = at + eventLength;
                    }
                }))
                {
                    // to the end of the command journal or the first divergence
                }
                if (divergence[0] == null)
                {
                    // an event left over is one the replay did not produce, unless it is of a command
                    // after --to-sequence
                    final long[] next = {-1};
                    if (eventCursor.next(
                        (buffer, offset, length, index) -> next[0] = JournalRecords.sequenceOrNone(buffer, offset,
                        length)) && (null == toSequence || next[0] < 0 || next[0] <= toSequence))
                    {
                        divergence[0] = "the event journal holds more events than the replay produced" +
                            (null == toSequence ? "" :
                                " (an event of sequence " + next[0] + ", not after " + toSequence + ")");
                    }
                }
                if (divergence[0] != null)
                {
                    out.println(divergence[0]);
                    out.flush();
                    return 1;
                }
                out.printf("replayed %d commands%s, %d events identical; state hash %s%n", counts[0],
                    null == state ? "" : " after the snapshot at " + from, counts[1], Hex.to0x(engine.stateHash()));
                if (unreadable[0] > 0)
                {
                    out.printf("%d command records the engine cannot read (listed above): the journal is damaged or " +
                        "not this " + "version's%n", unreadable[0]);
                    out.flush();
                    return 1;
                }
                if (null != audit)
                {
                    out.printf(
                        "%d signatures verified again; %d records not verified (owner intents keep no signature, " +
                        "refused requests are not actions%s)%n", signatures[0], signatures[1],
                        allowUnsigned ? ", unsigned commands allowed" : "");
                }
                out.flush();
                return 0;
            }
        }
    }

    @Command(name = "timeline", mixinStandardHelpOptions = true,
        description =
            "Every command and event that touched one order, in sequence order (each command before its events).")
    static final class Timeline implements Callable<Integer>
    {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", description = "The command journal folder.")
        Path commands;

        @Parameters(index = "1", description = "The event journal folder.")
        Path events;

        @Option(names = "--order", required = true, description = "The order id (0x + 64 hex).")
        String order;

        /**
         * Two passes, neither holding a journal in memory: the sequences of every record that names the order (its
         * commands and events: placed, amended, traded, cancelled, by id or client id, one by one or all at once), then
         * every command of those sequences followed by all of its events (the answer to a cancel names the cancel, not
         * the order; a cancel by client order id names the client id).
         */
        @Override
        public Integer call()
        {
            final String id = order.toLowerCase(Locale.ROOT);
            final LongHashSet touched = new LongHashSet();
            final RecordPrinter printer = new RecordPrinter();
            final StringBuilder line = new StringBuilder();
            for (final Path folder : new Path[]{commands, events})
            {
                try (Journal journal = Journal.openReadOnly(folder))
                {
                    final JournalTailer tailer = journal.tailer();
                    while (tailer.read((buffer, offset, length, index) ->
                    {
                        line.setLength(0);
                        if (length >= JournalRecords.SEQUENCE_OFFSET + 8 &&
                            printer.print(buffer, offset, length, line).indexOf(id) >= 0)
                        {
                            touched.add(JournalRecords.sequence(buffer, offset));
                        }
                    }))
                    {
                        // to the end
                    }
                }
            }
            final PrintWriter out = spec.commandLine().getOut();
            try (Journal commandJournal = Journal.openReadOnly(commands);
                Journal eventJournal = Journal.openReadOnly(events))
            {
                final RecordCursor eventCursor = new RecordCursor(eventJournal.tailer());
                final ExpandableArrayBuffer event = new ExpandableArrayBuffer(1024);
                final long[] eventSequence = {Long.MIN_VALUE};
                final int[] eventLength = {-1};
                final Runnable nextEvent = () ->
                {
                    eventLength[0] = -1;
                    eventCursor.next((buffer, offset, length, index) ->
                    {
                        event.putBytes(0, buffer, offset, length);
                        eventLength[0] = length;
                        eventSequence[0] = JournalRecords.sequenceOrNone(buffer, offset, length);
                    });
                };
                nextEvent.run();
                final JournalTailer commandTailer = commandJournal.tailer();
                while (commandTailer.read((buffer, offset, length, index) ->
                {
                    if (length < JournalRecords.SEQUENCE_OFFSET + 8)
                    {
                        return;
                    }
                    final long sequence = JournalRecords.sequence(buffer, offset);
                    final boolean shown = touched.contains(sequence);
                    if (shown)
                    {
                        out.println(printer.print(buffer, offset, length));
                    }
                    while (eventLength[0] >= 0 && eventSequence[0] <= sequence)
                    {
                        if (shown && eventSequence[0] == sequence)
                        {
                            out.println(printer.print(event, 0, eventLength[0]));
                        }
                        nextEvent.run();
                    }
                }))
                {
                    // to the end of the command journal
                }
            }
            out.flush();
            return touched.isEmpty() ? 1 : 0;
        }
    }

    @Command(name = "book", mixinStandardHelpOptions = true,
        description = "The book of a market as it stood after a given command sequence, rebuilt by replaying the " +
            "command journal.")
    static final class BookAt implements Callable<Integer>
    {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", description = "The command journal folder.")
        Path commands;

        @Option(names = "--market", required = true, description = "The market id.")
        long market;

        @Option(names = "--at", required = true, description = "The last command sequence to apply.")
        long at;

        @Mixin
        EngineOptions engineOptions;

        @Override
        public Integer call() throws Exception
        {
            final Engine engine = new Engine(engineOptions.config(), (buffer, offset, length) -> { });
            try (Journal journal = Journal.openReadOnly(commands))
            {
                final JournalTailer tailer = journal.tailer();
                final boolean[] done = {false};
                while (!done[0] && tailer.read((buffer, offset, length, index) ->
                {
                    if (length >= JournalRecords.SEQUENCE_OFFSET + 8 && JournalRecords.sequence(buffer, offset) > at)
                    {
                        done[0] = true;
                        return;
                    }
                    engine.onCommand(buffer, offset, length);
                }))
                {
                    // up to the sequence asked for
                }
            }
            final PrintWriter out = spec.commandLine().getOut();
            final EngineView view = engine.view();
            // settled by view(): the shards' threads, if any, have nothing more to do
            engine.close();
            boolean any = false;
            for (int which = 0; which < 2; which++)
            {
                final OrderBook book = view.book(market, which);
                if (book == null)
                {
                    continue;
                }
                any = true;
                // the journal's names (Book: NONE, YES, NO): an outcome market's books are YES and NO, a spot
                // market's NONE
                final String bookName = which == 1 ? "NO" : view.book(market, 1) != null ? "YES" : "NONE";
                for (final Side side : Side.values())
                {
                    for (int depth = 0; depth < book.levelCount(side); depth++)
                    {
                        out.printf("{\"market\":%d,\"book\":\"%s\",\"side\":\"%s\",\"depth\":%d,\"price\":%d,\"qty\":" +
                            "%d,\"orders\":%d}%n", market, bookName, side.wire(), depth, book.levelPrice(side, depth),
                            book.levelQty(side, depth), book.levelOrderCount(side, depth));
                    }
                }
            }
            out.flush();
            if (!any)
            {
                spec.commandLine().getErr().println("market " + market + " is not listed at sequence " + at);
                return 1;
            }
            return 0;
        }
    }

    @Command(name = "diff", mixinStandardHelpOptions = true,
        description = "The first record where two journals differ.")
    static final class Diff implements Callable<Integer>
    {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", description = "The first journal folder.")
        Path first;

        @Parameters(index = "1", description = "The second journal folder.")
        Path second;

        @Override
        public Integer call()
        {
            final PrintWriter out = spec.commandLine().getOut();
            try (Journal a = Journal.openReadOnly(first); Journal b = Journal.openReadOnly(second))
            {
                final RecordCursor left = new RecordCursor(a.tailer());
                final RecordCursor right = new RecordCursor(b.tailer());
                final ExpandableArrayBuffer copy = new ExpandableArrayBuffer(1024);
                final int[] copyLength = {0};
                long position = 0;
                while (true)
                {
                    copyLength[0] = -1;
                    left.next((buffer, offset, length, index) ->
                    {
                        copy.putBytes(0, buffer, offset, length);
                        copyLength[0] = length;
                    });
                    final String[] difference = {null};
                    final boolean rightHas = right.next((buffer, offset, length, index) ->
                    {
                        if (copyLength[0] != length || !JournalRecords.sameBytes(copy, 0, buffer, offset, length))
                        {
                            difference[0] = "first:  " +
                                (copyLength[0] < 0 ? "(ended)" : new RecordPrinter().print(copy, 0, copyLength[0])) +
                                "\nsecond: " + new RecordPrinter().print(buffer, offset, length);
                        }
                    });
                    if (!rightHas && copyLength[0] < 0)
                    {
                        out.println("identical: " + position + " records");
                        out.flush();
                        return 0;
                    }
                    if (!rightHas)
                    {
                        difference[0] = "first:  " + new RecordPrinter().print(copy, 0, copyLength[0]) +
                            "\nsecond: (ended)";
                    }
                    if (difference[0] != null)
                    {
                        out.println("journals differ at record " + position + "\n" + difference[0]);
                        out.flush();
                        return 1;
                    }
                    position++;
                }
            }
        }
    }
}
