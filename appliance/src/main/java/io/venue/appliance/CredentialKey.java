package io.venue.appliance;

import io.venue.auth.CredentialSecrets;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * The credential key ({@code credentials.key.file}): every HMAC credential's secret and the WS-token key derive
 * from it.
 */
final class CredentialKey
{
    private CredentialKey()
    {
    }

    /**
     * The key from its file. It is made only where no credential can exist yet: on a primary (or single node) whose
     * journal holds no agent. Anywhere else a missing key would silently break every HMAC credential and token, so the
     * node refuses to start.
     */
    static byte[] load(final ApplianceContext context, final boolean journalHoldsCredentials, final PrintStream log)
        throws IOException
    {
        final Path file = context.credentialKeyFile();
        final boolean primary = context.role() == ApplianceContext.Role.PRIMARY;
        if (!Files.exists(file) && (!primary || journalHoldsCredentials))
        {
            throw new IllegalStateException("no credential key at " + file + (primary ?
                ", but the journal holds agent credentials derived from one: restore the file" :
                ": a standby needs its primary's file (every node of a pair derives the same secrets)"));
        }
        return KeyFiles.loadOrCreate(file, () ->
        {
            final byte[] key = new byte[CredentialSecrets.KEY_LENGTH];
            new SecureRandom().nextBytes(key);
            log.println("made a credential key in " + file + ": every node of a pair needs the same file");
            return key;
        });
    }
}
