package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

/**
 * One variant of the externally tagged {@code action} enum of an {@link ActionPayload}. The canonical
 * field order of every variant is documented in docs/SIGNING.md and is the order of {@link #writeFields}.
 */
public sealed interface Action
    permits BatchLeg, Batch, CancelAll, Split, Merge, AdminAction
{
    /** The variant tag, e.g. "SpotPlaceOrder". */
    String tag();

    /** Writes the variant's fields, in canonical order, inside an already opened JSON object. */
    void writeFields(CanonicalJsonWriter writer);
}
