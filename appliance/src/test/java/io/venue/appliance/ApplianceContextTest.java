package io.venue.appliance;

import io.venue.action.Address;
import io.venue.engine.EngineConfig;
import io.venue.replication.ReplicationContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The context: its defaults, what {@link ApplianceContext#conclude()} derives, and what it refuses together. */
class ApplianceContextTest
{
    @TempDir
    Path folder;

    private ApplianceContext read(final String text) throws Exception
    {
        // a production file names its deployment
        return ApplianceConfigFile.read(Files.writeString(folder.resolve("venue.properties"), text +
            "\nchain.id=42161\nverifying.contract=0x" + "c0".repeat(20)));
    }

    @Test
    void idleThreadsParkUntilRungAndLongerWhereEveryHandOffRings() throws Exception
    {
        final ApplianceContext single = new ApplianceContext().conclude();
        assertEquals("park", single.idleStrategy());
        assertEquals(1_000, single.idleMaxParkUs(), "a single node's hand-offs all ring");
        final ApplianceContext replicated = read("role=primary\nreplication.standby.endpoint=127.0.0.1:20121\n" +
            "replication.primary.endpoint=127.0.0.1:20122\nreplication.key.file=pair.key");
        assertEquals(1_000, replicated.idleMaxParkUs(), "the verifier and the engine are rung on every node");
        assertEquals(100, replicated.frontMaxParkUs(), "Aeron's records and acknowledgements ring no bell");
        assertEquals(1_000, single.frontMaxParkUs());
        assertEquals(100, read("idle.strategy=backoff").idleMaxParkUs(), "Agrona's backoff hears no bell");
        final ApplianceContext set = read("idle.max.park.us=250");
        assertEquals(250, set.idleMaxParkUs());
        assertEquals(250, set.frontMaxParkUs());
    }

    @Test
    void theDefaultsAreTheDocumentedOnes()
    {
        final ApplianceContext c = new ApplianceContext().conclude();
        assertEquals(Path.of("data"), c.dataDir());
        assertEquals("127.0.0.1", c.httpHost());
        assertEquals(8080, c.httpPort());
        assertEquals(8453, c.chainId());
        assertEquals(ApplianceContext.DEMO_CONTRACT, c.verifyingContract());
        assertTrue(c.operators().isEmpty());
        assertTrue(c.demo());
        assertEquals(1, c.verifierThreads());
        assertEquals(1_000_000, c.snapshotEvery());
        assertEquals(2, c.snapshotsKept());
        assertEquals(10_000, c.answerTimeoutMs());
        assertEquals(ApplianceContext.Role.PRIMARY, c.role());
        assertFalse(c.replicated());
        assertEquals(ReplicationContext.Mode.SYNC, c.replicationMode());
        assertEquals(1_000, c.primaryTimeoutMs());
        assertFalse(c.autoPromote());
        assertEquals(10_000, c.replicationReportMs());
        assertEquals(10, c.edgeIpRate());
        assertEquals(20, c.edgeIpBurst());
        assertTrue(c.edgeIpExempt().isEmpty());
        assertEquals(1, c.engineShards());
        assertEquals(64, c.groupCommands());
        assertEquals(0, c.coreShards().length);
        assertFalse(c.crossShardCredit());
        assertEquals(20_000, c.shardBusyBacklog());
        assertEquals(-1, c.coreEngine());
        assertEquals(-1, c.coreFront());
        assertEquals(0, c.coreVerifiers().length);
        assertTrue(c.journalPretouch());
        assertEquals(-1, c.corePretouch());
        assertEquals(ThreadLayout.AUTO, c.threadLayout());
        assertEquals(Path.of("data", "keys", "credentials.key"), c.credentialKeyFile());
        assertEquals(null, c.listingFile());
        assertEquals(List.of(1_000L, 4_000L, 64_000L, 16_000L, 16_000L, 64_000L, 128_000L), List.of(c.mmWindowMs(),
            c.mmAccountActions(), c.mmAccountCancels(), c.mmKeyActions(), c.mmIpActions(), c.mmMarketActions(),
            c.mmShardActions()));
        assertEquals(32, c.mmLowLatencyMaxActions());
        assertEquals(8, c.mmPrebatchedMaxBatches());
        assertEquals(15_000, c.mmActionTsSkewMs());
        assertEquals(524_288, c.httpMaxBodyBytes());
        assertEquals(600, c.builderPlans().basicPerMinute());
        assertEquals(3_000, c.builderPlans().proPerMinute());
        assertTrue(c.builderPlans().basic().isEmpty() && c.builderPlans().pro().isEmpty());
        assertEquals(Set.of("127.0.0.1", "0:0:0:0:0:0:0:1"),
            c.metricsAllowed().stream().map(InetAddress::getHostAddress).collect(Collectors.toSet()));
        assertEquals(180_000, c.wsTokenTtlMs());
        final EngineConfig engine = c.engineConfig();
        assertEquals(50, engine.actionsPerWindow());
        assertEquals(1_000, engine.actionWindowMs());
        assertEquals(50_000, engine.maxOpenOrdersPerAccount());
        assertEquals(10_000, engine.maxOpenOrdersPerAccountAndMarket());
        assertEquals(1_000, engine.maxLevelsPerSide());
        assertEquals(64, engine.maxMarkets());
        assertEquals(16_384, engine.orderCapacityPerBook());
        assertEquals(10_000, engine.stateLimits().accounts());
        assertEquals(100_000, engine.stateLimits().openOrders());
    }

    @Test
    void theCredentialKeyIsInTheDataFolderUnlessSetAndFollowsTheFolder()
    {
        final ApplianceContext c = new ApplianceContext().dataDir(folder).conclude();
        assertEquals(folder.resolve("keys").resolve("credentials.key"), c.credentialKeyFile());
        assertEquals(folder.resolve("b/keys/credentials.key"),
            c.dataDir(folder.resolve("b")).conclude().credentialKeyFile(),
            "derived again by the next conclude");
        assertEquals(Path.of("/secrets/node.key"),
            c.credentialKeyFile(Path.of("/secrets/node.key")).conclude().credentialKeyFile());
    }

    @Test
    void autoSharesOneThreadUnlessEveryBusyThreadOfTheSpreadLayoutHasACore()
    {
        // spread keeps the HTTP I/O thread, the front thread, the engine and each verifier busy at once
        final ApplianceContext c = new ApplianceContext();
        assertTrue(c.processors(2).conclude().compactThreads(), "2 cores, 1 verifier");
        assertTrue(c.processors(3).conclude().compactThreads(), "3 cores, 1 verifier");
        assertFalse(c.processors(4).conclude().compactThreads(), "4 cores, 1 verifier");
        assertTrue(c.verifierThreads(2).conclude().compactThreads(), "4 cores, 2 verifiers");
        assertFalse(c.processors(5).conclude().compactThreads(), "5 cores, 2 verifiers");
        assertFalse(c.processors(2).threadLayout(ThreadLayout.SPREAD).conclude().compactThreads(), "spread, as set");
        assertTrue(c.processors(64).threadLayout(ThreadLayout.COMPACT).conclude().compactThreads(), "compact, as set");
    }

    @Test
    void autoPutsTheOneVerifierOnTheFrontThreadWhenEvenTheCompactLayoutHasABusyThreadWithoutACore()
    {
        // compact keeps the HTTP I/O thread, the front thread and each verifier busy at once
        final ApplianceContext c = new ApplianceContext();
        assertTrue(c.processors(2).conclude().verifierOnFront(), "2 cores, 1 verifier");
        assertTrue(c.compactThreads(), "single is compact too");
        assertFalse(c.processors(3).conclude().verifierOnFront(), "3 cores, 1 verifier");
        assertFalse(c.processors(2).verifierThreads(2).conclude().verifierOnFront(), "2 cores, 2 verifiers");
        assertFalse(c.verifierThreads(1).threadLayout(ThreadLayout.COMPACT).conclude().verifierOnFront(),
            "compact, as set");
        assertTrue(c.processors(64).threadLayout(ThreadLayout.SINGLE).conclude().verifierOnFront(), "single, as set");
        assertTrue(c.compactThreads(), "single, as set, is compact");
        final IllegalArgumentException refused =
            assertThrows(IllegalArgumentException.class, () -> c.verifierThreads(2).conclude());
        assertEquals("threads=single runs one verifier: verifier.threads=2", refused.getMessage());
    }

    @Test
    void whatItDerivesIsReadOnlyOnceConcluded()
    {
        final ApplianceContext c = new ApplianceContext();
        assertThrows(IllegalStateException.class, c::idleMaxParkUs);
        assertThrows(IllegalStateException.class, c::credentialKeyFile);
        assertThrows(IllegalStateException.class, c::compactThreads);
        assertThrows(IllegalStateException.class, c::verifierOnFront);
        c.conclude();
        assertEquals(1_000, c.idleMaxParkUs());
        c.idleStrategy("backoff");
        final IllegalStateException stale = assertThrows(IllegalStateException.class, c::idleMaxParkUs,
            "a setter undoes the conclusion");
        assertTrue(stale.getMessage().contains("conclude()"), stale.getMessage());
        assertEquals(100, c.conclude().idleMaxParkUs());
    }

    @Test
    void refusesSettingsThatDoNotGoTogetherNamingTheKeys()
    {
        assertRefused(new ApplianceContext().role(ApplianceContext.Role.STANDBY),
            "role standby needs replication.standby.endpoint and replication.primary.endpoint");
        assertRefused(new ApplianceContext().role(ApplianceContext.Role.STANDBY).standbyEndpoint("127.0.0.1:20121"),
            "role standby needs replication.standby.endpoint and replication.primary.endpoint");
        assertRefused(new ApplianceContext().listingFile(folder.resolve("listing.json")),
            "listing.file and listing.operator.key.file go together");
        assertRefused(new ApplianceContext().listingOperatorKeyFile(folder.resolve("operator.key")),
            "listing.file and listing.operator.key.file go together");
        final String account = "0x" + "ab".repeat(20);
        assertRefused(new ApplianceContext().builderBasic(Set.of(account)).builderPro(Set.of(account)),
            "mm.builder.basic and mm.builder.pro: " + account + " is on both the basic and the pro builder plan");
        assertRefused(new ApplianceContext().engineShards(0), "engine.shards: shards must be 1 to 64, got 0");
        assertRefused(new ApplianceContext().groupCommands(0),
            "engine.group.commands: groupCommands must be positive, got 0");
        assertRefused(new ApplianceContext().crossShardHaircutPpm(-1),
            "mm.cross.shard.credit.*: the cross-shard haircut is 0 to 1,000,000 ppm");
        assertRefused(new ApplianceContext().accountActions(Long.MAX_VALUE / 2).accountWindowMs(4),
            "limits.account.actions and limits.account.window.ms: ");
        assertRefused(new ApplianceContext().stateRestingOrders(0), "every limits.* value must be positive");
        assertRefused(new ApplianceContext().shardBusyBacklog(-1), "shard.busy.backlog must not be negative");
        assertRefused(new ApplianceContext().replicationReportMs(0), "replication.report.ms must be positive");
        assertRefused(new ApplianceContext().edgeIpBurst(0), "edge.ip.rate and edge.ip.burst must be positive");
        assertRefused(new ApplianceContext().mmShardActions(0), "every mm.* value must be positive");
        assertRefused(new ApplianceContext().builderProPerMinute(0), "every mm.* value must be positive");
        assertRefused(new ApplianceContext().wsTokenTtlMs(59_999), "ws.token.ttl.ms is 60000 to 300000");
        assertRefused(new ApplianceContext().wsTokenTtlMs(300_001), "ws.token.ttl.ms is 60000 to 300000");
        assertRefused(new ApplianceContext().idleMaxParkUs(10_001), "idle.max.park.us is 1 to 10000");
        assertRefused(new ApplianceContext().idleMaxParkUs(-1), "idle.max.park.us is 1 to 10000");
        assertRefused(new ApplianceContext().httpPort(-1), "http.port 0-65535");
        assertRefused(new ApplianceContext().verifierThreads(0),
            "verifier.threads, snapshot.every, snapshot.keep and answer.timeout.ms positive");
        assertRefused(new ApplianceContext().answerTimeoutMs(0),
            "verifier.threads, snapshot.every, snapshot.keep and answer.timeout.ms positive");
        assertRefused(new ApplianceContext().mmLowLatencyMaxActions(1_001),
            "mm.low.latency.max.actions must be from 1 to 1000, got 1001");
        assertRefused(new ApplianceContext().httpMaxBodyBytes(1_000), "http.max.body.bytes must be from 197016");
        // what only code can set wrong: the file's parser refuses these first
        assertRefused(new ApplianceContext().idleStrategy("sleep"),
            "idle.strategy is park, backoff or busy-spin, got 'sleep'");
        assertRefused(new ApplianceContext().primaryEndpoint("nohost"),
            "replication.primary.endpoint: expected host:port, got 'nohost'");
        assertRefused(new ApplianceContext().standbyEndpoint("host:x"),
            "replication.standby.endpoint: expected host:port, got 'host:x'");
        assertRefused(new ApplianceContext().dataDir(null),
            "data.dir, http.host, verifying.contract, role and replication.mode must be set");
    }

    @Test
    void theEngineConfigurationIsANewOneEachTime()
    {
        final ApplianceContext c = new ApplianceContext().operator(Address.of("0x" + "11".repeat(20))).conclude();
        final EngineConfig first = c.engineConfig();
        first.operator(Address.of("0x" + "22".repeat(20)));
        assertEquals(1, c.engineConfig().operators().size(), "what a caller adds stays its own");
        assertTrue(new ApplianceContext().engineShards(3).crossShardCredit(true).conclude().engineConfig()
            .crossShardCreditActive());
        assertFalse(new ApplianceContext().crossShardCredit(true).conclude().engineConfig().crossShardCreditActive(),
            "active only with several shards");
    }

    private static void assertRefused(final ApplianceContext context, final String expected)
    {
        final String message = assertThrows(IllegalArgumentException.class, context::conclude).getMessage();
        assertTrue(message.contains(expected), message);
    }
}
