package io.venue.appliance;

import org.slf4j.Logger;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The node's log as the stream its classes print to, one SLF4J event a line: the process logs through the one logging
 * set-up (time, thread, level and logger on each line), while a test hands the node a stream of its own to read.
 */
final class LogLines extends OutputStream
{
    private final Logger logger;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

    LogLines(final Logger logger)
    {
        this.logger = logger;
    }

    @Override
    public synchronized void write(final int b)
    {
        if (b == '\n')
        {
            emit();
        }
        else
        {
            line.write(b);
        }
    }

    @Override
    public synchronized void write(final byte[] bytes, final int offset, final int length)
    {
        for (int i = offset; i < offset + length; i++)
        {
            write(bytes[i]);
        }
    }

    /** A line not ended yet stays until its end: a flush in the middle of a line does not cut it in two. */
    @Override
    public void flush()
    {
    }

    @Override
    public synchronized void close()
    {
        if (line.size() > 0)
        {
            emit();
        }
    }

    private void emit()
    {
        final String text = line.toString(StandardCharsets.UTF_8);
        line.reset();
        if (text.startsWith("error") || text.contains(" cannot ") || text.startsWith("fenced"))
        {
            logger.warn(text);
        }
        else
        {
            logger.info(text);
        }
    }
}
