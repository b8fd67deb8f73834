package io.venue.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which packages may use which (ARCHITECTURE.md): dependencies point one way, from the lanes to the order-entry core
 * and the engine, never back; the engine decides from its commands alone. A rule broken fails the build with the
 * offending classes and lines.
 */
class ArchitectureTest
{
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses()
    {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.venue");
    }

    @Test
    void theCoreImportsNoLane()
    {
        final ArchRule rule = noClasses().that().resideInAnyPackage("io.venue.engine..", "io.venue.sequencer..",
            "io.venue.responder..", "io.venue.journal..", "io.venue.replication..", "io.venue.snapshot..",
            "io.venue.verifier..", "io.venue.action..", "io.venue.crypto..", "io.venue.svc..", "io.venue.auth..",
            "io.venue.codec..")
            .should().dependOnClassesThat().resideInAnyPackage("io.venue.transport..", "io.netty..")
            .because("the lanes depend on the core, never the reverse");
        rule.check(classes);
    }

    /**
     * The rules above read bytecode, where a constant of another class is copied in and leaves no reference: an import
     * used only for a constant passes them. The core's sources are read as text for the same rule.
     */
    @Test
    void noSourceOfTheCoreImportsALane() throws IOException
    {
        final Path root = Path.of("").toAbsolutePath().getParent();
        final List<Path> core = List.of(
            root.resolve("appliance/src/main/java/io/venue/engine"),
            root.resolve("appliance/src/main/java/io/venue/sequencer"),
            root.resolve("appliance/src/main/java/io/venue/responder"),
            root.resolve("appliance/src/main/java/io/venue/replication"),
            root.resolve("appliance/src/main/java/io/venue/snapshot"), root.resolve("journal/src/main/java"),
            root.resolve("verifier-pool/src/main/java"), root.resolve("transports/src/main/java/io/venue/entry"),
            root.resolve("transports/src/main/java/io/venue/feed"));
        final Pattern laneImport = Pattern.compile(
            "^import (static )?(io\\.venue\\.transport|io\\.netty|io\\.venue\\.appliance)\\.",
            Pattern.MULTILINE);
        final List<String> found = new ArrayList<>();
        int read = 0;
        for (final Path folder : core)
        {
            assertTrue(Files.isDirectory(folder), "no folder " + folder);
            try (Stream<Path> files = Files.walk(folder))
            {
                for (final Path file : files.filter(p -> p.toString().endsWith(".java")).toList())
                {
                    read++;
                    final Matcher matcher = laneImport.matcher(Files.readString(file));
                    while (matcher.find())
                    {
                        found.add(root.relativize(file) + ": " + matcher.group());
                    }
                }
            }
        }
        assertTrue(read > 100, "read only " + read + " sources");
        assertEquals(List.of(), found, "the core imports a lane");
    }

    @Test
    void theOrderEntryCoreIsLaneNeutral()
    {
        final ArchRule rule = noClasses().that().resideInAPackage("io.venue.entry..")
            .should().dependOnClassesThat()
            .resideInAnyPackage("io.venue.transport..", "io.netty..", "io.venue.appliance..")
            .because("every lane plugs into the order-entry core; it knows no transport");
        rule.check(classes);
    }

    @Test
    void theFeedIsLaneNeutralAndReadsNoClock()
    {
        final ArchRule rule = noClasses().that().resideInAPackage("io.venue.feed..")
            .should().dependOnClassesThat()
            .resideInAnyPackage("io.venue.transport..", "io.netty..", "io.venue.appliance..", "io.venue.engine..")
            .orShould().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(System.class, "nanoTime")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.util.Random")
            .because("frames are a function of the journals alone, and every lane serves the same feed");
        rule.check(classes);
    }

    @Test
    void noLaneReachesIntoTheEngine()
    {
        final ArchRule rule = noClasses().that().resideInAnyPackage("io.venue.transport..", "io.venue.entry..")
            .should().dependOnClassesThat().resideInAnyPackage("io.venue.engine..", "io.venue.sequencer..",
                "io.venue.responder..", "io.venue.replication..", "io.venue.appliance..")
            .because("a lane sees answers and read models through the order-entry core, not the engine's state");
        rule.check(classes);
    }

    @Test
    void theEngineReadsNoClockAndNoRandom()
    {
        final ArchRule rule = noClasses().that().resideInAPackage("io.venue.engine..")
            .should().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(System.class, "nanoTime")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.util.Random")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.util.concurrent.ThreadLocalRandom")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.security.SecureRandom")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.time.Clock")
            .because("events = f(commands): time and chance enter only as journaled commands");
        rule.check(classes);
    }
}
