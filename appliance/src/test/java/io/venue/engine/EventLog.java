package io.venue.engine;

import io.venue.journal.RecordPrinter;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An event sink for tests: keeps every event's bytes (to compare replays byte for byte) and its JSON
 * line (to assert on what happened).
 */
final class EventLog implements EventSink
{
    private final ExpandableArrayBuffer bytes = new ExpandableArrayBuffer(1 << 16);
    private final RecordPrinter printer = new RecordPrinter();
    private final List<String> lines = new ArrayList<>();
    private final boolean keepLines;
    private final EventSink forward;
    private int length;
    private long count;

    EventLog(final boolean keepLines)
    {
        this.keepLines = keepLines;
        this.forward = null;
    }

    /** A log that keeps nothing and hands every event on (to a journal): for streams too long for memory. */
    EventLog(final EventSink forward)
    {
        this.keepLines = false;
        this.forward = forward;
    }

    @Override
    public void onEvent(final DirectBuffer buffer, final int offset, final int eventLength)
    {
        count++;
        if (forward != null)
        {
            forward.onEvent(buffer, offset, eventLength);
            return;
        }
        bytes.putInt(length, eventLength);
        bytes.putBytes(length + 4, buffer, offset, eventLength);
        length += 4 + eventLength;
        if (keepLines)
        {
            lines.add(printer.print(buffer, offset, eventLength));
        }
    }

    @Override
    public void onCommandEnd()
    {
        if (forward != null)
        {
            forward.onCommandEnd();
        }
    }

    long count()
    {
        return count;
    }

    List<String> lines()
    {
        return lines;
    }

    int mark()
    {
        return lines.size();
    }

    /** The lines written since {@code mark}. */
    List<String> since(final int mark)
    {
        return new ArrayList<>(lines.subList(mark, lines.size()));
    }

    byte[] bytes()
    {
        return Arrays.copyOf(bytes.byteArray(), length);
    }
}
