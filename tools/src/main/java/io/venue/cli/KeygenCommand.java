package io.venue.cli;

import io.venue.appliance.KeyFiles;
import io.venue.codec.Hex;
import io.venue.crypto.Secp256k1KeyPair;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;

/**
 * Generates a key: secp256k1 for signing actions (the default) or Ed25519 for SVC version 3 agents.
 */
@Command(name = "keygen", mixinStandardHelpOptions = true,
    description = "Generate a secp256k1 key (prints the private key and its address) or an Ed25519 key.")
final class KeygenCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--ed25519", description = "Generate an Ed25519 key for SVC-Auth-Version 3 instead.")
    boolean ed25519;

    @Option(names = "--out", description = "Also write the private key (hex) to this file, readable by the owner only.")
    Path out;

    @Override
    public Integer call() throws IOException
    {
        final SecureRandom random = new SecureRandom();
        final String privateHex;
        final String json;
        if (ed25519)
        {
            final Ed25519PrivateKeyParameters key = new Ed25519PrivateKeyParameters(random);
            privateHex = Hex.to0x(key.getEncoded());
            json = "{\"type\":\"ed25519\",\"privateKey\":\"" + privateHex + "\",\"publicKey\":\"" +
                Hex.to0x(key.generatePublicKey().getEncoded()) + "\"}";
        }
        else
        {
            final Secp256k1KeyPair key = Secp256k1KeyPair.generate(random);
            privateHex = Hex.to0x(key.privateKey());
            json = "{\"type\":\"secp256k1\",\"privateKey\":\"" + privateHex + "\",\"address\":\"" +
                key.address() + "\"}";
        }
        if (out != null)
        {
            writePrivate(out, privateHex + "\n");
        }
        spec.commandLine().getOut().println(json);
        return 0;
    }

    /**
     * Writes the key file readable by its owner only from the first byte, forced to the disk before it takes its
     * name (KeyFiles); where the file system has no POSIX permissions, says so on stderr.
     */
    private void writePrivate(final Path file, final String text) throws IOException
    {
        if (!KeyFiles.writePrivate(file, text))
        {
            spec.commandLine().getErr()
                .println("warning: " + file + " is on a file system without POSIX permissions; " +
                "restrict who can read it yourself");
        }
    }
}
