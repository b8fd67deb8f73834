package io.venue.cli;

import io.venue.codec.Hex;
import io.venue.crypto.Secp256k1Recoveries;
import io.venue.codec.JsonWriter;
import io.venue.verifier.ActionVerifier;
import io.venue.verifier.SignerMatch;
import io.venue.verifier.VerificationOutcome;
import io.venue.verifier.VerificationResult;
import org.agrona.ExpandableArrayBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.ObjIntConsumer;

/**
 * Runs the server's own verifier over a SignedAction body and prints what it computed: the canonical
 * JSON, the v2 digest and the recovered signers. Exit code 0 when the signature is valid, 1 otherwise.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
    description = "Print the canonical JSON, digest and recovered signer of a SignedAction body.")
final class VerifyCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Mixin
    DeploymentOptions deployment;

    @Option(names = "--accept-v1", description = "Also accept v1 digests signed by the account (migration flag).")
    boolean acceptV1;

    @Parameters(index = "0", defaultValue = "-",
        description = "File with the SignedAction JSON, or - for standard input (default).")
    String file;

    @Override
    public Integer call() throws Exception
    {
        final byte[] body = "-".equals(file) ? System.in.readAllBytes() : Files.readAllBytes(Path.of(file));
        final ActionVerifier verifier = new ActionVerifier(deployment.chainId, deployment.contractAddress(),
            Secp256k1Recoveries.select().newRecovery(), acceptV1, Math.max(body.length, 1));
        final ExpandableArrayBuffer out = new ExpandableArrayBuffer();
        verifier.verify(body, 0, body.length, 0, 0, out);
        final VerificationResult result = new VerificationResult().wrap(out, 0);
        spec.commandLine().getOut().println(toJson(result));
        return result.outcome() == VerificationOutcome.VERIFIED ? 0 : 1;
    }

    static String toJson(final VerificationResult result)
    {
        final JsonWriter json = new JsonWriter().field("outcome", result.outcome().name());
        switch (result.outcome())
        {
            case MALFORMED ->
            {
                final String text = result.text();
                final int split = text.indexOf('\n');
                json.field("code", result.parseError().name())
                    .field("field", text.substring(0, split))
                    .field("message", text.substring(split + 1));
            }
            case BAD_SIGNATURE -> json.field("reason", result.recoveryStatus().name())
                .field("digest", digest(result))
                .field("account", address(result::getAccount))
                .raw("canonicalJson", result.text());
            case VERIFIED -> json.field("signerMatch", result.signerMatch().name())
                .field("digestVersion", result.digestVersion())
                .field("digest", digest(result))
                .field("account", address(result::getAccount))
                .field("rawSigner", address(result::getRawSigner))
                .field("personalSigner", result.signerMatch() == SignerMatch.ACCOUNT_RAW ?
                    null : address(result::getPersonalSigner))
                .raw("canonicalJson", result.text());
        }
        return json.toJson();
    }

    private static String digest(final VerificationResult result)
    {
        final byte[] digest = new byte[32];
        result.getDigest(digest, 0);
        return Hex.to0x(digest);
    }

    private static String address(final ObjIntConsumer<byte[]> getter)
    {
        final byte[] address = new byte[20];
        getter.accept(address, 0);
        return Hex.to0x(address);
    }
}
