package io.venue.cli;

import io.venue.appliance.KeyFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Secrets (private keys, API secrets, passphrases) read from a file or standard input rather than taken as arguments,
 * which any user of the machine sees in {@code ps}. A file its group or others may read is refused (KeyFiles).
 */
final class Secrets
{
    /** What names standard input instead of a file. */
    static final String STANDARD_INPUT = "-";

    private Secrets()
    {
    }

    /**
     * The secret in {@code file}, or on standard input for {@code -}, trimmed.
     *
     * @param option the option that named it, for the message when there is nothing there.
     */
    static String read(final Path file, final String option) throws IOException
    {
        final String secret = STANDARD_INPUT.equals(file.toString()) ?
            new String(System.in.readAllBytes(), StandardCharsets.US_ASCII).trim() : KeyFiles.readPrivate(file);
        if (secret.isEmpty())
        {
            // standard input is read once: a second option naming it finds it empty
            throw new IllegalArgumentException(option + " " + file + " holds no secret" + (STANDARD_INPUT.equals(
                file.toString()) ? " (standard input gives one secret: name it for one option only)" : ""));
        }
        return secret;
    }
}
