package io.venue.appliance;

import io.venue.journal.queue.Journal;
import io.venue.testing.RecordFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A standby promoted and restarted before it journaled any command keeps the epoch of its promotion: the old primary,
 * restarted, must meet a higher epoch and be fenced, not a node of its own epoch. A standby that has not heard a
 * primary does not know the primary's epoch, so the operator's promotion of it is refused unless forced.
 */
class PromotedEpochTest
{
    @TempDir
    Path folder;

    private Appliance start() throws Exception
    {
        return Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0),
            new PrintStream(OutputStream.nullOutputStream()));
    }

    @Test
    void theEpochOfThePromotionsFileOutranksAnOlderJournal() throws Exception
    {
        Files.writeString(folder.resolve(PromotionWatch.DONE), "epoch 3 after sequence 0\n");
        start().close();
        try (Journal commands = Journal.openReadOnly(folder.resolve("journal").resolve("commands")))
        {
            assertEquals(3, commands.lastEpoch(), "the demo's set-up is journaled at the promotion's epoch");
        }
    }

    @Test
    void aPromotionsFileThatIsNotOneRefusesTheStart() throws Exception
    {
        Files.writeString(folder.resolve(PromotionWatch.DONE), "epoch three\n");
        final Exception refused = assertThrows(Exception.class, this::start);
        assertTrue(String.valueOf(refused.getMessage()).contains("should read 'epoch E after sequence S'"),
            refused.toString());
    }

    @Test
    void aStandbyThatHasNotHeardAPrimaryIsPromotedOnlyWhenForced() throws Exception
    {
        final Path keys = Files.createDirectories(folder.resolve("standby").resolve("keys"));
        KeyFiles.writePrivate(keys.resolve("credentials.key"), "0x" + "ab".repeat(32) + "\n");
        KeyFiles.writePrivate(keys.resolve("replication.key"), "0x" + "cd".repeat(32) + "\n");
        final Path config = Files.writeString(folder.resolve("standby.properties"),
            "role=standby\ndata.dir=standby\ndemo=true\n" +
            "replication.key.file=standby/keys/replication.key\n" +
            "http.port=0\nreplication.standby.endpoint=127.0.0.1:" + RecordFiles.freeUdpPort() +
            "\nreplication.primary.endpoint=127.0.0.1:" + RecordFiles.freeUdpPort() + "\n");
        final Path data = folder.resolve("standby");
        // the standby runs while the promote command talks to it through its data folder
        final Appliance standby = Appliance.start(ApplianceConfigFile.read(config),
            new PrintStream(OutputStream.nullOutputStream()));
        try (standby)
        {
            assertEquals(1, ApplianceMain.promote(new String[] {"promote", "--data", data.toString()}));
            assertTrue(Files.readString(data.resolve(PromotionWatch.REFUSED))
                .startsWith("this standby has not heard a primary"));
            assertFalse(Files.exists(data.resolve(PromotionWatch.DONE)), "not promoted");
            assertFalse(Files.exists(data.resolve(PromotionWatch.REQUEST)),
                "the request is answered, not left waiting");

            assertEquals(0, ApplianceMain.promote(new String[] {"promote", "--data", data.toString(), "--force"}));
            assertTrue(Files.readString(data.resolve(PromotionWatch.DONE)).startsWith("epoch 2 after sequence "));
            assertFalse(Files.exists(data.resolve(PromotionWatch.REFUSED)), "the last answer is the promotion");
        }
    }
}
