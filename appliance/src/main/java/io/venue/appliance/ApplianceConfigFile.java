package io.venue.appliance;

import io.venue.journal.queue.JournalForce;
import io.venue.action.Address;
import io.venue.replication.ReplicationContext;
import io.venue.entry.credential.FixOnboarding;
import io.venue.transport.ws.WsGateway;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The configuration file (Java properties, the keys of docs/OPERATIONS.md) read into an {@link ApplianceContext}: each
 * key to its setter, a value that does not read refused naming the key and the value, an unknown key refused (a
 * misspelt key silently ignored is a wrong venue), relative folders taken from the file's folder.
 */
public final class ApplianceConfigFile
{
    /** Applies one value of a key to the context; relative folders are taken from {@code base}. */
    @FunctionalInterface
    private interface Setting
    {
        void apply(ApplianceContext context, String value, Path base);
    }

    private static final Map<String, Setting> SETTINGS = new LinkedHashMap<>();

    static
    {
        key("data.dir", (c, v, base) -> c.dataDir(base.resolve(v)));
        key("http.host", (c, v, base) -> c.httpHost(v));
        key("http.port", (c, v, base) -> c.httpPort(Integer.parseInt(v)));
        key("bsl.tcp.host", (c, v, base) -> c.bslTcpHost(v));
        key("bsl.tcp.port", (c, v, base) -> c.bslTcpPort(Integer.parseInt(v)));
        key("bsl.tcp.heartbeat.ms", (c, v, base) -> c.bslTcpHeartbeatMs(Integer.parseInt(v)));
        key("bsl.tcp.login.timeout.ms", (c, v, base) -> c.bslTcpLoginTimeoutMs(Long.parseLong(v)));
        key("bsl.tcp.max.frame.bytes", (c, v, base) -> c.bslTcpMaxFrameBytes(Integer.parseInt(v)));
        key("bsl.tcp.max.sessions", (c, v, base) -> c.bslTcpMaxSessions(Integer.parseInt(v)));
        key("bsl.tcp.max.sessions.per.address", (c, v, base) -> c.bslTcpMaxSessionsPerAddress(Integer.parseInt(v)));
        key("bsl.tcp.tls", (c, v, base) -> c.bslTcpTls(bool(v)));
        key("fix.host", (c, v, base) -> c.fix().host(v));
        key("fix.tls", (c, v, base) -> c.fixTls(bool(v)));
        key("fix.port", (c, v, base) -> c.fix().port(Integer.parseInt(v)));
        key("fix.comp.id", (c, v, base) -> c.fix().compId(v));
        key("fix.logon.timeout.ms", (c, v, base) -> c.fix().logonTimeoutMs(Long.parseLong(v)));
        key("fix.max.sessions", (c, v, base) -> c.fix().maxSessions(Integer.parseInt(v)));
        key("fix.max.message.bytes", (c, v, base) -> c.fix().maxMessageBytes(Integer.parseInt(v)));
        key("fix.resend.max.messages", (c, v, base) -> c.fix().resendMaxMessages(Integer.parseInt(v)));
        key("fix.clordid.index.max", (c, v, base) -> c.fix().clOrdIdIndexMax(Integer.parseInt(v)));
        key("fix.order.messages.per.second", (c, v, base) -> c.fix().orderMessagesPerSecond(Long.parseLong(v)));
        for (final String tier : FixOnboarding.TIERS)
        {
            key("fix.rate.tier." + tier, (c, v, base) -> c.fix().tierMessagesPerSecond(tier, Long.parseLong(v)));
        }
        key("fix.onboarding.capacity", (c, v, base) -> c.fixOnboardingCapacity(Integer.parseInt(v)));
        key("fix.logon.attempts.per.minute", (c, v, base) -> c.fix().logonAttemptsPerMinute(Integer.parseInt(v)));
        key("fix.sending.time.tolerance.ms", (c, v, base) -> c.fix().sendingTimeToleranceMs(Long.parseLong(v)));
        key("protection.cod.grace.ms", (c, v, base) -> c.protectionGraceMs(Long.parseLong(v)));
        key("protection.deadman.min.ms", (c, v, base) -> c.protectionDeadManBounds(Long.parseLong(v),
            c.protectionSettings().deadManMaxMs()));
        key("protection.deadman.max.ms", (c, v, base) -> c.protectionDeadManBounds(
            c.protectionSettings().deadManMinMs(), Long.parseLong(v)));
        key("protection.tick.ms", (c, v, base) -> c.protectionTickMs(Long.parseLong(v)));
        key("protection.capacity", (c, v, base) -> c.protectionCapacity(Integer.parseInt(v)));
        key("chain.id", (c, v, base) -> c.chainId(Long.parseLong(v)));
        key("verifying.contract", (c, v, base) -> c.verifyingContract(Address.of(v.toLowerCase(Locale.ROOT))));
        key("verifier.threads", (c, v, base) -> c.verifierThreads(Integer.parseInt(v)));
        key("operators", (c, v, base) -> c.operators(addresses(v)));
        key("demo", (c, v, base) -> c.demo(Boolean.parseBoolean(v)));
        key("snapshot.every", (c, v, base) -> c.snapshotEvery(Long.parseLong(v)));
        key("snapshot.keep", (c, v, base) -> c.snapshotsKept(Integer.parseInt(v)));
        key("answer.timeout.ms", (c, v, base) -> c.answerTimeoutMs(Long.parseLong(v)));
        key("answers.kept.bytes", (c, v, base) -> c.keptAnswersBytes(Long.parseLong(v)));
        key("role", (c, v, base) -> c.role(ApplianceContext.Role.valueOf(v.toUpperCase(Locale.ROOT))));
        key("replication.mode",
            (c, v, base) -> c.replicationMode(ReplicationContext.Mode.valueOf(v.toUpperCase(Locale.ROOT))));
        key("replication.standby.endpoint", (c, v, base) -> c.standbyEndpoint(endpoint(v)));
        key("replication.primary.endpoint", (c, v, base) -> c.primaryEndpoint(endpoint(v)));
        key("replication.primary.timeout.ms", (c, v, base) -> c.primaryTimeoutMs(Long.parseLong(v)));
        key("replication.auto.promote", (c, v, base) -> c.autoPromote(Boolean.parseBoolean(v)));
        key("replication.key.file", (c, v, base) -> c.replicationKeyFile(base.resolve(v)));
        key("replication.report.ms", (c, v, base) -> c.replicationReportMs(Long.parseLong(v)));
        key("shard.busy.backlog", (c, v, base) -> c.shardBusyBacklog(Long.parseLong(v)));
        key("refusals.aggregate.after", (c, v, base) -> c.refusalsAggregateAfter(Integer.parseInt(v)));
        key("refusals.aggregate.window.ms", (c, v, base) -> c.refusalsAggregateWindowMs(Long.parseLong(v)));
        key("refusals.aggregate.sources", (c, v, base) -> c.refusalsAggregateSources(Integer.parseInt(v)));
        key("engine.shards", (c, v, base) -> c.engineShards(Integer.parseInt(v)));
        key("engine.group.commands", (c, v, base) -> c.groupCommands(Integer.parseInt(v)));
        key("core.shards", (c, v, base) -> c.coreShards(cores(v)));
        key("mm.cross.shard.credit.enabled", (c, v, base) -> c.crossShardCredit(bool(v)));
        key("mm.cross.shard.credit.haircut.ppm", (c, v, base) -> c.crossShardHaircutPpm(Long.parseLong(v)));
        key("mm.cross.shard.credit.max.account.locked",
            (c, v, base) -> c.crossShardMaxAccountLocked(Long.parseLong(v)));
        key("mm.cross.shard.credit.max.market.locked", (c, v, base) -> c.crossShardMaxMarketLocked(Long.parseLong(v)));
        key("mm.cross.shard.credit.kill.switch", (c, v, base) -> c.crossShardKillSwitch(bool(v)));
        key("limits.account.actions", (c, v, base) -> c.accountActions(Long.parseLong(v)));
        key("limits.account.window.ms", (c, v, base) -> c.accountWindowMs(Long.parseLong(v)));
        key("limits.open.orders.account", (c, v, base) -> c.openOrdersPerAccount(Integer.parseInt(v)));
        key("limits.open.orders.account.market", (c, v, base) -> c.openOrdersPerAccountAndMarket(Integer.parseInt(v)));
        key("limits.levels.per.side", (c, v, base) -> c.levelsPerSide(Integer.parseInt(v)));
        key("limits.markets", (c, v, base) -> c.maxMarkets(Integer.parseInt(v)));
        key("limits.orders.per.book", (c, v, base) -> c.ordersPerBook(Integer.parseInt(v)));
        key("limits.accounts", (c, v, base) -> c.stateAccounts(Long.parseLong(v)));
        key("limits.resting.orders", (c, v, base) -> c.stateRestingOrders(Long.parseLong(v)));
        key("core.engine", (c, v, base) -> c.coreEngine(Integer.parseInt(v)));
        key("core.front", (c, v, base) -> c.coreFront(Integer.parseInt(v)));
        key("core.pretouch", (c, v, base) -> c.corePretouch(Integer.parseInt(v)));
        key("journal.pretouch", (c, v, base) -> c.journalPretouch(bool(v)));
        key("journal.pretouch.period.ms", (c, v, base) -> c.journalPretouchPeriodMs(Long.parseLong(v)));
        key("journal.force", (c, v, base) -> c.journalForce(JournalForce.of(v)));
        key("core.verifiers", (c, v, base) -> c.coreVerifiers(cores(v)));
        key("idle.strategy", (c, v, base) -> c.idleStrategy(idleStrategy(v)));
        key("idle.max.park.us", (c, v, base) -> c.idleMaxParkUs(maxParkUs(v)));
        key("threads", (c, v, base) -> c.threadLayout(ThreadLayout.of(v)));
        key("credentials.key.file", (c, v, base) -> c.credentialKeyFile(base.resolve(v)));
        key("listing.file", (c, v, base) -> c.listingFile(base.resolve(v)));
        key("listing.operator.key.file", (c, v, base) -> c.listingOperatorKeyFile(base.resolve(v)));
        key("ws.token.ttl.ms", (c, v, base) -> c.wsTokenTtlMs(Long.parseLong(v)));
        key("mm.window.ms", (c, v, base) -> c.mmWindowMs(Long.parseLong(v)));
        key("mm.account.actions", (c, v, base) -> c.mmAccountActions(Long.parseLong(v)));
        key("mm.account.cancels", (c, v, base) -> c.mmAccountCancels(Long.parseLong(v)));
        key("mm.key.actions", (c, v, base) -> c.mmKeyActions(Long.parseLong(v)));
        key("mm.ip.actions", (c, v, base) -> c.mmIpActions(Long.parseLong(v)));
        key("mm.market.actions", (c, v, base) -> c.mmMarketActions(Long.parseLong(v)));
        key("mm.shard.actions", (c, v, base) -> c.mmShardActions(Long.parseLong(v)));
        key("mm.action.ts.skew.ms", (c, v, base) -> c.mmActionTsSkewMs(Long.parseLong(v)));
        key("mm.low.latency.max.actions", (c, v, base) -> c.mmLowLatencyMaxActions(Integer.parseInt(v)));
        key("mm.prebatched.max.batches", (c, v, base) -> c.mmPrebatchedMaxBatches(Integer.parseInt(v)));
        key("http.max.body.bytes", (c, v, base) -> c.httpMaxBodyBytes(Integer.parseInt(v)));
        key("http.header.timeout.ms", (c, v, base) -> c.httpHeaderTimeoutMs(Long.parseLong(v)));
        key("http.body.timeout.ms", (c, v, base) -> c.httpBodyTimeoutMs(Long.parseLong(v)));
        key("http.idle.timeout.ms", (c, v, base) -> c.httpIdleTimeoutMs(Long.parseLong(v)));
        key("http.max.connections", (c, v, base) -> c.httpMaxConnections(Integer.parseInt(v)));
        key("http.tls.cert.file", (c, v, base) -> c.httpTlsCertFile(base.resolve(v)));
        key("http.tls.key.file", (c, v, base) -> c.httpTlsKeyFile(base.resolve(v)));
        key("http.tls.sni.dir", (c, v, base) -> c.httpTlsSniDir(base.resolve(v)));
        key("http.trusted.proxies", (c, v, base) -> c.httpTrustedProxies(IpLiterals.list(v)));
        key("ws.enabled", (c, v, base) -> c.webSocketEnabled(bool(v)));
        key("ws.heartbeat.ms", (c, v, base) -> c.webSocket().heartbeatMs(Long.parseLong(v)));
        key("ws.idle.timeout.ms", (c, v, base) -> c.webSocket().idleTimeoutMs(Long.parseLong(v)));
        key("ws.auth.deadline.ms", (c, v, base) -> c.webSocket().authDeadlineMs(Long.parseLong(v)));
        key("ws.max.subscriptions", (c, v, base) ->
            c.webSocket().subscriptions(Integer.parseInt(v), c.webSocket().publicMaxMarkets()));
        key("ws.public.max.markets", (c, v, base) ->
            c.webSocket().subscriptions(c.webSocket().maxSubscriptions(), Integer.parseInt(v)));
        key("ws.control.messages", (c, v, base) ->
            c.webSocket().controlMessages(Integer.parseInt(v), c.webSocket().controlWindowMs()));
        key("ws.control.window.ms", (c, v, base) ->
            c.webSocket().controlMessages(c.webSocket().maxControlMessages(), Long.parseLong(v)));
        key("ws.socket.send.buffer.bytes", (c, v, base) -> c.webSocket().socketSendBufferBytes(Integer.parseInt(v)));
        key("ws.io.threads", (c, v, base) -> c.webSocket().ioThreads(
            v.equals("auto") ? WsGateway.Context.IO_THREADS_AUTO : Integer.parseInt(v)));
        key("ws.max.inbound.bytes", (c, v, base) -> c.webSocket().maxInboundBytes(Integer.parseInt(v)));
        key("ws.slow.consumer.bytes", (c, v, base) -> c.webSocket().slowConsumer(Long.parseLong(v),
            c.webSocket().slowConsumerGraceMs(), c.webSocket().hardCapBytes()));
        key("ws.slow.consumer.grace.ms", (c, v, base) -> c.webSocket().slowConsumer(
            c.webSocket().slowConsumerBytes(), Long.parseLong(v), c.webSocket().hardCapBytes()));
        key("ws.slow.consumer.close.bytes", (c, v, base) -> c.webSocket().slowConsumer(
            c.webSocket().slowConsumerBytes(), c.webSocket().slowConsumerGraceMs(), Long.parseLong(v)));
        key("feed.rest.us", (c, v, base) -> c.feedRestUs(Long.parseLong(v)));
        key("feed.window.frames", (c, v, base) -> c.feedWindow(Integer.parseInt(v), c.feedWindowBytes()));
        key("feed.window.bytes", (c, v, base) -> c.feedWindow(c.feedWindowFrames(), Long.parseLong(v)));
        key("http.max.connections.per.address", (c, v, base) -> c.httpMaxConnectionsPerAddress(Integer.parseInt(v)));
        key("reads.private.account.rate", (c, v, base) -> c.readsAccount(Long.parseLong(v), c.readsAccountBurst()));
        key("reads.private.account.burst", (c, v, base) -> c.readsAccount(c.readsAccountRate(), Long.parseLong(v)));
        key("reads.private.ip.rate", (c, v, base) -> c.readsIp(Long.parseLong(v), c.readsIpBurst()));
        key("reads.private.ip.burst", (c, v, base) -> c.readsIp(c.readsIpRate(), Long.parseLong(v)));
        key("mm.builder.basic.per.minute", (c, v, base) -> c.builderBasicPerMinute(Long.parseLong(v)));
        key("mm.builder.pro.per.minute", (c, v, base) -> c.builderProPerMinute(Long.parseLong(v)));
        key("mm.builder.basic", (c, v, base) -> c.builderBasic(accounts(v)));
        key("mm.builder.pro", (c, v, base) -> c.builderPro(accounts(v)));
        key("edge.ip.rate", (c, v, base) -> c.edgeIpRate(Long.parseLong(v)));
        key("edge.ip.burst", (c, v, base) -> c.edgeIpBurst(Long.parseLong(v)));
        key("metrics.allow", (c, v, base) -> c.metricsAllowed(IpLiterals.list(v)));
        key("edge.ip.exempt", (c, v, base) -> c.edgeIpExempt(IpLiterals.list(v)));
        key("lanes", (c, v, base) -> c.lanes(names(v)));
    }

