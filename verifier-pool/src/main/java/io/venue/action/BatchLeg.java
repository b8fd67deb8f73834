package io.venue.action;

/**
 * The variants a {@link Batch} may hold: place, cancel, amend and cancel by client order id.
 */
public sealed interface BatchLeg extends Action permits SpotPlaceOrder, Cancel, Amend, CancelByClientOrderId
{
}
