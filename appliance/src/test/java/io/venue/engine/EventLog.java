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
    private int length;

    EventLog(final boolean keepLines)
    {
        this.keepLines = keepLines;
    }

    @Override
    public void onEvent(final DirectBuffer buffer, final int offset, final int eventLength)
    {
        bytes.putInt(length, eventLength);
        bytes.putBytes(length + 4, buffer, offset, eventLength);
        length += 4 + eventLength;
        if (keepLines)
        {
            lines.add(printer.print(buffer, offset, eventLength));
        }
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
