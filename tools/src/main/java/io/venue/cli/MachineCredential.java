package io.venue.cli;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.util.Map;

/** An agent's machine credential on the command line, and the SVC-* headers it signs a request with (spec 5.4). */
final class MachineCredential
{
    @Option(names = "--key-id", required = true, description = "The API key id (spk_...).")
    String keyId;

    @ArgGroup(exclusive = true, multiplicity = "1")
    SvcSignCommand.Credential credential;

    @Option(names = "--svc-nonce", required = true, description = "SVC-Nonce: u64, above the last one this key used.")
    String svcNonce;

    /** The SVC-* headers of a request without a query, signed now. */
    Map<String, String> headers(final String method, final String path, final byte[] body) throws IOException
    {
        return credential.signer(keyId).sign(WireValues.u64(svcNonce), System.currentTimeMillis(), method, path, null,
            body == null || body.length == 0 ? null : body);
    }
}
