package io.venue.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of the command-line tool with its exit code and both output streams.
 */
record CliRun(int exitCode, String out, String err)
{
    static CliRun of(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int code = VenueCli.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new CliRun(code, out.toString(), err.toString());
    }

    /** A string field of the JSON the run printed on standard output, or null. */
    String outField(final String name)
    {
        final Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(out);
        return m.find() ? m.group(1) : null;
    }
}
