package io.venue.appliance;

import io.venue.engine.EngineConfig;
import io.venue.replication.ReplicationContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The configuration file: every key read, relative folders from the file's folder, and clear refusals. */
class ApplianceContextTest
{
    @TempDir
    Path folder;

    private ApplianceContext read(final String text) throws Exception
    {
        return ApplianceContext.fromFile(Files.writeString(folder.resolve("venue.properties"), text));
    }

    @Test
    void readsEveryKey() throws Exception
    {
        final ApplianceContext c = read(String.join("\n",
            "data.dir=node1", "http.host=127.0.0.2", "http.port=9090", "chain.id=1", "verifying.contract=0x" + "AB".repeat(20),
            "verifier.threads=2", "operators=0x" + "11".repeat(20) + ", 0x" + "22".repeat(20), "demo=true",
            "snapshot.every=500", "snapshot.keep=3", "answer.timeout.ms=2000", "role=standby", "replication.mode=async",
            "replication.standby.endpoint=127.0.0.1:20121", "replication.primary.endpoint=127.0.0.1:20122",
            "replication.primary.timeout.ms=700", "replication.auto.promote=true", "replication.report.ms=1000",
            "idle.strategy=busy-spin", "idle.max.park.us=50", "edge.ip.rate=5", "edge.ip.burst=7", "edge.ip.exempt=10.0.0.1, ::1",
            "threads=compact", "shard.busy.backlog=100", "core.engine=1", "core.front=0", "core.verifiers=0,1",
            "journal.pretouch=false", "core.pretouch=1", "engine.shards=3", "engine.group.commands=16", "core.shards=2,3",
            "mm.cross.shard.credit.enabled=true", "mm.cross.shard.credit.haircut.ppm=50000", "mm.cross.shard.credit.max.account.locked=7",
            "mm.cross.shard.credit.max.market.locked=9", "mm.cross.shard.credit.kill.switch=true",
            "limits.account.actions=100", "limits.account.window.ms=500", "limits.open.orders.account=20",
            "limits.open.orders.account.market=10",
            "limits.levels.per.side=50", "limits.markets=8", "limits.orders.per.book=1024", "limits.accounts=500",
            "limits.resting.orders=900",
            "mm.action.ts.skew.ms=20000", "http.max.body.bytes=300000", "mm.low.latency.max.actions=16", "mm.prebatched.max.batches=3"));
        assertEquals(folder.resolve("node1"), c.dataDir);
        assertEquals("127.0.0.2", c.httpHost);
        assertEquals(9090, c.httpPort);
        assertEquals(1, c.chainId);
        assertEquals("0x" + "ab".repeat(20), c.verifyingContract.toString());
        assertEquals(2, c.verifierThreads);
        assertEquals(2, c.operators.size());
        assertTrue(c.demo);
        assertEquals(500, c.snapshotEvery);
        assertEquals(3, c.snapshotsKept);
        assertEquals(2000, c.answerTimeoutMs);
        assertEquals(ApplianceContext.Role.STANDBY, c.role);
        assertEquals(ReplicationContext.Mode.ASYNC, c.replicationMode);
        assertTrue(c.replicated());
        assertEquals(700, c.primaryTimeoutMs);
        assertTrue(c.autoPromote);
        assertEquals(1000, c.replicationReportMs);
        assertEquals("busy-spin", c.idleWait);
        assertEquals(50, c.idleMaxParkUs);
        assertEquals(16, c.mmLowLatencyMaxActions);
        assertEquals(3, c.mmPrebatchedMaxBatches);
        assertEquals(5, c.edgeIpRate);
        assertEquals(7, c.edgeIpBurst);
        assertEquals(2, c.edgeIpExempt.size());
        assertTrue(c.compactThreads);
        assertEquals(100, c.shardBusyBacklog);
        assertEquals(1, c.coreEngine);
        assertEquals(0, c.coreFront);
        assertEquals(2, c.coreVerifiers.length);
        assertFalse(c.journalPretouch);
        assertEquals(1, c.corePretouch);
        final EngineConfig engine = c.engineConfig();
        assertEquals(100, engine.actionsPerWindow());
        assertEquals(500, engine.actionWindowMs());
        assertEquals(20, engine.maxOpenOrdersPerAccount());
        assertEquals(10, engine.maxOpenOrdersPerAccountAndMarket());
        assertEquals(50, engine.maxLevelsPerSide());
        assertEquals(8, engine.maxMarkets());
        assertEquals(1024, engine.orderCapacityPerBook());
        assertEquals(500, engine.stateLimits().accounts());
        assertEquals(900, engine.stateLimits().openOrders());
        assertEquals(2, engine.operators().size());
        assertEquals(3, engine.shards());
        assertEquals(16, engine.groupCommands());
        assertEquals(2, c.coreShards.length);
        assertTrue(engine.crossShardCreditEnabled());
        assertEquals(50_000, engine.crossShardHaircutPpm());
        assertEquals(7, engine.crossShardMaxAccountLocked());
        assertEquals(9, engine.crossShardMaxMarketLocked());
        assertTrue(engine.crossShardKillSwitch());
        assertEquals(20_000, c.mmActionTsSkewMs);
        assertEquals(300_000, c.httpMaxBodyBytes);
    }

