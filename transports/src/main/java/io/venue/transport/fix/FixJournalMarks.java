package io.venue.transport.fix;

import io.venue.journal.queue.JournalTailer;
import io.venue.journal.sbe.FixMarkKind;
import io.venue.journal.sbe.FixSessionMarkDecoder;
import io.venue.journal.sbe.FixSubSession;
import io.venue.journal.sbe.MessageHeaderDecoder;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Each FIX session's sequence numbers as the command journal last recorded them ({@code FixSessionMark} records,
 * docs/FIX.md, "Sequence numbers"): what a node that starts, or a standby that is promoted, numbers on from. After a
 * LOGOUT mark the numbers are exact; after a LOGON or RESERVE mark with no LOGOUT (the node stopped without closing
 * the session) the venue numbers on from the reserved block's end plus one, and the client's next MsgSeqNum from the
 * mark's (a client ahead of it is asked for a resend, which it gap-fills). Built once, before the lane starts; read
 * only after.
 */
public final class FixJournalMarks
{
    private final Map<String, long[]> marks = new HashMap<>();

    /** Reads every command from where {@code commands} stands to the end, keeping each session's last mark. */
    public static FixJournalMarks scan(final JournalTailer commands)
    {
        final FixJournalMarks marks = new FixJournalMarks();
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final FixSessionMarkDecoder mark = new FixSessionMarkDecoder();
        while (commands.read((buffer, offset, length, index) ->
        {
            header.wrap(buffer, offset);
            if (header.templateId() == FixSessionMarkDecoder.TEMPLATE_ID)
            {
                mark.wrapAndApplyHeader(buffer, offset, header);
                final StringBuilder id = new StringBuilder("spk_");
                for (int i = 0; i < 8; i++)
                {
                    id.append(String.format(Locale.ROOT, "%02x", mark.credentialId(i)));
                }
                final String sub = mark.subSession() == FixSubSession.DROP_COPY ? FixSession.DROP_COPY :
                    FixSession.ORDER_ENTRY;
                marks.put(FixSequences.key(id.toString(), sub), mark.kind(), mark.nextInSeq(), mark.nextOutSeq(),
                    mark.reservedOutThrough());
            }
        }))
        {
            // to the end
        }
        return marks;
    }

    /** Records one mark (the scan's, and the tests'). */
    void put(final String key, final FixMarkKind kind, final long nextIn, final long nextOut, final long reserved)
    {
        marks.put(key, new long[] {nextIn, kind == FixMarkKind.LOGOUT ? nextOut : reserved + 1});
    }

    /** The numbers to go on from for {@code key} ({@code {nextIn, nextOut}}), or null when the journal has none. */
    long[] numbers(final String key)
    {
        final long[] found = marks.get(key);
        return found == null ? null : found.clone();
    }

    int size()
    {
        return marks.size();
    }
}
