package io.venue.transport.fix;

import io.venue.journal.JournalRecords;
import io.venue.journal.queue.JournalTailer;
import io.venue.journal.sbe.FixMarkKind;
import io.venue.journal.sbe.FixSessionMarkDecoder;
import io.venue.journal.sbe.FixSubSession;
import io.venue.journal.sbe.MessageHeaderDecoder;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Each FIX session's marks as the command journal recorded them ({@code FixSessionMark} records, docs/FIX.md,
 * "Sequence numbers"): what a node that starts, or a standby that is promoted, numbers on from. The lane's reports'
 * thread then replays the journal's reports and applies each mark after the report it names ({@link FixOutbound}), so
 * every report gets the number it had. When the last LOGON has a LOGOUT after it the numbers are exact; otherwise (the
 * node stopped without closing the session) the venue numbers on from the reserved block's end plus one. Built once,
 * before the lane starts (one pass over the command journal); read only after. Bounded: at most {@code maxKeys}
 * sessions, and of each its last {@code marksPerKey} marks (older ones only set numbers that later
 * marks set again).
 */
public final class FixJournalMarks
{
    /** One mark: {@code reportKey} 0 and {@code keyed} false for a mark older than version 14. */
    record Mark(int kind, long nextIn, long nextOut, long reserved, long reportKey, boolean keyed)
    {
    }

    public static final int DEFAULT_MARKS_PER_KEY = 20_000;
    public static final int DEFAULT_MAX_KEYS = 100_000;

    private final int marksPerKey;
    private final int maxKeys;
    private final Map<String, ArrayDeque<Mark>> marks = new LinkedHashMap<>();
    private final Map<String, Long> registeredAfter = new LinkedHashMap<>();

    public FixJournalMarks()
    {
        this(DEFAULT_MARKS_PER_KEY, DEFAULT_MAX_KEYS);
    }

    FixJournalMarks(final int marksPerKey, final int maxKeys)
    {
        this.marksPerKey = marksPerKey;
        this.maxKeys = maxKeys;
    }

    /** Reads every command from where {@code commands} stands to the end, keeping each session's marks. */
    public static FixJournalMarks scan(final JournalTailer commands)
    {
        final FixJournalMarks marks = new FixJournalMarks();
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final FixSessionMarkDecoder mark = new FixSessionMarkDecoder();
        while (commands.read((buffer, offset, length, index) ->
        {
            header.wrap(buffer, offset);
            if (header.templateId() == FixSessionMarkDecoder.TEMPLATE_ID &&
                header.schemaId() == MessageHeaderDecoder.SCHEMA_ID && JournalRecords.readsVersion(header.version()))
            {
                mark.wrapAndApplyHeader(buffer, offset, header);
                final String sub = mark.subSession() == FixSubSession.DROP_COPY ? FixSession.DROP_COPY :
                    FixSession.ORDER_ENTRY;
                final boolean keyed = header.version() >= JournalRecords.FIX_REPORT_KEY_VERSION;
                marks.put(FixSequences.key(apiKeyId(mark), sub), kind(mark.kind()), mark.nextInSeq(),
                    mark.nextOutSeq(), mark.reservedOutThrough(), keyed ? mark.reportKey() : 0, keyed);
            }
        }))
        {
            // to the end
        }
        return marks;
    }

    private static String apiKeyId(final FixSessionMarkDecoder mark)
    {
        final StringBuilder id = new StringBuilder("spk_");
        for (int i = 0; i < 8; i++)
        {
            id.append(String.format(Locale.ROOT, "%02x", mark.credentialId(i)));
        }
        return id.toString();
    }

    private static int kind(final FixMarkKind kind)
    {
        return switch (kind)
        {
            case LOGON -> FixOutbound.LOGON;
            case LOGOUT -> FixOutbound.LOGOUT;
            case ADMIN -> FixOutbound.ADMIN;
            default -> FixOutbound.RESERVE;
        };
    }

    /** Records one mark of an older version (no report key; the tests'). */
    void put(final String key, final FixMarkKind kind, final long nextIn, final long nextOut, final long reserved)
    {
        put(key, kind(kind), nextIn, nextOut, reserved, 0, false);
    }

    /** Records one mark (the scan's, and the tests'). */
    void put(final String key, final int kind, final long nextIn, final long nextOut, final long reserved,
        final long reportKey, final boolean keyed)
    {
        ArrayDeque<Mark> held = marks.get(key);
        if (held == null)
        {
            if (marks.size() >= maxKeys)
            {
                return;
            }
            held = new ArrayDeque<>();
            marks.put(key, held);
        }
        if (keyed)
        {
            registeredAfter.putIfAbsent(key, reportKey);
        }
        if (held.size() >= marksPerKey)
        {
            held.pollFirst();
        }
        held.addLast(new Mark(kind, nextIn, nextOut, reserved, reportKey, keyed));
    }

    /** The sessions the journal names, in the order first met. */
    Set<String> keys()
    {
        return marks.keySet();
    }

    /** The marks of {@code key} in journal order (empty when none). */
    List<Mark> marks(final String key)
    {
        final ArrayDeque<Mark> held = marks.get(key);
        return held == null ? List.of() : new ArrayList<>(held);
    }

    /**
     * The report key of the first version 14 mark of {@code key}: reports after it were numbered for the key; -1 when
     * it has none (an older journal numbered no report: its numbers come from its marks alone).
     */
    long registeredAfter(final String key)
    {
        final Long after = registeredAfter.get(key);
        return after == null ? -1 : after;
    }

    /** The numbers to go on from for {@code key} ({@code {nextIn, nextOut}}) by its marks alone, or null. */
    long[] numbers(final String key)
    {
        final ArrayDeque<Mark> held = marks.get(key);
        if (held == null || held.isEmpty())
        {
            return null;
        }
        final Mark last = held.peekLast();
        return new long[] {last.nextIn(), last.kind() == FixOutbound.LOGOUT ? last.nextOut() : last.reserved() + 1};
    }

    int size()
    {
        return marks.size();
    }
}
