package io.venue.cli;

import io.venue.codec.Hex;
import io.venue.svc.SvcRequestSigner;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Prints the SVC-* headers of a machine REST request (spec 5.4): HMAC-SHA256 (version 2) with an API
 * secret and passphrase, or Ed25519 (version 3) with a private key.
 */
@Command(name = "svc-sign", mixinStandardHelpOptions = true,
    description = "Print the SVC-* headers for a machine REST request.")
final class SvcSignCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--key-id", required = true, description = "The API key id (spk_...).")
    String keyId;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Credential credential;

    static final class Credential
    {
        @ArgGroup(exclusive = false)
        Hmac hmac;

        @Option(names = "--ed25519-key", description = "Ed25519 private key (32-byte seed, 0x hex): auth version 3. " +
            "Prefer --ed25519-key-file: a command line is visible to other users (ps).")
        String ed25519Key;

        @Option(names = "--ed25519-key-file", description = "File holding the Ed25519 private key (owner-readable " +
            "only; - for standard input): auth version 3.")
        Path ed25519KeyFile;

        /** The signer of the credential given: Ed25519 (version 3) or HMAC (version 2). */
        SvcRequestSigner signer(final String keyId) throws IOException
        {
            if (ed25519KeyFile != null)
            {
                return SvcRequestSigner.ed25519(keyId, Hex.fromHex(Secrets.read(ed25519KeyFile, "--ed25519-key-file")));
            }
            return ed25519Key != null ? SvcRequestSigner.ed25519(keyId, Hex.fromHex(ed25519Key)) :
                SvcRequestSigner.hmac(keyId, hmac.secret.value(), hmac.passphrase.value());
        }
    }

    /** An HMAC credential's secret and passphrase, each inline or, preferably, from a file or standard input. */
    static final class Hmac
    {
        @ArgGroup(exclusive = true, multiplicity = "1")
        Secret secret;

        @ArgGroup(exclusive = true, multiplicity = "1")
        Passphrase passphrase;
    }

    static final class Secret
    {
        @Option(names = "--secret", description = "The API secret (sps_...): auth version 2. Prefer --secret-file: a " +
            "command line is visible to other users (ps).")
        String inline;

        @Option(names = "--secret-file", description = "File holding the API secret (owner-readable only; - for " +
            "standard input).")
        Path file;

        String value() throws IOException
        {
            return file != null ? Secrets.read(file, "--secret-file") : inline;
        }
    }

    static final class Passphrase
    {
        @Option(names = "--passphrase", description = "The API passphrase (spp_...). Prefer --passphrase-file.")
        String inline;

        @Option(names = "--passphrase-file", description = "File holding the API passphrase (owner-readable only; - " +
            "for standard input).")
        Path file;

        String value() throws IOException
        {
            return file != null ? Secrets.read(file, "--passphrase-file") : inline;
        }
    }

    @Option(names = "--method", defaultValue = "POST", description = "HTTP method (default: ${DEFAULT-VALUE}).")
    String method;

    @Option(names = "--path", required = true,
        description = "Request path, with its query string if any, e.g. /api/v1/ws/token?b=2&a=1.")
    String pathAndQuery;

    @Option(names = "--body", description = "Request body text. Default: empty.")
    String body;

    @Option(names = "--body-file", description = "File holding the request body.")
    Path bodyFile;

    @Option(names = "--nonce", required = true, description = "SVC-Nonce: u64, strictly increasing per key.")
    String nonce;

    @Option(names = "--ts", description = "SVC-Timestamp in Unix ms. Default: now.")
    Long ts;

    @Option(names = "--show-string", description = "Also print the signed string (to stderr).")
    boolean showString;

    @Override
    public Integer call() throws IOException
    {
        final SvcRequestSigner signer = credential.signer(keyId);
        final int query = pathAndQuery.indexOf('?');
        final String path = query < 0 ? pathAndQuery : pathAndQuery.substring(0, query);
        final String rawQuery = query < 0 ? "" : pathAndQuery.substring(query + 1);
        final byte[] bodyBytes = bodyFile != null ? Files.readAllBytes(bodyFile) :
            body != null ? body.getBytes(StandardCharsets.UTF_8) : new byte[0];

        final Map<String, String> headers = signer.sign(
            Long.parseUnsignedLong(nonce), ts != null ? ts : System.currentTimeMillis(), method, path,
            rawQuery, bodyBytes);
        final PrintWriter out = spec.commandLine().getOut();
        headers.forEach((name, value) -> out.println(name + ": " + value));
        out.flush();
        if (showString)
        {
            spec.commandLine().getErr().println(signer.lastSignedString());
            spec.commandLine().getErr().flush();
        }
        return 0;
    }
}
