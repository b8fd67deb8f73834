package io.venue.appliance;

import io.venue.auth.CredentialSecrets;
import io.venue.codec.Hex;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text of a credential key set, as the key file or {@code VENUE_CREDENTIALS_KEY} holds it: entries
 * {@code <version>:0x<64 hex>} separated by line feeds, spaces or commas, lines starting with {@code #} ignored; the
 * highest version is current. {@code <version>:retired} says a version was dropped on purpose (it leaked): its
 * credentials are refused, and a start whose journal still holds active ones goes ahead. A text that is one
 * {@code 0x<64 hex>} alone is version 1: the file of a deployment before versions reads unchanged. No message here
 * ever quotes key material.
 */
final class CredentialKeySet
{
    private static final Pattern VERSIONED = Pattern.compile("([0-9]{1,3}):(0x[0-9a-fA-F]{64}|retired)");
    private static final String RETIRED = "retired";
    private static final Pattern BARE = Pattern.compile("0x[0-9a-fA-F]{64}");

    /** The keys by version, and the versions retired on purpose. */
    record Parsed(Map<Integer, byte[]> keys, Set<Integer> retired)
    {
    }

    private CredentialKeySet()
    {
    }

    /**
     * @param source where the text came from, for the messages.
     * @throws IllegalArgumentException naming the entry (by position and version, never its key) that does not read.
     */
    static Parsed parse(final String text, final String source)
    {
        final StringBuilder entries = new StringBuilder();
        for (final String line : text.split("\n", -1))
        {
            if (!line.strip().startsWith("#"))
            {
                entries.append(line).append('\n');
            }
        }
        final String[] tokens = entries.toString().strip().split("[\\s,]+");
        final Map<Integer, byte[]> keys = new TreeMap<>();
        final Set<Integer> retired = new TreeSet<>();
        if (tokens.length == 1 && BARE.matcher(tokens[0]).matches())
        {
            keys.put(1, Hex.fromHex(tokens[0].toLowerCase()));
            return new Parsed(keys, retired);
        }
        for (int i = 0; i < tokens.length; i++)
        {
            final Matcher entry = VERSIONED.matcher(tokens[i]);
            if (!entry.matches())
            {
                throw new IllegalArgumentException(source + ": entry " + (i + 1) + " is not <version>:0x<64 hex " +
                    "digits> nor <version>:retired (a key set is such entries, or one 0x<64 hex digits> alone for " +
                    "version 1)");
            }
            final int version = Integer.parseInt(entry.group(1));
            if (version < 1 || version > CredentialSecrets.MAX_VERSION)
            {
                throw new IllegalArgumentException(source + ": entry " + (i + 1) + " has version " + version +
                    "; versions are 1 to " + CredentialSecrets.MAX_VERSION);
            }
            final boolean again = RETIRED.equals(entry.group(2)) ? !retired.add(version) || keys.containsKey(version) :
                keys.put(version, Hex.fromHex(entry.group(2).toLowerCase())) != null || retired.contains(version);
            if (again)
            {
                throw new IllegalArgumentException(source + ": version " + version + " is given twice");
            }
        }
        if (keys.isEmpty())
        {
            throw new IllegalArgumentException(source + ": no key, only retired versions");
        }
        return new Parsed(keys, retired);
    }

    /** One entry a line, in the versioned form. */
    static String format(final Map<Integer, byte[]> keys)
    {
        final StringBuilder text = new StringBuilder();
        new TreeMap<>(keys).forEach((version, key) -> text.append(version).append(':').append(Hex.to0x(key))
            .append('\n'));
        return text.toString();
    }
}
