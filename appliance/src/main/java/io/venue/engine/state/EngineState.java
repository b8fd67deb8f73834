package io.venue.engine.state;

import net.openhft.chronicle.map.ChronicleMap;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;

/**
 * Owns the engine's persistent state: eight Chronicle Maps and the {@link StateMeta} page, in one folder (or in
 * memory, for tests and benchmarks).
 * <p>
 * Recovery contract: {@link #open} opens a folder only when it is empty (a fresh state) or consistent; the
 * engine then replays the command journal from {@code meta().appliedSequence() + 1}. Anything else throws
 * {@link StateUnusableException} naming what was found; the engine then calls {@link #openEmpty} and replays
 * from the start. A state is never used when its files are missing, damaged, of another format or capacity,
 * or left half-way through a command.
 * <p>
 * Determinism: every store is looked up by key only, except {@link OpenOrderStore#forEach}, whose hash order
 * the caller must sort away. Nothing here reads a clock or depends on a thread.
 * <p>
 * Single writer: one engine thread uses the stores; no other process may open the folder while it is open
 * (a file lock on the meta enforces it).
 */
public final class EngineState implements AutoCloseable
{
    private final Context context;
    private final StateMeta meta;
    private final StateCheck openedAs;
    private final EnumMap<StoreFile, FixedMap<?, ?>> maps;
    private final NonceWindowStore nonceWindows;
    private final BalanceStore balances;
    private final PositionStore positions;
    private final OpenOrderStore openOrders;
    private final NumberedStore<Agent> agents;
    private final NumberedStore<Credential> credentials;
    private final NumberedStore<AssetRecord> assets;
    private final NumberedStore<MarketRecord> markets;
    private final NumberedStore<ProtectionRecord> protections;
    private final NumberedStore<FixOnboardingRecord> fixOnboarding;
    private boolean closed;

    @SuppressWarnings("unchecked")
    private EngineState(
        final Context context, final StateMeta meta, final StateCheck openedAs,
        final EnumMap<StoreFile, FixedMap<?, ?>> maps)
    {
        this.context = context;
        this.meta = meta;
        this.openedAs = openedAs;
        this.maps = maps;
        nonceWindows = new NonceWindowStore((FixedMap<AddressKey, NonceWindow>)maps.get(StoreFile.NONCE_WINDOWS));
        balances = new BalanceStore((FixedMap<AccountIdKey, Balance>)maps.get(StoreFile.BALANCES));
        positions = new PositionStore((FixedMap<AccountIdKey, Position>)maps.get(StoreFile.POSITIONS));
        openOrders = new OpenOrderStore((FixedMap<OrderIdKey, OpenOrder>)maps.get(StoreFile.OPEN_ORDERS));
        agents = new NumberedStore<>((FixedMap<NumberKey, Agent>)maps.get(StoreFile.AGENTS));
        credentials = new NumberedStore<>((FixedMap<NumberKey, Credential>)maps.get(StoreFile.CREDENTIALS));
        assets = new NumberedStore<>((FixedMap<NumberKey, AssetRecord>)maps.get(StoreFile.ASSETS));
        markets = new NumberedStore<>((FixedMap<NumberKey, MarketRecord>)maps.get(StoreFile.MARKETS));
        protections = new NumberedStore<>((FixedMap<NumberKey, ProtectionRecord>)maps.get(StoreFile.PROTECTIONS));
        fixOnboarding = new NumberedStore<>(
            (FixedMap<NumberKey, FixOnboardingRecord>)maps.get(StoreFile.FIX_ONBOARDING));
    }

