package io.venue.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

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

    @Test
    void theOrderEntryCoreIsLaneNeutral()
    {
        final ArchRule rule = noClasses().that().resideInAPackage("io.venue.entry..")
            .should().dependOnClassesThat().resideInAnyPackage("io.venue.transport..", "io.netty..", "io.venue.appliance..")
            .because("every lane plugs into the order-entry core; it knows no transport");
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
