package io.venue.appliance;

import io.venue.codec.Hex;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.journal.queue.Journal;
import io.venue.journal.queue.JournalTailer;
import io.venue.testing.ChildJvm;
import io.venue.testing.RecordFiles;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A replicated pair of demo appliances for process tests, in a test's folder: the configuration files of a synchronous
 * primary and its standby (UDP on loopback), the keys both need (the same operator, demo account, credential and
 * replication keys), and the two nodes started as child JVMs ({@link ChildJvm}), with what such tests read of them:
 * their journals.
 */
final class AppliancePair
{
    final Path folder;
    final Path primaryData;
    final Path standbyData;
    final Path primaryConfig;
    final Path standbyConfig;
    /** Where the standby receives the primary's commands. */
    final int standbyPort;
    /** Where the primary receives the standby's acknowledgements, requests and heartbeats. */
    final int primaryPort;

    private AppliancePair(final Path folder, final int standbyPort, final int primaryPort,
        final int primaryShipsTo, final int standbyRepliesTo) throws IOException
    {
        this.folder = folder;
        this.standbyPort = standbyPort;
        this.primaryPort = primaryPort;
        this.primaryData = folder.resolve("primary");
        this.standbyData = folder.resolve("standby");
        final String common = "replication.mode=sync\ndemo=true\nhttp.port=0\nedge.ip.exempt=127.0.0.1\n" +
            "replication.report.ms=200\n";
        this.primaryConfig = Files.writeString(folder.resolve("primary.properties"), common +
            "role=primary\ndata.dir=primary\nreplication.key.file=primary/keys/replication.key\n" +
            "replication.standby.endpoint=127.0.0.1:" + primaryShipsTo +
            "\nreplication.primary.endpoint=127.0.0.1:" + primaryPort + "\n");
        this.standbyConfig = Files.writeString(folder.resolve("standby.properties"), common +
            "role=standby\ndata.dir=standby\nreplication.key.file=standby/keys/replication.key\n" +
            "replication.standby.endpoint=127.0.0.1:" + standbyPort +
            "\nreplication.primary.endpoint=127.0.0.1:" + standbyRepliesTo + "\n" +
            "http.port=" + freeTcpPort() + "\n");
        // both nodes run under the same engine configuration (the demo's operator key) and credential key, made here
        // for both
        writeKeys(primaryData, standbyData);
    }

    /** A pair whose nodes send straight to each other. */
    static AppliancePair direct(final Path folder) throws IOException
    {
        final int standbyPort = RecordFiles.freeUdpPort();
        final int primaryPort = RecordFiles.freeUdpPort();
        return new AppliancePair(folder, standbyPort, primaryPort, standbyPort, primaryPort);
    }

    /**
     * A pair whose nodes send to other ports than the ones their peers receive on: the primary ships to
     * {@code primaryShipsTo}, the standby replies to {@code standbyRepliesTo}; something there (a relay) must pass
     * it on.
     */
    static AppliancePair relayed(final Path folder, final int primaryShipsTo, final int standbyRepliesTo)
        throws IOException
    {
        return new AppliancePair(folder, RecordFiles.freeUdpPort(), RecordFiles.freeUdpPort(), primaryShipsTo,
            standbyRepliesTo);
    }

    ChildJvm startStandby() throws IOException
    {
        return ChildJvm.start(ApplianceMain.class, "--config", standbyConfig.toString());
    }

    ChildJvm startPrimary() throws IOException
    {
        return ChildJvm.start(ApplianceMain.class, "--config", primaryConfig.toString());
    }

    /** The demo account's key, which both nodes' set-up funded. */
    Secp256k1KeyPair demoAccount() throws IOException
    {
        return VenueHttp.key(primaryData.resolve("keys").resolve("demo-account.key"));
    }

    private static void writeKeys(final Path... dataDirs) throws IOException
    {
        // the credential key is 32 random bytes too: a standby refuses to start without its primary's; so is the
        // replication key, which both nodes need, readable by their user only
        for (final String key : List.of("operator.key", "demo-account.key", "credentials.key", "replication.key"))
        {
            final String hex = Hex.to0x(Secp256k1KeyPair.generate(new SecureRandom()).privateKey());
            for (final Path data : dataDirs)
            {
                Files.createDirectories(data.resolve("keys"));
                KeyFiles.writePrivate(data.resolve("keys").resolve(key), hex + "\n");
            }
        }
    }

    static void signal(final ChildJvm child, final String signal) throws Exception
    {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(child.process.pid())).start().waitFor());
    }

    /** The last sequence the node's command journal holds (read beside the running node). */
    static long journaled(final Path data)
    {
        try (Journal commands = Journal.openReadOnly(data.resolve("journal").resolve("commands")))
        {
            return commands.lastSequence();
        }
    }

    /** Waits until the node's command journal holds {@code sequence}. */
    static void awaitJournaled(final Path data, final long sequence) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (journaled(data) < sequence)
        {
            assertTrue(System.nanoTime() < deadline, "command " + sequence + " not journaled");
            Thread.sleep(50);
        }
    }

    /** The node's command records, one by one. */
    static List<byte[]> commands(final Path data)
    {
        return records(data.resolve("journal").resolve("commands"));
    }

    /** The node's event records, one by one. */
    static List<byte[]> events(final Path data)
    {
        return records(data.resolve("journal").resolve("events"));
    }

    private static List<byte[]> records(final Path journal)
    {
        final List<byte[]> all = new ArrayList<>();
        try (Journal records = Journal.openReadOnly(journal);
            JournalTailer tailer = records.tailer())
        {
            while (tailer.read((buffer, offset, length, index) ->
            {
                final byte[] bytes = new byte[length];
                buffer.getBytes(offset, bytes);
                all.add(bytes);
            }))
            {
                // to the end
            }
        }
        return all;
    }

    static int freeTcpPort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }
}
