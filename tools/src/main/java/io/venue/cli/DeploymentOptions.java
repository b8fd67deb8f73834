package io.venue.cli;

import io.venue.action.Address;
import picocli.CommandLine.Option;

/**
 * The chain id and verifying contract every v2 digest is bound to. Read them from the deployment's
 * GET /api/v1/bsl/connectivity (actionSigning.chainId, actionSigning.verifyingContract); the defaults are
 * the reference vectors' test values.
 */
final class DeploymentOptions
{
    static final long TEST_CHAIN_ID = 8453;
    static final String TEST_CONTRACT = "0x5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e";

    @Option(names = "--chain-id", defaultValue = "" + TEST_CHAIN_ID,
        description =
            "Chain id bound into the v2 digest (default: ${DEFAULT-VALUE}, the test chain of the reference vectors).")
    long chainId;

    @Option(names = "--contract", defaultValue = TEST_CONTRACT,
        description =
            "Verifying contract bound into the v2 digest (default: the vectors' placeholder ${DEFAULT-VALUE}).")
    String contract;

    Address contractAddress()
    {
        return Address.of(contract);
    }
}
