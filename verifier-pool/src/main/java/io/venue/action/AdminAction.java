package io.venue.action;

/**
 * Operator actions. The payload's account is the operator key; the signature is EIP-191 over the admin text that
 * quotes the v2 digest (docs/MESSAGE-TEXTS.md section 6), or, as for every action, over the v2 digest in raw or
 * personal mode (docs/SIGNING.md section 6).
 */
public sealed interface AdminAction extends Action
    permits CreateAsset, CreateSpotMarket, CreateOutcomeMarket, HaltMarket, ResumeMarket, SetKillSwitch, Deposit,
    Withdraw, SetVaultOwner, SetFixOnboarding
{
}
