package io.venue.engine.state;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.venue.engine.state.TestBytes.address;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every way a state folder can be unfit is reported by check and refused by open, never silently used. */
class RecoveryTest
{
    private static final long APPLIED = 7;

    @TempDir
    Path folder;

    private EngineState.Context context()
    {
        return new EngineState.Context().directory(folder).sizeFor(1_000, 1_000);
    }

    @BeforeEach
    void writeAState() throws Exception
    {
        try (EngineState state = EngineState.open(context()))
        {
            for (long sequence = 0; sequence <= APPLIED; sequence++)
            {
                state.meta().beginApply(sequence);
                state.balances().acquire(address((int)sequence), 1, new Balance()).available(sequence);
                state.meta().commitApplied(sequence);
            }
        }
        assertEquals(StateStatus.CONSISTENT, EngineState.check(context()).status());
    }

    private void assertRefused(final StateStatus expected) throws Exception
    {
        final StateCheck check = EngineState.check(context());
        assertEquals(expected, check.status(), check.toString());
        assertEquals(StateMeta.NO_SEQUENCE, check.appliedSequence());
        final StateUnusableException ex = assertThrows(StateUnusableException.class, () -> EngineState.open(context()));
        assertEquals(expected, ex.status(), ex.getMessage());
        // still refused: open left the damage for the operator to see
        assertEquals(expected, EngineState.check(context()).status());
    }

    private Path file(final StoreFile store)
    {
        return folder.resolve(store.fileName());
    }

    @Test
    void missingMapFile() throws Exception
    {
        Files.delete(file(StoreFile.BALANCES));
        assertRefused(StateStatus.MAP_FILE_MISSING);
        assertTrue(Files.notExists(file(StoreFile.BALANCES)), "open must not make a new empty map in its place");
    }

    @Test
    void emptyMapFile() throws Exception
    {
        truncate(file(StoreFile.AGENTS), 0);
        assertRefused(StateStatus.MAP_FILE_MISSING);
    }

    @Test
    void truncatedMapFileAfterCleanClose() throws Exception
    {
        truncate(file(StoreFile.OPEN_ORDERS), Files.size(file(StoreFile.OPEN_ORDERS)) / 2);
        assertRefused(StateStatus.MAP_FILE_CORRUPT);
    }

    @Test
    void truncatedMapFileAfterProcessDied() throws Exception
    {
        MetaPoke.putInt(folder, MetaPoke.CLOSE_STATE, StateMeta.OPEN);
        assertEquals(StateStatus.CONSISTENT, EngineState.check(context()).status());
        truncate(file(StoreFile.NONCE_WINDOWS), Files.size(file(StoreFile.NONCE_WINDOWS)) - 4096);
        assertRefused(StateStatus.MAP_FILE_CORRUPT);
    }

    @Test
    void truncatedMapFileThatTheMetaAgreesWithIsRefusedByChronicle() throws Exception
    {
        final long half = Files.size(file(StoreFile.BALANCES)) / 2;
        truncate(file(StoreFile.BALANCES), half);
        MetaPoke.putLong(folder, MetaPoke.storeField(StoreFile.BALANCES, MetaPoke.FILE_LENGTH), half);
        assertEquals(StateStatus.CONSISTENT, EngineState.check(context()).status(), "the meta alone cannot tell");
        final StateUnusableException ex = assertThrows(StateUnusableException.class, () -> EngineState.open(context()));
        assertEquals(StateStatus.MAP_FILE_CORRUPT, ex.status());
        assertTrue(ex.getMessage().contains("unexpected length"), ex.getMessage());
        // the failed open released everything: a fresh start in the same folder works
        try (EngineState state = EngineState.openEmpty(context()))
        {
            assertEquals(0, state.balances().size());
        }
    }

    @Test
    void missingMeta() throws Exception
    {
        Files.delete(folder.resolve(StateMeta.FILE_NAME));
        assertRefused(StateStatus.META_MISSING);
    }

    @Test
    void metaOfTheWrongLength() throws Exception
    {
        truncate(folder.resolve(StateMeta.FILE_NAME), 100);
        assertRefused(StateStatus.META_CORRUPT);
    }

    @Test
    void metaWithAWrongMagic() throws Exception
    {
        MetaPoke.putLong(folder, MetaPoke.MAGIC, 0x1234);
        assertRefused(StateStatus.META_CORRUPT);
    }

