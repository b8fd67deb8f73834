package io.venue.appliance;

import io.venue.action.Address;
import io.venue.engine.EngineConfig;
import io.venue.replication.ReplicationContext;
import io.venue.transport.ws.WsGateway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The configuration file: every key read, relative folders from the file's folder, and clear refusals naming the key.
 */
class ApplianceConfigFileTest
{
    @TempDir
    Path folder;

    /** The deployment binding a production file (demo=false) must name. */
    private static final String BINDING = "chain.id=42161\nverifying.contract=0x" + "c0".repeat(20) + "\n";

    private ApplianceContext read(final String text) throws Exception
    {
        return ApplianceConfigFile.read(Files.writeString(folder.resolve("venue.properties"), text));
    }

    @Test
    void readsEveryKey() throws Exception
    {
        final ApplianceContext c = read(String.join("\n",
            "data.dir=node1", "http.host=127.0.0.2", "http.port=9090", "chain.id=1",
            "verifying.contract=0x" + "AB".repeat(20),
            "verifier.threads=2", "operators=0x" + "11".repeat(20) + ", 0x" + "22".repeat(20), "demo=true",
            "snapshot.every=500", "snapshot.keep=3", "answer.timeout.ms=2000", "role=standby", "replication.mode=async",
            "replication.standby.endpoint=127.0.0.1:20121", "replication.primary.endpoint=127.0.0.1:20122",
            "replication.primary.timeout.ms=700", "replication.auto.promote=true", "replication.report.ms=1000",
            "replication.key.file=keys/pair.key",
            "idle.strategy=busy-spin", "idle.max.park.us=50", "edge.ip.rate=5", "edge.ip.burst=7",
            "edge.ip.exempt=10.0.0.1, ::1",
            "threads=compact", "shard.busy.backlog=100", "core.engine=1", "core.front=0", "core.verifiers=0,1",
            "journal.pretouch=false", "core.pretouch=1", "engine.shards=3", "engine.group.commands=16",
            "core.shards=2,3", "mm.cross.shard.credit.enabled=true", "mm.cross.shard.credit.haircut.ppm=50000",
            "mm.cross.shard.credit.max.account.locked=7",
            "mm.cross.shard.credit.max.market.locked=9", "mm.cross.shard.credit.kill.switch=true",
            "limits.account.actions=100", "limits.account.window.ms=500", "limits.open.orders.account=20",
                "limits.open.orders.account.market=10",
            "limits.levels.per.side=50", "limits.markets=8", "limits.orders.per.book=1024", "limits.accounts=500",
                "limits.resting.orders=900",
            "mm.action.ts.skew.ms=20000", "http.max.body.bytes=300000", "mm.low.latency.max.actions=16",
                "mm.prebatched.max.batches=3"));
        assertEquals(folder.resolve("node1"), c.dataDir());
        assertEquals("127.0.0.2", c.httpHost());
        assertEquals(9090, c.httpPort());
        assertEquals(1, c.chainId());
        assertEquals("0x" + "ab".repeat(20), c.verifyingContract().toString());
        assertEquals(2, c.verifierThreads());
        assertEquals(2, c.operators().size());
        assertTrue(c.demo());
        assertEquals(500, c.snapshotEvery());
        assertEquals(3, c.snapshotsKept());
        assertEquals(2000, c.answerTimeoutMs());
        assertEquals(ApplianceContext.Role.STANDBY, c.role());
        assertEquals(ReplicationContext.Mode.ASYNC, c.replicationMode());
        assertTrue(c.replicated());
        assertEquals(700, c.primaryTimeoutMs());
        assertTrue(c.autoPromote());
        assertEquals(1000, c.replicationReportMs());
        assertEquals(folder.resolve("keys/pair.key"), c.replicationKeyFile());
        assertEquals("busy-spin", c.idleStrategy());
        assertEquals(50, c.idleMaxParkUs());
        assertEquals(16, c.mmLowLatencyMaxActions());
        assertEquals(3, c.mmPrebatchedMaxBatches());
        assertEquals(5, c.edgeIpRate());
        assertEquals(7, c.edgeIpBurst());
        assertEquals(2, c.edgeIpExempt().size());
        assertEquals(ThreadLayout.COMPACT, c.threadLayout());
        assertEquals(100, c.shardBusyBacklog());
        assertEquals(1, c.coreEngine());
        assertEquals(0, c.coreFront());
        assertEquals(2, c.coreVerifiers().length);
        assertFalse(c.journalPretouch());
        assertEquals(1, c.corePretouch());
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
        assertEquals(2, c.coreShards().length);
        assertTrue(engine.crossShardCreditEnabled());
        assertEquals(50_000, engine.crossShardHaircutPpm());
        assertEquals(7, engine.crossShardMaxAccountLocked());
        assertEquals(9, engine.crossShardMaxMarketLocked());
        assertTrue(engine.crossShardKillSwitch());
        assertEquals(20_000, c.mmActionTsSkewMs());
        assertEquals(300_000, c.httpMaxBodyBytes());
    }

