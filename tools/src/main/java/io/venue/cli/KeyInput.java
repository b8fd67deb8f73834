package io.venue.cli;

import io.venue.codec.Hex;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A private key given inline or in a file (as written by {@code keygen --out}).
 */
final class KeyInput
{
    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source
    {
        @Option(names = "--key", description = "Private key, 0x hex. Prefer --key-file: a command line is visible to other users.")
        String hex;

        @Option(names = "--key-file", description = "File holding the private key, 0x hex.")
        Path file;
    }

    byte[] privateKey() throws IOException
    {
        final String text = source.file != null ?
            Files.readString(source.file, StandardCharsets.US_ASCII).trim() : source.hex.trim();
        return Hex.fromHex(text);
    }
}
