package io.venue.cli;

import io.venue.codec.Hex;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A private key given in a file (as written by {@code keygen --out}), on standard input ({@code --key-file -}), or
 * inline.
 */
final class KeyInput
{
    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source
    {
        @Option(names = "--key", description = "Private key, 0x hex. Prefer --key-file: a command line is visible to " +
            "other users (ps).")
        String hex;

        @Option(names = "--key-file", description = "File holding the private key, 0x hex, readable by its owner " +
            "only; - reads it from standard input.")
        Path file;
    }

    byte[] privateKey() throws IOException
    {
        return Hex.fromHex(source.file != null ? Secrets.read(source.file, "--key-file") : source.hex.trim());
    }
}