    @Test
    void readsTheKeysOfFilesListingAndMmLanes() throws Exception
    {
        final String basic = "0x" + "aa".repeat(20);
        final String pro = "0x" + "bb".repeat(20);
        final ApplianceContext c = read(
            String.join("\n", "credentials.key.file=keys/cred.key", "listing.file=listing.json",
            "listing.operator.key.file=/abs/operator.key", "ws.token.ttl.ms=60000", "mm.window.ms=500",
            "mm.account.actions=1",
            "mm.account.cancels=2", "mm.key.actions=3", "mm.ip.actions=4", "mm.market.actions=5", "mm.shard.actions=6",
            "mm.builder.basic=" + basic.toUpperCase(Locale.ROOT).replace("0X", "0x"), "mm.builder.pro=" + pro + ",,",
            "mm.builder.basic.per.minute=10", "mm.builder.pro.per.minute=20", "metrics.allow=10.1.2.3",
            "replication.auto.promote=yes", BINDING));
        assertEquals(folder.resolve("keys/cred.key"), c.credentialKeyFile(), "relative to the file's folder");
        assertEquals(folder.resolve("listing.json"), c.listingFile());
        assertEquals(Path.of("/abs/operator.key"), c.listingOperatorKeyFile(), "an absolute path stays");
        assertEquals(60_000, c.wsTokenTtlMs());
        assertEquals(List.of(500L, 1L, 2L, 3L, 4L, 5L, 6L), List.of(c.mmWindowMs(), c.mmAccountActions(),
            c.mmAccountCancels(), c.mmKeyActions(), c.mmIpActions(), c.mmMarketActions(), c.mmShardActions()));
        assertEquals(Set.of(basic), c.builderPlans().basic(), "addresses in lowercase");
        assertEquals(Set.of(pro), c.builderPlans().pro(), "blanks between commas skipped");
        assertEquals(10, c.builderPlans().basicPerMinute());
        assertEquals(20, c.builderPlans().proPerMinute());
        assertEquals(Set.of(InetAddress.getByName("10.1.2.3")), c.metricsAllowed());
        assertFalse(c.autoPromote(), "replication.auto.promote, like demo, is true only when it says true");
    }

    @Test
    void aFileTurnsTheDemoOffUnlessItSaysSo() throws Exception
    {
        assertTrue(new ApplianceContext().journalPretouch(), "the journals are pretouched by default");
        assertFalse(read("operators=0x" + "11".repeat(20) + "\n" + BINDING).demo());
        assertTrue(new ApplianceContext().demo());
    }