    /**
     * Judges the folder without opening any map. In memory the answer is always {@link StateStatus#EMPTY}.
     */
    public static StateCheck check(final Context context)
    {
        context.conclude();
        if (!context.persisted())
        {
            return new StateCheck(StateStatus.EMPTY, "in memory", StateMeta.NO_SEQUENCE);
        }
        final Path metaFile = StateFolder.metaFile(context.directory());
        if (!Files.exists(metaFile))
        {
            return emptyOrMetaMissing(context);
        }
        try
        {
            final StateMeta meta = StateMeta.map(metaFile, false);
            if (null == meta)
            {
                return inUse(metaFile);
            }
            try
            {
                return StateFolder.inspect(context, meta);
            }
            finally
            {
                meta.close();
            }
        }
        catch (final StateMeta.MetaLengthException ex)
        {
            return StateCheck.unusable(StateStatus.META_CORRUPT, ex.getMessage());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Opens the state if the folder is empty (made fresh) or consistent.
     *
     * @throws StateUnusableException when it is anything else; the state is left on disk untouched.
     */
    public static EngineState open(final Context context) throws StateUnusableException
    {
        context.conclude();
        if (!context.persisted())
        {
            return createInMemory(context);
        }
        final Path metaFile = StateFolder.metaFile(context.directory());
        try
        {
            if (!Files.exists(metaFile))
            {
                final StateCheck check = emptyOrMetaMissing(context);
                if (check.status() != StateStatus.EMPTY)
                {
                    throw new StateUnusableException(check);
                }
                return createPersisted(context);
            }
            final StateMeta meta;
            try
            {
                meta = StateMeta.map(metaFile, false);
            }
            catch (final StateMeta.MetaLengthException ex)
            {
                throw new StateUnusableException(StateCheck.unusable(StateStatus.META_CORRUPT, ex.getMessage()));
            }
            if (null == meta)
            {
                throw new StateUnusableException(inUse(metaFile));
            }
            final StateCheck check = StateFolder.inspect(context, meta);
            if (check.status() != StateStatus.CONSISTENT)
            {
                meta.close();
                throw new StateUnusableException(check);
            }
            return openPersisted(context, meta, check);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Deletes this package's files in the folder (nothing else) and opens a fresh, empty state: what the engine
     * does before replaying the journal from the start.
     *
     * @throws StateUnusableException with {@link StateStatus#IN_USE} when another process holds the state.
     */
    public static EngineState openEmpty(final Context context) throws StateUnusableException
    {
        context.conclude();
        if (!context.persisted())
        {
            return createInMemory(context);
        }
        final Path metaFile = StateFolder.metaFile(context.directory());
        try
        {
            Files.createDirectories(context.directory());
            try (FileChannel channel = FileChannel.open(metaFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE))
            {
                final FileLock lock = StateMeta.tryLock(channel);
                if (null == lock)
                {
                    throw new StateUnusableException(inUse(metaFile));
                }
                StateFolder.deleteStateFiles(context.directory());
            }
            return createPersisted(context);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private static StateCheck emptyOrMetaMissing(final Context context)
    {
        if (StateFolder.anyMapFileExists(context.directory()))
        {
            return StateCheck.unusable(StateStatus.META_MISSING,
                "map files in " + context.directory() + " but no " + StateMeta.FILE_NAME);
        }
        return new StateCheck(StateStatus.EMPTY, "no state files in " + context.directory(), StateMeta.NO_SEQUENCE);
    }

    private static StateCheck inUse(final Path metaFile)
    {
        return StateCheck.unusable(StateStatus.IN_USE, "another process holds the lock on " + metaFile);
    }

    private static EngineState createInMemory(final Context context)
    {
        final EnumMap<StoreFile, FixedMap<?, ?>> maps = new EnumMap<>(StoreFile.class);
        try
        {
            for (final StoreFile store : StoreFile.values())
            {
                maps.put(store, openMap(context, store, null, false));
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            closeAll(maps);
            throw ex instanceof IOException ? new UncheckedIOException((IOException)ex) : (RuntimeException)ex;
        }
        final StateMeta meta = StateMeta.inMemory();
        return new EngineState(context, meta,
            new StateCheck(StateStatus.EMPTY, "in memory", StateMeta.NO_SEQUENCE), maps);
    }

    private static EngineState createPersisted(final Context context) throws IOException, StateUnusableException
    {
        Files.createDirectories(context.directory());
        final Path metaFile = StateFolder.metaFile(context.directory());
        final StateMeta meta = StateMeta.map(metaFile, true);
        if (null == meta)
        {
            throw new StateUnusableException(inUse(metaFile));
        }
        // the meta is written first: a crash while the maps are being made leaves MAP_FILE_MISSING, not EMPTY
        for (final StoreFile store : StoreFile.values())
        {
            meta.recordStore(store, context.entries(store), 0L);
        }
        meta.markOpen(HostBoot.high(), HostBoot.low());
        meta.force();
        final StateCheck created = new StateCheck(StateStatus.EMPTY, "created in " + context.directory(),
            StateMeta.NO_SEQUENCE);
        return openPersisted(context, meta, created);
    }

    private static EngineState openPersisted(final Context context, final StateMeta meta, final StateCheck check)
        throws StateUnusableException
    {
        final EnumMap<StoreFile, FixedMap<?, ?>> maps = new EnumMap<>(StoreFile.class);
        // A process that stopped without closing may have died holding a segment lock (the locks live in the mapped
        // files), and the next write to that segment would wait for it in vain: such maps are opened by Chronicle's
        // recovery, which resets every lock. Only this process may have them open (the meta's file lock says so).
        final boolean stoppedUnclean = !meta.closedCleanly();
        for (final StoreFile store : StoreFile.values())
        {
            final File file = StateFolder.mapFile(context.directory(), store);
            try
            {
                if (file.length() > 0 && !ChronicleMapFile.looksLikeAMap(file.toPath()))
                {
                    throw new IOException("its header is not a Chronicle Map's");
                }
                maps.put(store, openMap(context, store, file, stoppedUnclean && file.exists()));
            }
            catch (final IOException | RuntimeException ex)
            {
                closeAll(maps);
                meta.close();
                throw new StateUnusableException(
                    StateCheck.unusable(StateStatus.MAP_FILE_CORRUPT, "Chronicle Map " +
                        "refused " + file + ": " + ex.getMessage()), ex);
            }
        }
        for (final StoreFile store : StoreFile.values())
        {
            meta.recordStore(store, context.entries(store), StateFolder.mapFile(context.directory(), store).length());
        }
        meta.markOpen(HostBoot.high(), HostBoot.low());
        meta.force();
        return new EngineState(context, meta, check, maps);
    }

    private static <K extends Flyweight, V extends Flyweight> FixedMap<K, V> openMap(
        final Context context, final StoreFile store, final File file, final boolean recover) throws IOException
    {
        final FlyweightClasses classes = flyweightClasses(store);
        final Class<? extends Flyweight> keyClass = classes.key();
        final Class<? extends Flyweight> valueClass = classes.value();
        @SuppressWarnings("unchecked")
        final Class<K> k = (Class<K>)keyClass;
        @SuppressWarnings("unchecked")
        final Class<V> v = (Class<V>)valueClass;
        final long entries = context.entries(store);
        // No entry checksums: values are written in place through flyweights, after the segment lock is released,
        // so Chronicle's checksums would go stale; consistency comes from StateMeta instead.
        final var builder = ChronicleMap.of(k, v)
            .name(store.mapName())
            .entries(entries)
            .checksumEntries(false);
        if (null == file)
        {
            return new FixedMap<>(builder.create(), entries);
        }
        if (!recover)
        {
            return new FixedMap<>(builder.createPersistedTo(file), entries);
        }
        // what the recovery finds wrong besides held locks (what it is here for) it repairs by dropping entries: then
        // the maps no longer hold what the journal made. Should Chronicle word its lock finding otherwise, the state is
        // only rebuilt needlessly.
        final List<String> damage = new ArrayList<>();
        final ChronicleMap<K, V> map = builder.recoverPersistedTo(file, false, corruption ->
        {
            if (!corruption.message().startsWith("lock of segment"))
            {
                damage.add(corruption.message());
            }
        });
        if (!damage.isEmpty())
        {
            map.close();
            throw new IOException(
                "Chronicle's recovery found it damaged (" + damage.size() + " findings, the first: " + damage.get(0) +
                ")");
        }
        return new FixedMap<>(map, entries);
    }

    /** The key and value flyweight classes of a store. */
    private static FlyweightClasses flyweightClasses(final StoreFile store)
    {
        return switch (store)
        {
            case NONCE_WINDOWS -> new FlyweightClasses(AddressKey.class, NonceWindow.class);
            case BALANCES -> new FlyweightClasses(AccountIdKey.class, Balance.class);
            case POSITIONS -> new FlyweightClasses(AccountIdKey.class, Position.class);
            case OPEN_ORDERS -> new FlyweightClasses(OrderIdKey.class, OpenOrder.class);
            case AGENTS, CREDENTIALS, ASSETS,
                MARKETS -> new FlyweightClasses(NumberKey.class, store == StoreFile.AGENTS ? Agent.class :
                store == StoreFile.CREDENTIALS ? Credential.class : store == StoreFile.ASSETS ? AssetRecord.class :
                    MarketRecord.class);
            case PROTECTIONS -> new FlyweightClasses(NumberKey.class, ProtectionRecord.class);
            case FIX_ONBOARDING -> new FlyweightClasses(NumberKey.class, FixOnboardingRecord.class);
        };
    }

    /** A store's key and value flyweight classes. */
    private record FlyweightClasses(Class<? extends Flyweight> key, Class<? extends Flyweight> value)
    {
    }

    /** Receives one store entry as raw bytes: the key's, then the value's, each at offset 0 of its buffer. */
    @FunctionalInterface
    public interface EntryVisitor
    {
        void onEntry(DirectBuffer key, int keyLength, DirectBuffer value, int valueLength);
    }

    /**
     * Visits every entry of {@code store}, in hash order, as its raw bytes (the layouts of STATE.md): for a
     * snapshot. Call between commands, with the maps written ({@code Engine.flushState}).
     */
    public void forEachEntry(final StoreFile store, final EntryVisitor visitor)
    {
        final Flyweight[] cursors = newFlyweights(store);
        final UnsafeBuffer key = new UnsafeBuffer(new byte[store.keySize()]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[store.valueSize()]);
        @SuppressWarnings("unchecked")
        final FixedMap<Flyweight, Flyweight> map = (FixedMap<Flyweight, Flyweight>)maps.get(store);
        map.forEach(cursors[0], cursors[1], (k, v) ->
        {
            k.getBytes(0, key, 0, store.keySize());
            v.getBytes(0, value, 0, store.valueSize());
            visitor.onEntry(key, store.keySize(), value, store.valueSize());
        });
    }

    /** Writes one entry from its raw bytes (inserting or overwriting): loading a snapshot into empty maps. */
    public void putEntry(final StoreFile store, final DirectBuffer key, final int keyOffset, final DirectBuffer value,
        final int valueOffset)
    {
        final Flyweight[] flyweights = newFlyweights(store);
        flyweights[0].bytesStore(Flyweight.scratch(store.keySize()), 0, store.keySize());
        flyweights[0].putBytes(0, key, keyOffset, store.keySize());
        @SuppressWarnings("unchecked")
        final FixedMap<Flyweight, Flyweight> map = (FixedMap<Flyweight, Flyweight>)maps.get(store);
        map.acquire(flyweights[0], flyweights[1]).putBytes(0, value, valueOffset, store.valueSize());
    }

    private static Flyweight[] newFlyweights(final StoreFile store)
    {
        final FlyweightClasses classes = flyweightClasses(store);
        try
        {
            return new Flyweight[]{
                classes.key().getDeclaredConstructor().newInstance(),
                classes.value().getDeclaredConstructor().newInstance()};
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException("cannot make the flyweights of " + store, ex);
        }
    }

    private static void closeAll(final EnumMap<StoreFile, FixedMap<?, ?>> maps)
    {
        for (final FixedMap<?, ?> map : maps.values())
        {
            try
            {
                map.close();
            }
            catch (final RuntimeException ignore)
            {
                // already failing; the first error is the one to report
            }
        }
    }

    /** How the state was found: {@link StateStatus#EMPTY} (made fresh) or {@link StateStatus#CONSISTENT}. */
    public StateCheck openedAs()
    {
        return openedAs;
    }

    public StateMeta meta()
    {
        return meta;
    }

    public NonceWindowStore nonceWindows()
    {
        return nonceWindows;
    }

    public BalanceStore balances()
    {
        return balances;
    }

    public PositionStore positions()
    {
        return positions;
    }

    public OpenOrderStore openOrders()
    {
        return openOrders;
    }

    /** Agents by agent number. */
    public NumberedStore<Agent> agents()
    {
        return agents;
    }

    /** Agent credentials (signing keys) by credential number. */
    public NumberedStore<Credential> credentials()
    {
        return credentials;
    }

    /** Ledger assets by ledger number. */
    public NumberedStore<AssetRecord> assets()
    {
        return assets;
    }

    /** Markets by market number. */
    public NumberedStore<MarketRecord> markets()
    {
        return markets;
    }

    /** The FIX onboarding table by slot number (since format 5). */
    public NumberedStore<FixOnboardingRecord> fixOnboarding()
    {
        return fixOnboarding;
    }

    /** The protection table by slot number; a free slot has no entry. */
    public NumberedStore<ProtectionRecord> protections()
    {
        return protections;
    }

    public boolean isPersisted()
    {
        return context.persisted();
    }

    public Context context()
    {
        return context;
    }

    /**
     * Closes the maps; when persisted, flushes every map file to disk, records the file lengths and marks the
     * meta closed cleanly. Call between commands only: a pending apply stays pending and the next open reports it.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        final List<Throwable> errors = new ArrayList<>();
        for (final FixedMap<?, ?> map : maps.values())
        {
            try
            {
                map.close();
            }
            catch (final RuntimeException ex)
            {
                errors.add(ex);
            }
        }
        if (context.persisted())
        {
            try
            {
                for (final StoreFile store : StoreFile.values())
                {
                    final File file = StateFolder.mapFile(context.directory(), store);
                    StateFolder.fsync(file);
                    meta.recordStore(store, context.entries(store), file.length());
                }
                if (errors.isEmpty() && meta.pendingSequence() == StateMeta.NO_SEQUENCE)
                {
                    meta.markClosed();
                }
                meta.force();
            }
            catch (final IOException ex)
            {
                errors.add(ex);
            }
        }
        meta.close();
        if (!errors.isEmpty())
        {
            final IllegalStateException ex = new IllegalStateException("closing engine state failed");
            errors.forEach(ex::addSuppressed);
            throw ex;
        }
    }

    /**
     * Where and how big. Defaults size a demo venue ({@link StateLimits#DEMO}); {@link #productionSizing()}
     * sizes for one million accounts. The capacity is fixed when the files are made: opening them with another capacity
     * reports {@link StateStatus#CAPACITY_CHANGED}, and a rebuild makes them anew.
     */
    public static final class Context
    {
        public static final int DEFAULT_COMMANDS_PER_FLUSH = 1_000;
        public static final int DEFAULT_RECORDS_PER_FLUSH = 256;

        private Path directory;
        private boolean persisted = true;
        private int commandsPerFlush = DEFAULT_COMMANDS_PER_FLUSH;
        private int recordsPerFlush = DEFAULT_RECORDS_PER_FLUSH;
        private final EnumMap<StoreFile, Long> entries = new EnumMap<>(StoreFile.class);

        public Context()
        {
            sizeFor(StateLimits.DEMO);
        }

        /** Ledger assets (listed ones plus two share assets per outcome market) the maps are sized for. */
        public static final long ASSETS = 4_096;
        /** Markets the maps are sized for: the engine's limit (book numbers are 11 bits of an order handle). */
        public static final long MARKETS = 1_024;
        /** Protection table slots the maps are sized for: the most {@code EngineConfig.protectionCapacity} may be. */
        public static final int PROTECTIONS = 16_384;
        /** FIX onboarding records the maps are sized for: the most {@code EngineConfig.fixOnboardingCapacity}. */
        public static final int FIX_ONBOARDING = 16_384;

        /** Production: {@link StateLimits#PRODUCTION}, one million accounts and two million resting orders. */
        public Context productionSizing()
        {
            return sizeFor(StateLimits.PRODUCTION);
        }

        /** Sizes every map from an account count and a resting-order count ({@link StateLimits#forAccounts}). */
        public Context sizeFor(final long accounts, final long openOrders)
        {
            return sizeFor(StateLimits.forAccounts(accounts, openOrders));
        }

        /** Sizes every map for the engine's limits: give the engine the same ones. */
        public Context sizeFor(final StateLimits limits)
        {
            for (final StoreFile store : StoreFile.values())
            {
                final long limit = limits.limitOf(store);
                if (limit > 0)
                {
                    entries.put(store, limit);
                }
            }
            entries.put(StoreFile.ASSETS, ASSETS);
            entries.put(StoreFile.MARKETS, MARKETS);
            entries.put(StoreFile.PROTECTIONS, (long)PROTECTIONS);
            entries.put(StoreFile.FIX_ONBOARDING, (long)FIX_ONBOARDING);
            return this;
        }

        /**
         * How many commands the engine applies between two writes to the maps (default
         * {@value #DEFAULT_COMMANDS_PER_FLUSH}): a value changed by several commands in between is written
         * once. The maps then lag the journal by fewer than that many commands, which a restart replays; the
         * engine also writes whenever no command is waiting, and on close. 1 writes after every command.
         */
        public Context commandsPerFlush(final int commands)
        {
            if (commands < 1)
            {
                throw new IllegalArgumentException("commandsPerFlush must be at least 1: " + commands);
            }
            commandsPerFlush = commands;
            return this;
        }

        public int commandsPerFlush()
        {
            return commandsPerFlush;
        }

        /**
         * Writes sooner than {@link #commandsPerFlush} once this many records (accounts, balance cells, orders,
         * removals …) have changed (default {@value #DEFAULT_RECORDS_PER_FLUSH}): a write is a pause of the shard
         * as long as its records take, so this bounds the pause.
         */
        public Context recordsPerFlush(final int records)
        {
            if (records < 1)
            {
                throw new IllegalArgumentException("recordsPerFlush must be at least 1: " + records);
            }
            recordsPerFlush = records;
            return this;
        }

        public int recordsPerFlush()
        {
            return recordsPerFlush;
        }

        public Context directory(final Path directory)
        {
            this.directory = directory;
            return this;
        }

        public Path directory()
        {
            return directory;
        }

        /** True (the default) for memory-mapped files in {@link #directory()}; false for maps in memory only. */
        public Context persisted(final boolean persisted)
        {
            this.persisted = persisted;
            return this;
        }

        public boolean persisted()
        {
            return persisted;
        }

        public Context entries(final StoreFile store, final long count)
        {
            entries.put(store, count);
            return this;
        }

        public long entries(final StoreFile store)
        {
            return entries.get(store);
        }

        public Context conclude()
        {
            if (persisted && null == directory)
            {
                throw new IllegalStateException("a persisted state needs a directory");
            }
            for (final StoreFile store : StoreFile.values())
            {
                if (entries(store) <= 0)
                {
                    throw new IllegalStateException(store + " entries must be positive: " + entries(store));
                }
            }
            return this;
        }
    }
}
