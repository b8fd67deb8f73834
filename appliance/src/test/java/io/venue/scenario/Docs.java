package io.venue.scenario;

import io.venue.journal.sbe.RejectCode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The documented refusals, read from the documents themselves so that the walk holds the venue to them:
 * docs/JOURNAL-SCHEMA.md section 7 (each RejectCode's wire code), section 5 (the RequestRejectReasons) and
 * docs/API.md's table of submit answers (each code's HTTP status).
 */
final class Docs
{
    /** A row of API.md's table: the status and the codes it lists ("(plain text)" for the edge throttle's 429). */
    record ApiRow(int status, List<String> codes)
    {
    }

    static final String PLAIN_TEXT = "(plain text)";
    private static final Pattern CODE = Pattern.compile("`([A-Za-z_]+)`");

    private static final Map<String, String> WIRE = new LinkedHashMap<>();
    private static final List<String> REQUEST_REJECT_REASONS = new ArrayList<>();
    private static final List<ApiRow> API_TABLE = new ArrayList<>();

    static
    {
        final List<String> schema = lines("JOURNAL-SCHEMA.md");
        for (final String row : section(schema, "## 7. RejectCode"))
        {
            final String[] cells = cells(row);
            if (cells.length >= 3 && cells[0].matches("\\d+"))
            {
                WIRE.put(cells[1], cells[2].replace("`", ""));
            }
        }
        for (final String row : section(schema, "## 5. RequestRejectReason"))
        {
            final String[] cells = cells(row);
            if (cells.length >= 2 && cells[0].matches("\\d+"))
            {
                REQUEST_REJECT_REASONS.add(cells[1]);
            }
        }
        final List<String> api = lines("API.md");
        final int header = api.indexOf("| status | code | when | extra fields |");
        if (header < 0)
        {
            throw new IllegalStateException("docs/API.md: the submit answers' table is not where it was");
        }
        for (int i = header + 2; i < api.size() && api.get(i).startsWith("|"); i++)
        {
            final String[] cells = cells(api.get(i));
            final List<String> codes = new ArrayList<>();
            final Matcher each = CODE.matcher(cells[1]);
            while (each.find())
            {
                codes.add(each.group(1));
            }
            if (codes.isEmpty())
            {
                codes.add(cells[1].trim());
            }
            API_TABLE.add(new ApiRow(Integer.parseInt(cells[0].trim()), List.copyOf(codes)));
        }
    }

    private Docs()
    {
    }

    /** The wire code docs/JOURNAL-SCHEMA.md gives {@code code}. */
    static String wire(final RejectCode code)
    {
        final String wire = WIRE.get(code.name());
        if (wire == null)
        {
            throw new AssertionError("docs/JOURNAL-SCHEMA.md section 7 does not list RejectCode " + code);
        }
        return wire;
    }

    /** The status docs/API.md's table gives a wire code, or -1 when the table does not list it. */
    static int apiStatus(final String wireCode)
    {
        for (final ApiRow row : API_TABLE)
        {
            if (row.codes().contains(wireCode))
            {
                return row.status();
            }
        }
        return -1;
    }

    /** How the trading route answers an engine refusal, as documented. */
    static Refusal documentedRefusal(final RejectCode code)
    {
        final String wire = wire(code);
        final int status = apiStatus(wire);
        if (status < 0)
        {
            throw new AssertionError("docs/API.md's table gives no status for " + wire);
        }
        return new Refusal(status, wire);
    }

    static List<ApiRow> apiTable()
    {
        return API_TABLE;
    }

    /** Every code of docs/API.md's table, once each. */
    static List<String> apiCodes()
    {
        final List<String> codes = new ArrayList<>();
        API_TABLE.forEach(row -> row.codes().stream().filter(code -> !codes.contains(code)).forEach(codes::add));
        return codes;
    }

    static Map<String, String> schemaWireCodes()
    {
        return WIRE;
    }

    static List<String> schemaRequestRejectReasons()
    {
        return REQUEST_REJECT_REASONS;
    }

    private static String[] cells(final String row)
    {
        final String inner = row.trim();
        if (!inner.startsWith("|"))
        {
            return new String[0];
        }
        final String[] cells = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length())
            .split("\\|");
        for (int i = 0; i < cells.length; i++)
        {
            cells[i] = cells[i].trim();
        }
        return cells;
    }

    /** The lines of the section that starts with {@code heading}, up to the next heading of its level. */
    private static List<String> section(final List<String> lines, final String heading)
    {
        int start = -1;
        for (int i = 0; i < lines.size(); i++)
        {
            if (lines.get(i).startsWith(heading))
            {
                start = i + 1;
                break;
            }
        }
        if (start < 0)
        {
            throw new IllegalStateException("no section '" + heading + "'");
        }
        int end = start;
        while (end < lines.size() && !lines.get(end).startsWith("## "))
        {
            end++;
        }
        return lines.subList(start, end);
    }

    private static List<String> lines(final String document)
    {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("docs").resolve(document)))
        {
            dir = dir.getParent();
        }
        if (dir == null)
        {
            throw new IllegalStateException("docs/" + document + " not found above " + Path.of("").toAbsolutePath());
        }
        try
        {
            return Files.readAllLines(dir.resolve("docs").resolve(document));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
