package io.venue.appliance;

import io.venue.journal.queue.Journal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A standby promoted and restarted before it journaled any command keeps the epoch of its promotion: the old primary,
 * restarted, must meet a higher epoch and be fenced, not a node of its own epoch.
 */
class PromotedEpochTest
{
    @TempDir
    Path folder;

    private Appliance start() throws Exception
    {
        return Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0), new PrintStream(OutputStream.nullOutputStream()));
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
        assertTrue(String.valueOf(refused.getMessage()).contains("should read 'epoch E after sequence S'"), refused.toString());
    }
}
