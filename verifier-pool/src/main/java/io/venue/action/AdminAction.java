package io.venue.action;

/**
 * Operator actions. The payload's account is the operator key; the signature is EIP-191 over the admin
 * text that quotes the v2 digest (docs/SIGNING.md), so admin intent can never be mistaken for a trade.
 */
public sealed interface AdminAction extends Action
    permits CreateAsset, CreateSpotMarket, CreateOutcomeMarket, HaltMarket, ResumeMarket, SetKillSwitch, Deposit, Withdraw, SetVaultOwner
{
}
