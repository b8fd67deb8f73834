package io.venue.cli;

import io.venue.crypto.Secp256k1KeyPair;
import io.venue.codec.Hex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Secrets from files and standard input instead of arguments (visible in ps), and key files others may read refused.
 */
class SecretInputTest
{
    private static final String[] SVC_REQUEST = {"--path", "/api/v1/ws/token?b=2&a=1", "--nonce", "3", "--ts",
        "1763000000000"};

    @TempDir
    Path dir;

    private Path ownerOnly(final String name, final String text) throws Exception
    {
        final Path file = Files.writeString(dir.resolve(name), text + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    private static String[] svcSign(final String... credential)
    {
        final String[] args = new String[3 + credential.length + SVC_REQUEST.length];
        args[0] = "svc-sign";
        args[1] = "--key-id";
        args[2] = ReferenceVectors.TEST_API_KEY;
        System.arraycopy(credential, 0, args, 3, credential.length);
        System.arraycopy(SVC_REQUEST, 0, args, 3 + credential.length, SVC_REQUEST.length);
        return args;
    }

    /** Runs the CLI with {@code stdin} as its standard input. */
    private static CliRun withStandardInput(final String stdin, final String... args)
    {
        final InputStream saved = System.in;
        System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.US_ASCII)));
        try
        {
            return CliRun.of(args);
        }
        finally
        {
            System.setIn(saved);
        }
    }

    @Test
    void theSecretAndPassphraseComeFromFilesOrStandardInputAsFromArguments() throws Exception
    {
        final CliRun inline = CliRun.of(svcSign("--secret", ReferenceVectors.TEST_API_SECRET, "--passphrase",
            ReferenceVectors.TEST_API_PASSPHRASE));
        assertEquals(0, inline.exitCode(), inline.err());
        final Path secret = ownerOnly("secret", ReferenceVectors.TEST_API_SECRET);
        final Path passphrase = ownerOnly("passphrase", ReferenceVectors.TEST_API_PASSPHRASE);
        final CliRun files = CliRun.of(svcSign("--secret-file", secret.toString(), "--passphrase-file",
            passphrase.toString()));
        assertEquals(0, files.exitCode(), files.err());
        assertEquals(inline.out(), files.out(), "the same headers, signed with the same secret");
        final CliRun piped = withStandardInput(ReferenceVectors.TEST_API_SECRET + "\n", svcSign("--secret-file", "-",
            "--passphrase-file", passphrase.toString()));
        assertEquals(0, piped.exitCode(), piped.err());
        assertEquals(inline.out(), piped.out());

        final CliRun twice = withStandardInput(ReferenceVectors.TEST_API_SECRET, svcSign("--secret-file", "-",
            "--passphrase-file", "-"));
        assertEquals(2, twice.exitCode());
        assertTrue(twice.err().contains("--passphrase-file - holds no secret (standard input gives one secret"),
            twice.err());
    }

    @Test
    void aPrivateKeyComesFromStandardInput() throws Exception
    {
        final Secp256k1KeyPair key = Secp256k1KeyPair.generate(new SecureRandom());
        final Path file = ownerOnly("key.hex", Hex.to0x(key.privateKey()));
        final String[] cancelAll = {"sign", "cancel-all", "--nonce", "1", "--ts", "1763000000000", "--key-file"};
        final CliRun fromFile = CliRun.of(concat(cancelAll, file.toString()));
        assertEquals(0, fromFile.exitCode(), fromFile.err());
        final CliRun fromStandardInput = withStandardInput(Hex.to0x(key.privateKey()), concat(cancelAll, "-"));
        assertEquals(0, fromStandardInput.exitCode(), fromStandardInput.err());
        assertEquals(fromFile.out(), fromStandardInput.out());
    }

    @Test
    void aKeyFileItsGroupOrOthersMayReadIsRefused() throws Exception
    {
        final Path file = ownerOnly("key.hex", Hex.to0x(Secp256k1KeyPair.generate(new SecureRandom()).privateKey()));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        final CliRun run = CliRun.of("sign", "cancel-all", "--nonce", "1", "--key-file", file.toString());
        assertEquals(2, run.exitCode(), run.out());
        assertTrue(run.err().contains(file + " holds a secret but its group or others may read it (rw-r--r--)") &&
            run.err().contains("chmod 600 " + file), run.err());
        assertTrue(run.out().isEmpty(), "nothing signed: " + run.out());

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        final Path secret = ownerOnly("secret", ReferenceVectors.TEST_API_SECRET);
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw----r--"));
        assertEquals(2, CliRun.of("sign", "cancel-all", "--nonce", "1", "--key-file", file.toString()).exitCode());
        final CliRun svc = CliRun.of(svcSign("--secret-file", secret.toString(), "--passphrase",
            ReferenceVectors.TEST_API_PASSPHRASE));
        assertEquals(2, svc.exitCode());
        assertTrue(svc.err().contains("its group or others may read it"), svc.err());
    }

    private static String[] concat(final String[] head, final String last)
    {
        final String[] all = new String[head.length + 1];
        System.arraycopy(head, 0, all, 0, head.length);
        all[head.length] = last;
        return all;
    }
}