    @Test
    void aProductionNodeMustNameItsChainAndContract() throws Exception
    {
        final String operators = "operators=0x" + "11".repeat(20);
        final String contract = "verifying.contract=0x" + "ab".repeat(20);
        assertRefused(operators, "a production node (demo=false) must name its deployment: set chain.id and " +
            "verifying.contract (");
        assertRefused(operators + "\nchain.id=42161", "must name its deployment: set verifying.contract (");
        assertRefused(operators + "\n" + contract, "must name its deployment: set chain.id (");
        final Path file = Files.writeString(folder.resolve("production.properties"), operators + "\n");
        final String[] arguments = {"--config", file.toString()};
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ApplianceMain.parse(arguments)).getMessage()
            .contains("set chain.id and verifying.contract"), "the process refuses to start");
        assertThrows(IllegalArgumentException.class, () -> new ApplianceContext().demo(false).conclude(),
            "from code too");

        final ApplianceContext named = read(operators + "\nchain.id=42161\n" + contract);
        assertEquals(42161, named.chainId());
        assertEquals("0x" + "ab".repeat(20), named.verifyingContract().toString());
        assertEquals(ApplianceContext.DEMO_CHAIN_ID, read("demo=true").chainId(),
            "a demo runs on the vectors' binding");
    }

    @Test
    void refusesWhatItCannotUse()
    {
        assertRefused("http.prot=80", "unknown key 'http.prot'");
        assertRefused("http.port=eighty", "bad value for http.port ('eighty')");
        assertRefused("role=standby",
            "role standby needs replication.standby.endpoint and replication.primary.endpoint");
        assertRefused("replication.standby.endpoint=nohost", "expected host:port");
        assertRefused("edge.ip.exempt=example.com", "is not an IP address");
        assertRefused("threads=many", "auto, spread, compact or single");
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
        assertRefused(
            "mm.builder.basic=" + account + "\nmm.builder.pro=" + account.toUpperCase(Locale.ROOT).replace("0X", "0x"),
            "mm.builder.basic and mm.builder.pro: " + account + " is on both the basic and the pro builder plan");
    }

    @Test
    void aValueThatDoesNotReadIsRefusedWithTheFileTheKeyAndTheValue()
    {
        final Path file = folder.resolve("venue.properties");
        assertEquals(file + ": unknown key 'http.prot' (docs/OPERATIONS.md lists the keys)", refusal("http.prot=80"));
        assertEquals(file + ": bad value for http.port ('eighty'): For input string: \"eighty\"",
            refusal("http.port=eighty"));
        assertTrue(refusal("chain.id=0x2105").startsWith(file + ": bad value for chain.id ('0x2105'): "));
        assertTrue(refusal("snapshot.every=1e6").startsWith(file + ": bad value for snapshot.every ('1e6'): "));
        assertTrue(
            refusal("verifying.contract=0x1234").startsWith(file + ": bad value for verifying.contract ('0x1234'): "));
        assertTrue(
            refusal("operators=0x" + "11".repeat(20) + ",bob").startsWith(file + ": bad value for operators ('0x"));
        assertTrue(refusal("role=leader").startsWith(file + ": bad value for role ('leader'): "));
        assertTrue(refusal("replication.mode=semi").startsWith(file + ": bad value for replication.mode ('semi'): "));
        assertEquals(file + ": bad value for replication.primary.endpoint ('host:0'): expected host:port",
            refusal("replication.primary.endpoint=host:0"));
        assertEquals(file + ": bad value for replication.primary.endpoint ('host:65536'): expected host:port",
            refusal("replication.primary.endpoint=host:65536"));
        assertEquals(file + ": bad value for journal.pretouch ('True'): true or false",
            refusal("journal.pretouch=True"), "the strict booleans take true or false only");
        assertEquals(file + ": bad value for mm.cross.shard.credit.enabled ('1'): true or false",
            refusal("mm.cross.shard.credit.enabled=1"));
        assertTrue(refusal("core.verifiers=0,one").startsWith(file + ": bad value for core.verifiers ('0,one'): "));
        assertTrue(refusal("core.shards=1;2").startsWith(file + ": bad value for core.shards ('1;2'): "));
        assertEquals(file + ": bad value for metrics.allow ('localhost'): 'localhost' is not an IP address",
            refusal("metrics.allow=localhost"));
        assertEquals(file + ": bad value for idle.strategy ('sleep'): park, backoff or busy-spin",
            refusal("idle.strategy=sleep"));
        assertEquals(file + ": bad value for threads ('many'): auto, spread, compact or single",
            refusal("threads=many"));
        assertEquals(file + ": bad value for idle.max.park.us ('0'): idle.max.park.us is 1 to 10000",
            refusal("idle.max.park.us=0"));
        assertTrue(refusal("mm.builder.pro=0xnope").startsWith(file + ": bad value for mm.builder.pro ('0xnope'): "));
        assertTrue(refusal("http.port=").startsWith(file + ": bad value for http.port (''): "),
            "an empty value is no number");
    }

    @Test
    void settingsThatBelongTogetherAreRefusedWhenOneIsMissing()
    {
        assertEquals("role standby needs replication.standby.endpoint and replication.primary.endpoint",
            refusal("role=standby\nreplication.standby.endpoint=127.0.0.1:20121"));
        assertEquals("role standby needs replication.standby.endpoint and replication.primary.endpoint",
            refusal("role=standby\nreplication.primary.endpoint=127.0.0.1:20122"));
        assertEquals("a node of a replicated pair needs replication.key.file: the key both nodes seal every " +
            "replication message with (docs/OPERATIONS.md)", refusal("role=primary\n" +
            "replication.standby.endpoint=127.0.0.1:20121\nreplication.primary.endpoint=127.0.0.1:20122"));
        assertEquals("listing.file and listing.operator.key.file go together", refusal("listing.file=listing.json"));
        assertEquals("listing.file and listing.operator.key.file go together",
            refusal("listing.operator.key.file=operator.key"));
    }

    @Test
    void theWebSocketIoThreadsAreAutoZeroOrACount() throws Exception
    {
        final ApplianceContext c = new ApplianceContext();
        assertEquals(WsGateway.Context.IO_THREADS_AUTO, c.webSocket().ioThreads(), "auto unless set");
        ApplianceConfigFile.apply(c, "ws.io.threads", "0", folder);
        assertEquals(0, c.webSocket().ioThreads());
        ApplianceConfigFile.apply(c, "ws.io.threads", "3", folder);
        assertEquals(3, c.webSocket().ioThreads());
        ApplianceConfigFile.apply(c, "ws.io.threads", "auto", folder);
        assertEquals(WsGateway.Context.IO_THREADS_AUTO, c.webSocket().ioThreads());
        assertThrows(RuntimeException.class, () -> ApplianceConfigFile.apply(c, "ws.io.threads", "many", folder));
    }

    @Test
    void aLaterKeyOfTheSameListReplacesTheEarlierOne() throws Exception
    {
        final ApplianceContext c = new ApplianceContext().edgeExempt("10.0.0.9")
            .operator(Address.of("0x" + "33".repeat(20)));
        ApplianceConfigFile.apply(c, "edge.ip.exempt", "10.0.0.1", folder);
        ApplianceConfigFile.apply(c, "operators", "0x" + "11".repeat(20), folder);
        assertEquals(Set.of(InetAddress.getByName("10.0.0.1")), c.edgeIpExempt());
        assertEquals(List.of(Address.of("0x" + "11".repeat(20))), c.operators());
    }

    /** The key table of docs/OPERATIONS.md names every key the parser reads, and no other. */
    @Test
    void theOperationsKeyTableNamesEveryKey() throws Exception
    {
        Path docs = Path.of("").toAbsolutePath();
        while (!Files.exists(docs.resolve("docs/OPERATIONS.md")))
        {
            docs = docs.getParent();
        }
        final String text = Files.readString(docs.resolve("docs/OPERATIONS.md"));
        final String table = text.substring(text.indexOf("### The configuration file"),
            text.indexOf("## Folder layout"));
        final Set<String> documented = new TreeSet<>();
        for (final String row : table.split("\n"))
        {
            if (!row.startsWith("| `"))
            {
                continue;
            }
            final Matcher key = Pattern.compile("`([a-z.]+)`").matcher(row.substring(0, row.indexOf(" | ")));
            String prefix = "";
            while (key.find())
            {
                final String name = key.group(1);
                // "`mm.cross.shard.credit.enabled`, `.haircut.ppm`": a leading dot continues the first key's prefix
                documented.add(name.startsWith(".") ? prefix + name : name);
                if (!name.startsWith("."))
                {
                    prefix = name.substring(0, name.lastIndexOf('.') < 0 ? 0 : name.lastIndexOf('.'));
                }
            }
        }
        assertEquals(new TreeSet<>(ApplianceConfigFile.keys()), documented);
    }

    @Test
    void commandLineArgumentsOverrideTheFile() throws Exception
    {
        final Path file = Files.writeString(folder.resolve("venue.properties"),
            "http.port=9090\noperators=0x" + "11".repeat(20) + "\n");
        Files.writeString(file, BINDING, StandardOpenOption.APPEND);
        final ApplianceContext c = ApplianceMain.parse(
            new String[] {"--config", file.toString(), "--port", "9191", "--data", "elsewhere"});
        assertEquals(9191, c.httpPort());
        assertEquals(Path.of("elsewhere").toAbsolutePath(), c.dataDir());
        assertThrows(IllegalArgumentException.class, () -> ApplianceMain.parse(new String[] {"--port"}));
    }

    /** The configuration text is refused with an IllegalArgumentException whose message says {@code expected}. */
    private void assertRefused(final String config, final String expected)
    {
        final String message = refusal(config);
        assertTrue(message.contains(expected), message);
    }

    private String refusal(final String config)
    {
        return assertThrows(IllegalArgumentException.class, () -> read(config)).getMessage();
    }
}