    @Test
    void otherFormatVersion() throws Exception
    {
        MetaPoke.putInt(folder, MetaPoke.FORMAT_VERSION, StateMeta.FORMAT_VERSION + 1);
        assertRefused(StateStatus.FORMAT_MISMATCH);
    }

    @Test
    void otherRecordSize() throws Exception
    {
        MetaPoke.putInt(folder, MetaPoke.storeField(StoreFile.OPEN_ORDERS, MetaPoke.VALUE_SIZE), OpenOrder.SIZE - 8);
        assertRefused(StateStatus.FORMAT_MISMATCH);
    }

    @Test
    void otherCapacity() throws Exception
    {
        final StateCheck check = EngineState.check(context().entries(StoreFile.BALANCES, 5_000));
        assertEquals(StateStatus.CAPACITY_CHANGED, check.status(), check.toString());
        assertThrows(StateUnusableException.class,
            () -> EngineState.open(context().entries(StoreFile.BALANCES, 5_000)));
    }

    @Test
    void stoppedWhileApplyingACommand() throws Exception
    {
        try (EngineState state = EngineState.open(context()))
        {
            state.meta().beginApply(APPLIED + 1);
            state.balances().acquire(address(1), 1, new Balance()).available(-99);
            // closed (or killed) before commitApplied: the maps hold part of command 8
        }
        assertRefused(StateStatus.APPLY_INCOMPLETE);
    }

    @Test
    void notClosedAndTheHostRestarted() throws Exception
    {
        MetaPoke.putInt(folder, MetaPoke.CLOSE_STATE, StateMeta.OPEN);
        MetaPoke.putLong(folder, MetaPoke.BOOT_ID, HostBoot.high() + 1);
        assertRefused(StateStatus.UNCLEAN_AFTER_RESTART);
    }

    @Test
    void notClosedButSameBootAndBetweenCommandsIsUsable() throws Exception
    {
        MetaPoke.putInt(folder, MetaPoke.CLOSE_STATE, StateMeta.OPEN);
        final StateCheck check = EngineState.check(context());
        assertEquals(StateStatus.CONSISTENT, check.status(), check.toString());
        assertEquals(APPLIED, check.appliedSequence());
    }

    @Test
    void aSecondOpenWhileInUseIsRefused() throws Exception
    {
        try (EngineState state = EngineState.open(context()))
        {
            assertEquals(StateStatus.IN_USE, EngineState.check(context()).status());
            assertEquals(StateStatus.IN_USE,
                assertThrows(StateUnusableException.class, () -> EngineState.open(context())).status());
            assertEquals(StateStatus.IN_USE,
                assertThrows(StateUnusableException.class, () -> EngineState.openEmpty(context())).status());
            assertEquals(APPLIED, state.meta().appliedSequence());
        }
        assertEquals(StateStatus.CONSISTENT, EngineState.check(context()).status());
    }

    @Test
    void openEmptyStartsOverAndLeavesOtherFilesAlone() throws Exception
    {
        Files.delete(file(StoreFile.POSITIONS));
        final Path unrelated = Files.writeString(folder.resolve("operator-notes.txt"), "keep me");
        assertRefused(StateStatus.MAP_FILE_MISSING);

        try (EngineState state = EngineState.openEmpty(context()))
        {
            assertEquals(StateStatus.EMPTY, state.openedAs().status());
            assertEquals(StateMeta.NO_SEQUENCE, state.meta().appliedSequence());
            assertEquals(0, state.balances().size());
            assertNull(state.balances().find(address(1), 1, new Balance()));
        }
        assertEquals("keep me", Files.readString(unrelated));
        assertEquals(StateStatus.CONSISTENT, EngineState.check(context()).status());
    }

    @Test
    void sequencesMustMoveForwardAndCommitWhatBegan() throws Exception
    {
        try (EngineState state = EngineState.open(context()))
        {
            final StateMeta meta = state.meta();
            assertThrows(IllegalArgumentException.class, () -> meta.beginApply(APPLIED));
            meta.beginApply(APPLIED + 5);
            assertThrows(IllegalStateException.class, () -> meta.commitApplied(APPLIED + 4));
            meta.commitApplied(APPLIED + 5);
            assertEquals(APPLIED + 5, meta.appliedSequence());
            assertEquals(StateMeta.NO_SEQUENCE, meta.pendingSequence());
        }
    }

    private static void truncate(final Path file, final long length) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.setLength(length);
        }
    }
}
