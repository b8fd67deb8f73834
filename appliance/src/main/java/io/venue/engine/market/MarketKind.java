package io.venue.engine.market;

/** Spot markets have one book; outcome markets have a YES and a NO book over one collateral. */
public enum MarketKind
{
    SPOT,
    OUTCOME
}
