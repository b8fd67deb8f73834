package io.venue.appliance;

import io.venue.codec.MetricsText;
import io.venue.entry.lane.ConnectivityEntry;
import io.venue.entry.lane.Lane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Lane selection by the {@code lanes} setting, and the node's lanes driven together through {@link Lane} only. */
class LanesTest
{
    @TempDir
    Path folder;

    @Test
    void anUnknownLaneIsRefusedNamingTheKeyAndTheLanesBuilt() throws Exception
    {
        assertEquals("lanes: unknown lane 'fixp' (this build has http, bsl-tcp, fix)",
            assertThrows(IllegalArgumentException.class, () -> new ApplianceContext().lanes(List.of("http",
                "fixp")).conclude()).getMessage());
        assertEquals("lanes names no lane (this build has http, bsl-tcp, fix)",
            assertThrows(IllegalArgumentException.class, () -> new ApplianceContext().lanes(List.of()).conclude())
            .getMessage());
        assertEquals("lanes names 'http' twice",
            assertThrows(IllegalArgumentException.class, () -> new ApplianceContext().lanes(List.of("http",
                "http")).conclude()).getMessage());
        final Path file = Files.writeString(folder.resolve("venue.properties"), "lanes=http, FIXP\n");
        assertEquals("lanes: unknown lane 'FIXP' (this build has http, bsl-tcp, fix)",
            assertThrows(IllegalArgumentException.class, () -> ApplianceConfigFile.read(file)).getMessage());
        assertEquals("lanes names no lane (this build has http, bsl-tcp, fix)",
            assertThrows(IllegalArgumentException.class, () -> ApplianceConfigFile.read(
                Files.writeString(folder.resolve("venue.properties"), "lanes= , \n"))).getMessage());
        assertEquals(List.of("http"), new ApplianceContext().lanes(), "http by default");
        // a production file names its deployment
        final Path named = Files.writeString(folder.resolve("venue.properties"), "lanes= http ,\nchain.id=42161\n" +
            "verifying.contract=0x" + "c0".repeat(20));
        assertEquals(List.of("http"), ApplianceConfigFile.read(named).lanes());
        assertThrows(IllegalArgumentException.class, () -> LaneCatalog.make("fixp", null));
    }

    @Test
    void aNodeWithAnUnknownLaneDoesNotStartAndTouchesNothing()
    {
        final Path data = folder.resolve("node");
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Appliance.start(
            new ApplianceContext().dataDir(data).httpPort(0).lanes(List.of("ws")),
            new PrintStream(OutputStream.nullOutputStream())));
        assertEquals("lanes: unknown lane 'ws' (this build has http, bsl-tcp, fix)", refused.getMessage());
        assertTrue(Files.notExists(data), "refused before the data folder is made");
    }

    @Test
    void theLanesStartDrainAndCloseTogetherInTheirOrder()
    {
        final List<String> calls = new ArrayList<>();
        final Lanes lanes = Lanes.of(List.of(new Recording("a", calls, true), new Recording("b", calls, false)));
        lanes.start();
        lanes.drain();
        lanes.close();
        assertEquals(List.of("a start", "b start", "a drain", "b drain", "a close", "b close"), calls,
            "a lane that fails to close does not keep the next from closing");
        assertEquals(List.of("a", "a2", "b", "b2"), lanes.connectivity().stream().map(ConnectivityEntry::name).toList(),
            "each lane's sections, lane by lane");
        final MetricsText text = new MetricsText();
        lanes.appendMetrics(text);
        assertEquals(List.of("venue_a_calls_total 3", "venue_b_calls_total 3"),
            text.toString().lines().filter(line -> !line.startsWith("#")).toList(),
            "each lane's counters, lane by lane");
        assertSame(lanes.all().get(0), lanes.find(Recording.class), "the first of its class");
        assertNull(Lanes.NONE.find(Recording.class));
        assertTrue(Lanes.NONE.connectivity().isEmpty());
    }

    /** A lane that says what was done to it. */
    private record Recording(String name, List<String> calls, boolean failsToClose) implements Lane
    {
        @Override
        public void start()
        {
            calls.add(name + " start");
        }

        @Override
        public void drain()
        {
            calls.add(name + " drain");
        }

        @Override
        public void close()
        {
            calls.add(name + " close");
            if (failsToClose)
            {
                throw new IllegalStateException("socket already gone");
            }
        }

        @Override
        public void appendMetrics(final MetricsText text)
        {
            text.family("venue_" + name + "_calls_total", "counter", "calls made to the lane")
                .sample("venue_" + name + "_calls_total",
                    calls.stream().filter(call -> call.startsWith(name + " ")).count());
        }

        @Override
        public List<ConnectivityEntry> connectivity()
        {
            return List.of(ConnectivityEntry.of(name).field("port", 1).build(),
                ConnectivityEntry.of(name + "2").build());
        }
    }
}
