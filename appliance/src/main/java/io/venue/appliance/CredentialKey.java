package io.venue.appliance;

import io.venue.auth.CredentialSecrets;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * The credential key set: every HMAC credential's secret and the WS-token key derive from one of its versions. It is
 * read from {@value #ENVIRONMENT} when that is set, else from {@code credentials.key.file} ({@link CredentialKeySet}
 * gives the text of both).
 */
final class CredentialKey
{
    /** The environment variable holding the key set's text; when set, the key file is not read nor made. */
    static final String ENVIRONMENT = "VENUE_CREDENTIALS_KEY";

    private CredentialKey()
    {
    }

    /**
     * The key set. A file is made (version 1) only where no credential can exist yet: on a primary (or single node)
     * whose journal holds no agent. Anywhere else a missing key would silently break every HMAC credential and token,
     * so the node refuses to start; as it does when a credential still active at start was issued under a version the
     * set lacks.
     *
     * @param inUse each key version the active HMAC credentials were issued under, to how many.
     */
    static CredentialSecrets load(final ApplianceContext context, final boolean journalHoldsCredentials,
        final SortedMap<Integer, Integer> inUse, final PrintStream log) throws IOException
    {
        final String fromEnvironment = context.environment().apply(ENVIRONMENT);
        final String source;
        final CredentialKeySet.Parsed set;
        if (fromEnvironment != null && !fromEnvironment.isBlank())
        {
            source = "the environment variable " + ENVIRONMENT;
            set = CredentialKeySet.parse(fromEnvironment, source);
        }
        else
        {
            final Path file = context.credentialKeyFile();
            source = file.toString();
            set = fromFile(context, file, journalHoldsCredentials, log);
        }
        final CredentialSecrets secrets = new CredentialSecrets(set.keys());
        for (final Map.Entry<Integer, Integer> version : inUse.entrySet())
        {
            if (set.retired().contains(version.getKey()))
            {
                log.println("credential key version " + version.getKey() + " is retired: its " + version.getValue() +
                    " active credential(s) are refused");
            }
            else if (!secrets.holds(version.getKey()))
            {
                throw new IllegalStateException("the journal holds " + version.getValue() + " active credential(s) " +
                    "issued under credential key version " + version.getKey() + ", which the key set in " + source +
                    " lacks (it holds " + secrets.versions() + "): add that version back, or list it as " +
                    version.getKey() + ":retired to refuse those credentials (docs/OPERATIONS.md)");
            }
        }
        log.println("credential key set from " + source + ": versions " + secrets.versions() + ", current " +
            secrets.currentVersion());
        return secrets;
    }

    private static CredentialKeySet.Parsed fromFile(final ApplianceContext context, final Path file,
        final boolean journalHoldsCredentials, final PrintStream log) throws IOException
    {
        final boolean primary = context.role() == ApplianceContext.Role.PRIMARY;
        if (Files.exists(file))
        {
            return CredentialKeySet.parse(KeyFiles.readPrivate(file), file.toString());
        }
        if (!primary || journalHoldsCredentials)
        {
            throw new IllegalStateException("no credential key at " + file + (primary ?
                ", but the journal holds agent credentials derived from one: restore the file (or set " + ENVIRONMENT +
                ")" :
                ": a standby needs its primary's key set (every node of a pair derives the same secrets)"));
        }
        final byte[] key = new byte[CredentialSecrets.KEY_LENGTH];
        new SecureRandom().nextBytes(key);
        final Map<Integer, byte[]> keys = Map.of(1, key);
        KeyFiles.writePrivate(file, CredentialKeySet.format(keys));
        log.println("made a credential key (version 1) in " + file + ": every node of a pair needs the same file");
        return new CredentialKeySet.Parsed(keys, Set.of());
    }
}
