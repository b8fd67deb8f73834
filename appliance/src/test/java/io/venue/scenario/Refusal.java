package io.venue.scenario;
import java.util.Objects;

/**
 * How a lane answers a refusal: the HTTP status of the action's answer and its wire code ({@code null} for the edge
 * throttle's plain-text 429), with a note when the lane answers otherwise than the trading route documents.
 */
public record Refusal(int status, String code, String note)
{
    public Refusal(final int status, final String code)
    {
        this(status, code, null);
    }

    boolean matches(final Result result)
    {
        return result.status() == status && !result.accepted() && Objects.equals(result.code(), code);
    }

    @Override
    public String toString()
    {
        return status + " " + (code == null ? "(plain text)" : code) + (note == null ? "" : " (" + note + ")");
    }
}
