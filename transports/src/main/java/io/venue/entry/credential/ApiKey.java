package io.venue.entry.credential;

import io.venue.auth.Scope;
import io.venue.svc.SvcCredential;

/**
 * An active machine credential as a lane sees it: what verifies its SVC-* headers, the trading account it acts for,
 * its agent's scopes (bit i = {@link Scope} ordinal i) and whether it is an institutional agent's (spec 5.4: MM order
 * entry requires one).
 */
public record ApiKey(SvcCredential svc, String account, int scopes, boolean institutional)
{
    public boolean holds(final Scope scope)
    {
        return (scopes & scope.bit()) != 0;
    }
}
