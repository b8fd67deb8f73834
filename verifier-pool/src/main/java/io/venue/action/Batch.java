package io.venue.action;

import io.venue.action.json.CanonicalJsonWriter;

import java.util.List;

/**
 * Up to {@link Fields#MAX_BATCH_LEGS} legs applied in order under one signature and one nonce; each leg
 * gets its own result. A placing leg's order id is derived from the batch digest and the leg index
 * (docs/SIGNING.md).
 */
public record Batch(List<BatchLeg> legs) implements Action
{
    public static final String TAG = "Batch";

    public Batch
    {
        Fields.requireNonNull("legs", legs);
        if (legs.isEmpty() || legs.size() > Fields.MAX_BATCH_LEGS)
        {
            throw new IllegalArgumentException(
                "legs must hold 1 to " + Fields.MAX_BATCH_LEGS + " actions, got " + legs.size());
        }
        legs = List.copyOf(legs);
    }

    @Override
    public String tag()
    {
        return TAG;
    }

    @Override
    public void writeFields(final CanonicalJsonWriter w)
    {
        w.key(Fields.LEGS).beginArray();
        for (int i = 0, n = legs.size(); i < n; i++)
        {
            w.action(legs.get(i));
        }
        w.endArray();
    }
}