    @Test
    void idleThreadsParkUntilRungAndLongerWhereEveryHandOffRings() throws Exception
    {
        final ApplianceContext single = new ApplianceContext();
        assertEquals("park", single.idleWait);
        assertEquals(1_000, single.idleMaxParkUs(), "a single node's hand-offs all ring");
        final ApplianceContext replicated = read("role=primary\nreplication.standby.endpoint=127.0.0.1:20121\n" +
            "replication.primary.endpoint=127.0.0.1:20122");
        assertEquals(1_000, replicated.idleMaxParkUs(), "the verifier and the engine are rung on every node");
        assertEquals(100, replicated.frontMaxParkUs(), "Aeron's records and acknowledgements ring no bell");
        assertEquals(1_000, single.frontMaxParkUs());
        assertEquals(100, read("idle.strategy=backoff").idleMaxParkUs(), "Agrona's backoff hears no bell");
        final ApplianceContext set = read("idle.max.park.us=250");
        assertEquals(250, set.idleMaxParkUs());
        assertEquals(250, set.frontMaxParkUs());
    }

    @Test
    void aFileTurnsTheDemoOffUnlessItSaysSo() throws Exception
    {
        assertTrue(new ApplianceContext().journalPretouch, "the journals are pretouched by default");
        assertFalse(read("operators=0x" + "11".repeat(20)).demo);
        assertTrue(new ApplianceContext().demo);
    }

    @Test
    void refusesWhatItCannotUse()
    {
        assertRefused("http.prot=80", "unknown key 'http.prot'");
        assertRefused("http.port=eighty", "bad value for http.port ('eighty')");
        assertRefused("role=standby", "role standby needs replication.standby.endpoint and replication.primary.endpoint");
        assertRefused("replication.standby.endpoint=nohost", "expected host:port");
        assertRefused("edge.ip.exempt=example.com", "is not an IP address");
        assertRefused("threads=many", "spread or compact");
        assertRefused("idle.strategy=sleep", "park, backoff or busy-spin");
        assertRefused("idle.max.park.us=0", "idle.max.park.us is 1 to 10000");
        assertRefused("idle.max.park.us=10001", "idle.max.park.us is 1 to 10000");
        assertRefused("journal.pretouch=yes", "true or false");
        assertRefused("engine.shards=0", "shards must be 1 to 64");
        assertRefused("engine.shards=65", "shards must be 1 to 64");
        assertRefused("engine.group.commands=0", "groupCommands must be positive");
        assertRefused("mm.cross.shard.credit.haircut.ppm=1000001", "the cross-shard haircut is 0 to 1,000,000 ppm");
        assertRefused("mm.cross.shard.credit.kill.switch=on", "true or false");
        assertRefused("http.port=70000", "http.port 0-65535");
        assertRefused("http.max.body.bytes=100000", "a compact request of 1,000 orders");
        assertRefused("http.max.body.bytes=600000", "the verifier pool's body limit");
        assertRefused("mm.action.ts.skew.ms=0", "every mm.* value must be positive");
        assertRefused("mm.prebatched.max.batches=0", "every mm.* value must be positive");
        assertRefused("mm.low.latency.max.actions=0", "mm.low.latency.max.actions must be from 1 to 1000, got 0");
        assertRefused("mm.low.latency.max.actions=1001", "mm.low.latency.max.actions must be from 1 to 1000, got 1001");
        assertRefused("limits.account.actions=0", "every limits.* value must be positive");
        assertRefused("limits.account.actions=4611686018427387904\nlimits.account.window.ms=4", "below 2^63");
        final String account = "0x" + "ab".repeat(20);
        assertRefused("mm.builder.basic=" + account + "\nmm.builder.pro=" + account.toUpperCase(Locale.ROOT).replace("0X", "0x"),
            "mm.builder.basic and mm.builder.pro: " + account + " is on both the basic and the pro builder plan");
    }

    /** The configuration text is refused with an IllegalArgumentException whose message says {@code expected}. */
    private void assertRefused(final String config, final String expected)
    {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> read(config)).getMessage().contains(expected));
    }

    @Test
    void commandLineArgumentsOverrideTheFile() throws Exception
    {
        final Path file = Files.writeString(folder.resolve("venue.properties"), "http.port=9090\noperators=0x" + "11".repeat(20) + "\n");
        final ApplianceContext c = ApplianceMain.parse(new String[] {"--config", file.toString(), "--port", "9191", "--data", "elsewhere"});
        assertEquals(9191, c.httpPort);
        assertEquals(Path.of("elsewhere").toAbsolutePath(), c.dataDir);
        assertThrows(IllegalArgumentException.class, () -> ApplianceMain.parse(new String[] {"--port"}));
    }
}
