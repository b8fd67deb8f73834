package io.venue.appliance;

import io.venue.journal.queue.Journal;
import org.agrona.CloseHelper;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** The node's two journals under {@code journal/} of its folder: the commands (the source of truth) and the events. */
final class NodeJournals implements AutoCloseable
{
    private final Journal commands;
    private final Journal events;

    private NodeJournals(final Journal commands, final Journal events)
    {
        this.commands = commands;
        this.events = events;
    }

    /** Opens both, saying in the log which headerless cycle files a stopped writer left were set aside. */
    static NodeJournals open(final Path data, final PrintStream log)
    {
        final Journal commands = Journal.open(data.resolve("journal").resolve("commands"));
        final Journal events;
        try
        {
            events = Journal.open(data.resolve("journal").resolve("events"));
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(commands);
            throw ex;
        }
        for (final Journal journal : List.of(commands, events))
        {
            journal.setAside()
                .forEach(file -> log.println("journal: set aside " + file + ", a cycle file a stopped writer " +
                "made and never gave its header (it holds no record)"));
        }
        return new NodeJournals(commands, events);
    }

    Journal commands()
    {
        return commands;
    }

    Journal events()
    {
        return events;
    }

    @Override
    public void close()
    {
        CloseHelper.quietClose(commands);
        CloseHelper.quietClose(events);
    }
}
