package io.venue.scenario;

import io.venue.action.Action;

/**
 * The requests that test a lane's machine credentials ({@link Capability#MACHINE_AUTH}); only a lane whose requests
 * carry them has these ({@link LaneClient#machineAuth()}).
 */
interface MachineAuthProbes
{
    /** The action with headers of a credential the venue does not know. */
    Result sendWithUnknownCredential(Trader trader, Action action) throws Exception;

    /** The action with headers of the trader's own credential whose signature does not verify. */
    Result sendWithBadMachineSignature(Trader trader, Action action) throws Exception;

    /** Two requests under the same machine nonce; the answer to the second. */
    Result sendWithReplayedMachineNonce(Trader trader, Action first, Action second) throws Exception;

    /** The action with machine headers dated a minute ago. */
    Result sendWithStaleMachineTimestamp(Trader trader, Action action) throws Exception;
}