    private ApplianceConfigFile()
    {
    }

    private static void key(final String key, final Setting setting)
    {
        SETTINGS.put(key, setting);
    }

    /** Every key the file may hold. */
    public static Set<String> keys()
    {
        return Collections.unmodifiableSet(SETTINGS.keySet());
    }

    /**
     * Reads a properties file into a new context and concludes it. {@code demo} is false unless the file says true. A
     * key the file gets wrong is refused with the file's name, the key and the value; settings that do not go together
     * are refused by {@link ApplianceContext#conclude()}.
     */
    public static ApplianceContext read(final Path file) throws IOException
    {
        final Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8))
        {
            properties.load(reader);
        }
        final ApplianceContext context = new ApplianceContext().demo(false);
        final Path base = file.toAbsolutePath().getParent();
        for (final String key : properties.stringPropertyNames())
        {
            try
            {
                apply(context, key, properties.getProperty(key).trim(), base);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new IllegalArgumentException(file + ": " + ex.getMessage(), ex);
            }
        }
        return context.conclude();
    }

    /** One setting by its file key, onto {@code context}; relative folders are taken from {@code base}. */
    public static ApplianceContext apply(final ApplianceContext context, final String key, final String value,
        final Path base)
    {
        final Setting setting = SETTINGS.get(key);
        if (setting == null)
        {
            // a misspelt key silently ignored would be a wrong venue
            throw new IllegalArgumentException("unknown key '" + key + "' (docs/OPERATIONS.md lists the keys)");
        }
        try
        {
            setting.apply(context, value, base);
        }
        catch (final RuntimeException ex)
        {
            throw new IllegalArgumentException("bad value for " + key + " ('" + value + "'): " + ex.getMessage(), ex);
        }
        return context;
    }

    /** A comma-separated list of account addresses, each checked; blanks between commas are skipped. */
    private static List<Address> addresses(final String value)
    {
        final List<Address> addresses = new ArrayList<>();
        for (final String address : value.split(","))
        {
            if (!address.isBlank())
            {
                addresses.add(Address.of(address.trim().toLowerCase(Locale.ROOT)));
            }
        }
        return addresses;
    }

    /** A comma-separated list of names; blanks between commas are skipped. */
    private static List<String> names(final String value)
    {
        final List<String> names = new ArrayList<>();
        for (final String name : value.split(","))
        {
            if (!name.isBlank())
            {
                names.add(name.trim());
            }
        }
        return names;
    }

    /** Accounts as their lowercase 0x text. */
    private static Set<String> accounts(final String value)
    {
        final Set<String> accounts = new HashSet<>();
        addresses(value).forEach(address -> accounts.add(address.toString()));
        return accounts;
    }

    private static String endpoint(final String value)
    {
        final int colon = value.lastIndexOf(':');
        if (colon <= 0 || Integer.parseInt(value.substring(colon + 1)) < 1 ||
            Integer.parseInt(value.substring(colon + 1)) > 65_535)
        {
            throw new IllegalArgumentException("expected host:port");
        }
        return value;
    }

    private static boolean bool(final String value)
    {
        return switch (value)
        {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("true or false");
        };
    }

    private static int[] cores(final String value)
    {
        return value.isBlank() ? new int[0] :
            Arrays.stream(value.split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
    }

    private static String idleStrategy(final String value)
    {
        if (!ApplianceContext.IDLE_STRATEGIES.contains(value))
        {
            throw new IllegalArgumentException("park, backoff or busy-spin");
        }
        return value;
    }

    private static long maxParkUs(final String value)
    {
        final long us = Long.parseLong(value);
        if (us < 1 || us > ApplianceContext.MAX_PARK_US)
        {
            // longer parks would hold up the periodic duties: replication heartbeats, a clean stop
            throw new IllegalArgumentException("idle.max.park.us is 1 to " + ApplianceContext.MAX_PARK_US);
        }
        return us;
    }
}
