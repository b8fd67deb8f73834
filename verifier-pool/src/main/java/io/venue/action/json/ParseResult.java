package io.venue.action.json;

import io.venue.action.ActionPayload;
import io.venue.action.SignedAction;

/**
 * The outcome of parsing a SignedAction body: the action, or a named error with the field it concerns.
 */
public final class ParseResult
{
    private final SignedAction signedAction;
    private final ActionPayload payload;
    private final ParseErrorCode code;
    private final String field;
    private final String message;

    private ParseResult(
        final SignedAction signedAction,
        final ActionPayload payload,
        final ParseErrorCode code,
        final String field,
        final String message)
    {
        this.signedAction = signedAction;
        this.payload = payload;
        this.code = code;
        this.field = field;
        this.message = message;
    }

    static ParseResult ok(final SignedAction signedAction)
    {
        return new ParseResult(signedAction, signedAction.payload(), null, null, null);
    }

    static ParseResult ok(final ActionPayload payload)
    {
        return new ParseResult(null, payload, null, null, null);
    }

    static ParseResult error(final ParseErrorCode code, final String field, final String message)
    {
        return new ParseResult(null, null, code, field, message);
    }

    public boolean isOk()
    {
        return code == null;
    }

    /** The parsed payload; null when {@link #isOk()} is false. */
    public ActionPayload payload()
    {
        return payload;
    }

    /** The parsed action; null when {@link #isOk()} is false or only a payload was parsed. */
    public SignedAction signedAction()
    {
        return signedAction;
    }

    /** The error code; null when ok. */
    public ParseErrorCode code()
    {
        return code;
    }

    /** Path of the offending field, e.g. "payload.nonce"; "" for the body as a whole. */
    public String field()
    {
        return field;
    }

    public String message()
    {
        return message;
    }

    @Override
    public String toString()
    {
        return isOk() ? "ok " + (signedAction != null ? signedAction : payload) :
            code + " at " + field + ": " + message;
    }
}
