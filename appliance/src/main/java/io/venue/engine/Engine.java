package io.venue.engine;

import io.venue.engine.book.OrderBook;
import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateLimits;
import io.venue.engine.state.StateMeta;
import io.venue.engine.state.StateUnusableException;
import io.venue.engine.state.StoreFile;
import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.AgentCreateDecoder;
import io.venue.journal.sbe.AgentRevokeDecoder;
import io.venue.journal.sbe.AgentRotateDecoder;
import io.venue.journal.sbe.AmendDecoder;
import io.venue.journal.sbe.BatchDecoder;
import io.venue.journal.sbe.CancelAllDecoder;
import io.venue.journal.sbe.CancelByClientOrderIdDecoder;
import io.venue.journal.sbe.CancelDecoder;
import io.venue.journal.sbe.CancelReplaceDecoder;
import io.venue.journal.sbe.CreateAssetDecoder;
import io.venue.journal.sbe.CreateOutcomeMarketDecoder;
import io.venue.journal.sbe.CreateSpotMarketDecoder;
import io.venue.journal.sbe.DepositDecoder;
import io.venue.journal.sbe.HaltMarketDecoder;
import io.venue.journal.sbe.MergeDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.OwnerRevokeDecoder;
import io.venue.journal.sbe.PlaceOrderDecoder;
import io.venue.journal.sbe.ResumeMarketDecoder;
import io.venue.journal.sbe.SetKillSwitchDecoder;
import io.venue.journal.sbe.SetFixOnboardingDecoder;
import io.venue.journal.sbe.SetVaultOwnerDecoder;
import io.venue.journal.sbe.SplitDecoder;
import io.venue.journal.sbe.WithdrawDecoder;
import io.venue.journal.sbe.SessionOpenedDecoder;
import io.venue.journal.sbe.SessionClosedDecoder;
import io.venue.journal.sbe.SessionsResetDecoder;
import io.venue.journal.sbe.DeadManArmDecoder;
import io.venue.journal.sbe.CancelOnDisconnectArmDecoder;
import io.venue.journal.sbe.ProtectionTickDecoder;
import io.venue.engine.protect.ProtectionTable;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The deterministic matching engine of one shard: its only input is the command journal's records, its
 * only output the events it hands to the {@link EventSink}. It reads no clock (time is the command's
 * stamped {@code timestampMs}), no random source and never iterates hash order into its output, so
 * replaying the same commands under the same {@link EngineConfig} gives the same event bytes and the same
 * {@link #stateHash()}. Every refusal is an event; nothing escapes as an exception for bad input.
 * <p>
 * Not thread safe: one thread owns an engine.
 */
public final class Engine implements AutoCloseable
{
    private final ShardState state;
    private final Settlement settlement;
    private final OrderEntry orderEntry;
    private final Operator operator;
    private final AgentLifecycle agents;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final PlaceOrderDecoder placeOrder = new PlaceOrderDecoder();
    private final CancelDecoder cancel = new CancelDecoder();
    private final AmendDecoder amend = new AmendDecoder();
    private final CancelByClientOrderIdDecoder cancelByClientOrderId = new CancelByClientOrderIdDecoder();
    private final CancelAllDecoder cancelAll = new CancelAllDecoder();
    private final BatchDecoder batch = new BatchDecoder();
    private final SplitDecoder split = new SplitDecoder();
    private final MergeDecoder merge = new MergeDecoder();
    private final CancelReplaceDecoder cancelReplace = new CancelReplaceDecoder();
    private final CreateAssetDecoder createAsset = new CreateAssetDecoder();
    private final CreateSpotMarketDecoder createSpotMarket = new CreateSpotMarketDecoder();
    private final CreateOutcomeMarketDecoder createOutcomeMarket = new CreateOutcomeMarketDecoder();
    private final HaltMarketDecoder haltMarket = new HaltMarketDecoder();
    private final ResumeMarketDecoder resumeMarket = new ResumeMarketDecoder();
    private final SetKillSwitchDecoder setKillSwitch = new SetKillSwitchDecoder();
    private final DepositDecoder deposit = new DepositDecoder();
    private final WithdrawDecoder withdraw = new WithdrawDecoder();
    private final SetVaultOwnerDecoder setVaultOwner = new SetVaultOwnerDecoder();
    private final SetFixOnboardingDecoder setFixOnboarding = new SetFixOnboardingDecoder();
    private final AgentCreateDecoder agentCreate = new AgentCreateDecoder();
    private final AgentRotateDecoder agentRotate = new AgentRotateDecoder();
    private final AgentRevokeDecoder agentRevoke = new AgentRevokeDecoder();
    private final OwnerRevokeDecoder ownerRevoke = new OwnerRevokeDecoder();
    private final SessionOpenedDecoder sessionOpened = new SessionOpenedDecoder();
    private final SessionClosedDecoder sessionClosed = new SessionClosedDecoder();
    private final DeadManArmDecoder deadManArm = new DeadManArmDecoder();
    private final CancelOnDisconnectArmDecoder cancelOnDisconnectArm = new CancelOnDisconnectArmDecoder();
    private final Protections protections;
    private final StateHasher hasher = new StateHasher();
    private final CommandCheck check = CommandCheck.create();
    private long lastSequence;
    private long commands;
    /** Writes the commands' changes through to the Chronicle Map state; null in memory-only mode. */
    private StateMirror mirror;
    /** Commands applied since the mirror last wrote; it writes every {@code commandsPerFlush} and when idle. */
    private int unflushed;
    private int commandsPerFlush = 1;
    private int recordsPerFlush = Integer.MAX_VALUE;
    /** With several shards, places, amends and cancels are matched on the shards' threads; null with one. */
    private final ShardPipeline pipeline;
    /** With several shards: a state write was asked for in the middle of a group and waits for its end. */
    private boolean statePending;

    public Engine(final EngineConfig config, final EventSink sink)
    {
        state = new ShardState(config, sink);
        final Gate gate = new Gate(state);
        settlement = new Settlement(state, gate);
        orderEntry = new OrderEntry(state, gate, settlement);
        operator = new Operator(state, gate, settlement, orderEntry);
        agents = new AgentLifecycle(state, gate);
        protections = new Protections(state, orderEntry);
        pipeline = config.shards() > 1 ?
            new ShardPipeline(state, gate, orderEntry, settlement, new ShardPipeline.Completion()
        {
            public void completed(final long sequence, final boolean command)
            {
                settled(sequence, command);
            }

            public void groupStarts()
            {
                Engine.this.groupStarts();
            }
        }) : null;
    }

    /** A command the pipeline settled: it now counts as applied. */
    private void settled(final long sequence, final boolean command)
    {
        lastSequence = sequence;
        if (command)
        {
            commands++;
        }
        unflushed++;
    }

    /**
     * An engine that writes every command's state changes through to {@code stored} (see {@link StateMirror}),
     * first rebuilding its in-memory state from what {@code stored} holds: nothing for a state opened
     * {@code EMPTY}, the full state (accounts in their numbering, balances, nonce windows, rate buckets, kill
     * switches, agents, assets, markets and the books) for one opened {@code CONSISTENT}. The engine then
     * continues from {@link #lastSequence()} = the stored applied sequence, exactly as if it had never stopped,
     * provided {@code config} is the one the state was made under. The caller keeps {@code stored} and closes
     * it (between commands) after the last command; {@link PersistedEngine} does both.
     *
     * @throws StateUnusableException (MAP_FILE_CORRUPT) when the stored entries contradict each other; the
     *                                caller then replays the journal from the start into a fresh state.
     * @throws IllegalArgumentException when a map is sized for fewer entries than the engine's
     *                                  {@link EngineConfig#stateLimits} allow: it could overflow in the middle of a
     *                                  write, so the engine does not start (size the maps with
     *                                  {@link EngineState.Context#sizeFor(StateLimits)}).
     */
    public static Engine open(final EngineConfig config, final EventSink sink, final EngineState stored)
        throws StateUnusableException
    {
        requireRoom(config.stateLimits(), stored.context());
        if (config.protectionCapacity() > stored.context().entries(StoreFile.PROTECTIONS))
        {
            throw new IllegalArgumentException("the protections map holds " +
                stored.context().entries(StoreFile.PROTECTIONS) + " entries but the engine may make " +
                config.protectionCapacity());
        }
        if (config.fixOnboardingCapacity() > stored.context().entries(StoreFile.FIX_ONBOARDING))
        {
            throw new IllegalArgumentException("the FIX onboarding map holds " +
                stored.context().entries(StoreFile.FIX_ONBOARDING) + " entries but the engine may make " +
                config.fixOnboardingCapacity());
        }
        final Engine engine = new Engine(config, sink);
        StateRestore.restore(engine.state, stored);
        final long applied = stored.meta().appliedSequence();
        if (applied != StateMeta.NO_SEQUENCE)
        {
            engine.lastSequence = applied;
        }
        engine.mirror = new StateMirror(engine.state, stored);
        engine.commandsPerFlush = stored.context().commandsPerFlush();
        engine.recordsPerFlush = stored.context().recordsPerFlush();
        return engine;
    }

    private static void requireRoom(final StateLimits limits, final EngineState.Context context)
    {
        for (final StoreFile store : StoreFile.values())
        {
            final long limit = limits.limitOf(store);
            if (limit > context.entries(store))
            {
                throw new IllegalArgumentException("the " + store + " map holds " + context.entries(store) +
                    " entries but the engine may make " + limit +
                    ": size the state with Context.sizeFor(the engine's limits)");
            }
        }
    }

    /**
     * Applies one command record (SBE message header and body).
     *
     * @return false if the record is not a command of this schema or is shorter than its header says;
     * it is then ignored whole, with no event and no change.
     * @throws IllegalStateException with a state attached, when the command's sequence is not after the stored
     *                               one (checked before anything changes), or when writing the state fails.
     */
    public boolean onCommand(final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            return false;
        }
        header.wrap(buffer, offset);
        final int templateId = header.templateId();
        final int blockLength = header.blockLength();
        final int version = header.version();
        // a version this build does not read is refused, never half read (JOURNAL-SCHEMA.md, section 9)
        if (header.schemaId() != MessageHeaderDecoder.SCHEMA_ID || !JournalRecords.readsVersion(version) ||
            MessageHeaderDecoder.ENCODED_LENGTH + blockLength > length)
        {
            return false;
        }
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        // every command starts with sequence (u64) and timestampMs (u64)
        if (blockLength < 16)
        {
            return false;
        }
        final long sequence = buffer.getLong(body, ByteOrder.LITTLE_ENDIAN);
        final long nowMs = buffer.getLong(body + 8, ByteOrder.LITTLE_ENDIAN);
        if (JournalRecords.isRefusalAudit(templateId))
        {
            if (null != mirror)
            {
                mirror.checkSequence(sequence);
            }
            if (null != pipeline)
            {
                return submitted(templateId, sequence, nowMs, buffer, offset, length);
            }
            lastSequence = sequence;
            state.events.commandEnd();
            afterCommand();
            return true;
        }
        if (!isCommand(templateId, version) || blockLength < minimumBlockLength(templateId))
        {
            return false;
        }
        if (templateId == BatchDecoder.TEMPLATE_ID && !batchFits(buffer, body, blockLength, version, offset + length))
        {
            return false;
        }
        if (!readable(templateId, buffer, body, blockLength, version))
        {
            return false;
        }
        if (null != mirror)
        {
            mirror.checkSequence(sequence);
        }
        if (null != pipeline)
        {
            // a protection due at this command fires before it, on this thread: the command is then a barrier
            if (!state.protections.mayBeDue(nowMs) && submitted(templateId, sequence, nowMs, buffer, offset, length))
            {
                return true;
            }
            pipeline.beginBarrier();
        }
        state.events.command(sequence, version);
        orderEntry.command(nowMs, version);
        operator.command(nowMs);
        expire(nowMs);
        protections.command(nowMs);
        if (state.protections.mayBeDue(nowMs))
        {
            protections.fire(nowMs);
        }
        // the decoders were wrapped by readable(); only the batch is wrapped again to rewind its legs
        switch (templateId)
        {
            case PlaceOrderDecoder.TEMPLATE_ID -> orderEntry.onPlace(placeOrder);
            case CancelDecoder.TEMPLATE_ID -> orderEntry.onCancel(cancel);
            case AmendDecoder.TEMPLATE_ID -> orderEntry.onAmend(amend);
            case CancelByClientOrderIdDecoder.TEMPLATE_ID -> orderEntry.onCancelByClientOrderId(cancelByClientOrderId);
            case CancelAllDecoder.TEMPLATE_ID -> orderEntry.onCancelAll(cancelAll);
            case BatchDecoder.TEMPLATE_ID -> orderEntry.onBatch(batch.wrap(buffer, body, blockLength, version));
            case SplitDecoder.TEMPLATE_ID -> orderEntry.onSplit(split);
            case MergeDecoder.TEMPLATE_ID -> orderEntry.onMerge(merge);
            case CancelReplaceDecoder.TEMPLATE_ID -> orderEntry.onCancelReplace(cancelReplace);
            case CreateAssetDecoder.TEMPLATE_ID -> operator.onCreateAsset(createAsset);
            case CreateSpotMarketDecoder.TEMPLATE_ID -> operator.onCreateSpotMarket(createSpotMarket);
            case CreateOutcomeMarketDecoder.TEMPLATE_ID -> operator.onCreateOutcomeMarket(createOutcomeMarket);
            case HaltMarketDecoder.TEMPLATE_ID -> operator.onHaltMarket(haltMarket);
            case ResumeMarketDecoder.TEMPLATE_ID -> operator.onResumeMarket(resumeMarket);
            case SetKillSwitchDecoder.TEMPLATE_ID -> operator.onSetKillSwitch(setKillSwitch);
            case DepositDecoder.TEMPLATE_ID -> operator.onDeposit(deposit);
            case WithdrawDecoder.TEMPLATE_ID -> operator.onWithdraw(withdraw);
            case SetVaultOwnerDecoder.TEMPLATE_ID -> operator.onSetVaultOwner(setVaultOwner);
            case SetFixOnboardingDecoder.TEMPLATE_ID -> operator.onSetFixOnboarding(setFixOnboarding);
            case AgentCreateDecoder.TEMPLATE_ID -> agents.onCreate(agentCreate);
            case AgentRotateDecoder.TEMPLATE_ID -> agents.onRotate(agentRotate);
            case AgentRevokeDecoder.TEMPLATE_ID -> agents.onRevoke(agentRevoke);
            case SessionOpenedDecoder.TEMPLATE_ID -> protections.onSessionOpened(sessionOpened);
            case SessionClosedDecoder.TEMPLATE_ID -> protections.onSessionClosed(sessionClosed);
            case DeadManArmDecoder.TEMPLATE_ID -> protections.onDeadManArm(deadManArm);
            case CancelOnDisconnectArmDecoder.TEMPLATE_ID -> protections.onCancelOnDisconnectArm(cancelOnDisconnectArm);
            case SessionsResetDecoder.TEMPLATE_ID -> protections.onSessionsReset();
            case ProtectionTickDecoder.TEMPLATE_ID ->
            {
                // its stamped time fired what was due, above
            }
            default -> agents.onOwnerRevoke(ownerRevoke);
        }
        lastSequence = sequence;
        commands++;
        state.events.commandEnd();
        if (null != pipeline)
        {
            // counted first: a state write waiting for the group's start happens in endBarrier and includes it
            unflushed++;
            pipeline.endBarrier();
            if (stateDue())
            {
                flushState();
            }
            return true;
        }
        afterCommand();
        return true;
    }

    /** Hands a command to the pipeline; false when it is not one the pipeline takes (a barrier). */
    private boolean submitted(
        final int templateId, final long sequence, final long nowMs, final DirectBuffer buffer, final int offset,
        final int length)
    {
        if (!pipeline.submit(templateId, sequence, nowMs, buffer, offset, length))
        {
            return false;
        }
        if (stateDue())
        {
            // written where the next group begins (groupStarts): draining here would stall every later command of
            // the group
            statePending = true;
        }
        return true;
    }

    private void afterCommand()
    {
        unflushed++;
        if (stateDue())
        {
            flushState();
        }
    }

    /** A state write is due: {@code commandsPerFlush} commands or {@code recordsPerFlush} records since the last. */
    private boolean stateDue()
    {
        return null != mirror && (unflushed >= commandsPerFlush || state.changes.records() >= recordsPerFlush);
    }

    /**
     * Writes what the commands since the last write changed to the Chronicle Map state and marks it as
     * reflecting {@link #lastSequence()}. The engine does this every {@code commandsPerFlush} commands, or sooner
     * once {@code recordsPerFlush} records wait ({@link EngineState.Context}); its duty cycle calls it when no
     * command is waiting, and closing calls it last. The sink writes the events it holds first. Does nothing in
     * memory-only mode or when nothing is pending.
     * <p>
     * With several shards the state is written only where a group begins (after the last command of a group, or
     * after a barrier), because admission inside a group reads the group's start: a state written in the middle of
     * one could not be continued from exactly. Asked in the middle of a group, the write waits for its end; a restart
     * before then replays the group's commands from the journal.
     */
    public void flushState()
    {
        if (null != pipeline)
        {
            pipeline.drain();
            if (!pipeline.atGroupStart(lastSequence))
            {
                state.events.flush();
                statePending = true;
                return;
            }
        }
        writeState();
    }

    /** Where a group begins (told by the pipeline): a write asked for in the group's middle happens now. */
    private void groupStarts()
    {
        if (statePending)
        {
            writeState();
        }
    }

    private void writeState()
    {
        statePending = false;
        if (null != mirror && unflushed > 0)
        {
            // the events first: after a crash the state must not be ahead of the event journal
            state.events.flush();
            mirror.flush(lastSequence);
            unflushed = 0;
        }
    }

    /** Makes the sink write the events it holds ({@link EventSink#flush}): after each batch of commands. */
    public void flushEvents()
    {
        drain();
        state.events.flush();
    }

    /**
     * With several shards: settles every command handed on to the shards, so their events have reached the sink
     * (which may still hold them: see {@link #flushEvents}) and the whole state reflects {@link #lastSequence()}.
     * Nothing to do with one shard, which applies each command before {@link #onCommand} returns.
     */
    public void drain()
    {
        if (null != pipeline)
        {
            pipeline.drain();
        }
    }

    /** Stops the matching shards' threads (nothing to do with one shard); after the last command. */
    @Override
    public void close()
    {
        if (null != pipeline)
        {
            pipeline.close();
        }
    }

    /** The sequence of the last command applied (or skipped as a pre-journal reject). */
    public long lastSequence()
    {
        return lastSequence;
    }

    /** Commands applied since this engine was made. */
    public long commandCount()
    {
        return commands;
    }

    /**
     * A blake3 digest of the whole state, fed in a fixed order: accounts, their nonce windows, rate buckets
     * and kill switches; the venue switch; assets; markets; every balance; every book in price-time order;
     * agents; the priority counter. Equal digests mean equal state.
     */
    public byte[] stateHash()
    {
        drain();
        return hasher.hash(state);
    }

    /** Open orders across all books. */
    public int openOrders()
    {
        drain();
        return state.orders.size();
    }

    /** For checks and tests: the engine's view of balances, books and markets. */
    public EngineView view()
    {
        drain();
        return new EngineView(state);
    }


    /** Removes resting orders whose expiry has passed on the stamped clock, book by book in number order. */
    private void expire(final long nowMs)
    {
        final OrderBook[] books = state.books;
        for (int book = 0; book < books.length; book++)
        {
            final OrderBook orderBook = books[book];
            if (orderBook != null)
            {
                final long next = orderBook.nextExpiry();
                if (next != OrderBook.NO_EXPIRY && next <= nowMs)
                {
                    orderBook.expireUpTo(nowMs, settlement.forBook(book));
                }
            }
        }
    }

    /**
     * Wraps the template's decoder and checks that every enum field holds a value the schema defines:
     * the generated decoders throw on any other, and a record the engine cannot read is ignored whole.
     */
    private boolean readable(final int templateId, final DirectBuffer buffer, final int body, final int blockLength,
        final int version)
    {
        return switch (templateId)
        {
            case PlaceOrderDecoder.TEMPLATE_ID -> check.place(placeOrder.wrap(buffer, body, blockLength, version));
            case CancelDecoder.TEMPLATE_ID -> check.cancel(cancel.wrap(buffer, body, blockLength, version));
            case AmendDecoder.TEMPLATE_ID -> check.amend(amend.wrap(buffer, body, blockLength, version));
            case CancelByClientOrderIdDecoder.TEMPLATE_ID ->
                check.cancelByClientOrderId(cancelByClientOrderId.wrap(buffer, body, blockLength, version));
            case CancelAllDecoder.TEMPLATE_ID -> check.cancelAll(cancelAll.wrap(buffer, body, blockLength, version));
            case BatchDecoder.TEMPLATE_ID -> check.batch(batch.wrap(buffer, body, blockLength, version));
            case SplitDecoder.TEMPLATE_ID -> check.envelope(buffer,
                split.wrap(buffer, body, blockLength, version).offset() +
                SplitDecoder.envelopeEncodingOffset());
            case MergeDecoder.TEMPLATE_ID -> check.envelope(buffer,
                merge.wrap(buffer, body, blockLength, version).offset() +
                MergeDecoder.envelopeEncodingOffset());
            case CancelReplaceDecoder.TEMPLATE_ID -> check.cancelReplace(
                cancelReplace.wrap(buffer, body, blockLength, version));
            case CreateAssetDecoder.TEMPLATE_ID -> check.envelope(buffer,
                createAsset.wrap(buffer, body, blockLength, version).offset() +
                CreateAssetDecoder.envelopeEncodingOffset());
            case CreateSpotMarketDecoder.TEMPLATE_ID -> check.envelope(buffer,
                createSpotMarket.wrap(buffer, body, blockLength, version).offset() +
                CreateSpotMarketDecoder.envelopeEncodingOffset());
            case CreateOutcomeMarketDecoder.TEMPLATE_ID -> check.envelope(buffer,
                createOutcomeMarket.wrap(buffer, body, blockLength, version).offset() +
                CreateOutcomeMarketDecoder.envelopeEncodingOffset());
            case HaltMarketDecoder.TEMPLATE_ID -> check.envelope(buffer,
                haltMarket.wrap(buffer, body, blockLength, version).offset() +
                HaltMarketDecoder.envelopeEncodingOffset());
            case ResumeMarketDecoder.TEMPLATE_ID -> check.envelope(buffer,
                resumeMarket.wrap(buffer, body, blockLength, version).offset() +
                ResumeMarketDecoder.envelopeEncodingOffset());
            case SetKillSwitchDecoder.TEMPLATE_ID -> check.setKillSwitch(
                setKillSwitch.wrap(buffer, body, blockLength, version));
            case DepositDecoder.TEMPLATE_ID -> check.envelope(buffer,
                deposit.wrap(buffer, body, blockLength, version).offset() + DepositDecoder.envelopeEncodingOffset());
            case WithdrawDecoder.TEMPLATE_ID -> check.envelope(buffer,
                withdraw.wrap(buffer, body, blockLength, version).offset() + WithdrawDecoder.envelopeEncodingOffset());
            case SetVaultOwnerDecoder.TEMPLATE_ID -> check.setVaultOwner(
                setVaultOwner.wrap(buffer, body, blockLength, version));
            case SetFixOnboardingDecoder.TEMPLATE_ID -> check.setFixOnboarding(
                setFixOnboarding.wrap(buffer, body, blockLength, version));
            case AgentCreateDecoder.TEMPLATE_ID -> check.agentCreate(
                agentCreate.wrap(buffer, body, blockLength, version));
            case AgentRotateDecoder.TEMPLATE_ID -> check.agentRotate(
                agentRotate.wrap(buffer, body, blockLength, version));
            case AgentRevokeDecoder.TEMPLATE_ID -> check.agentRevoke(
                agentRevoke.wrap(buffer, body, blockLength, version));
            case SessionOpenedDecoder.TEMPLATE_ID -> check.sessionOpened(
                sessionOpened.wrap(buffer, body, blockLength, version));
            case SessionClosedDecoder.TEMPLATE_ID -> sessionClosed.wrap(buffer, body, blockLength, version) != null;
            case DeadManArmDecoder.TEMPLATE_ID -> check.deadManArm(deadManArm.wrap(buffer, body, blockLength, version));
            case CancelOnDisconnectArmDecoder.TEMPLATE_ID -> check.cancelOnDisconnectArm(
                cancelOnDisconnectArm.wrap(buffer, body, blockLength, version));
            case SessionsResetDecoder.TEMPLATE_ID, ProtectionTickDecoder.TEMPLATE_ID -> true;
            default -> ownerRevoke.wrap(buffer, body, blockLength, version) != null;
        };
    }

    /** The fixed block a record of this template must carry in full, or an impossible length for others. */
    private static int minimumBlockLength(final int templateId)
    {
        return switch (templateId)
        {
            case PlaceOrderDecoder.TEMPLATE_ID -> PlaceOrderDecoder.BLOCK_LENGTH;
            case CancelDecoder.TEMPLATE_ID -> CancelDecoder.BLOCK_LENGTH;
            case AmendDecoder.TEMPLATE_ID -> AmendDecoder.BLOCK_LENGTH;
            case CancelByClientOrderIdDecoder.TEMPLATE_ID -> CancelByClientOrderIdDecoder.BLOCK_LENGTH;
            case CancelAllDecoder.TEMPLATE_ID -> CancelAllDecoder.BLOCK_LENGTH;
            case BatchDecoder.TEMPLATE_ID -> BatchDecoder.BLOCK_LENGTH;
            case SplitDecoder.TEMPLATE_ID -> SplitDecoder.BLOCK_LENGTH;
            case MergeDecoder.TEMPLATE_ID -> MergeDecoder.BLOCK_LENGTH;
            case CancelReplaceDecoder.TEMPLATE_ID -> CancelReplaceDecoder.BLOCK_LENGTH;
            case CreateAssetDecoder.TEMPLATE_ID -> CreateAssetDecoder.BLOCK_LENGTH;
            case CreateSpotMarketDecoder.TEMPLATE_ID -> CreateSpotMarketDecoder.BLOCK_LENGTH;
            case CreateOutcomeMarketDecoder.TEMPLATE_ID -> CreateOutcomeMarketDecoder.BLOCK_LENGTH;
            case HaltMarketDecoder.TEMPLATE_ID -> HaltMarketDecoder.BLOCK_LENGTH;
            case ResumeMarketDecoder.TEMPLATE_ID -> ResumeMarketDecoder.BLOCK_LENGTH;
            case SetKillSwitchDecoder.TEMPLATE_ID -> SetKillSwitchDecoder.BLOCK_LENGTH;
            case DepositDecoder.TEMPLATE_ID -> DepositDecoder.BLOCK_LENGTH;
            case WithdrawDecoder.TEMPLATE_ID -> WithdrawDecoder.BLOCK_LENGTH;
            case SetVaultOwnerDecoder.TEMPLATE_ID -> SetVaultOwnerDecoder.BLOCK_LENGTH;
            case SetFixOnboardingDecoder.TEMPLATE_ID -> SetFixOnboardingDecoder.BLOCK_LENGTH;
            case AgentCreateDecoder.TEMPLATE_ID -> AgentCreateDecoder.BLOCK_LENGTH;
            case AgentRotateDecoder.TEMPLATE_ID -> AgentRotateDecoder.BLOCK_LENGTH;
            case AgentRevokeDecoder.TEMPLATE_ID -> AgentRevokeDecoder.BLOCK_LENGTH;
            case OwnerRevokeDecoder.TEMPLATE_ID -> OwnerRevokeDecoder.BLOCK_LENGTH;
            case SessionOpenedDecoder.TEMPLATE_ID -> SessionOpenedDecoder.BLOCK_LENGTH;
            case SessionClosedDecoder.TEMPLATE_ID -> SessionClosedDecoder.BLOCK_LENGTH;
            case DeadManArmDecoder.TEMPLATE_ID -> DeadManArmDecoder.BLOCK_LENGTH;
            case CancelOnDisconnectArmDecoder.TEMPLATE_ID -> CancelOnDisconnectArmDecoder.BLOCK_LENGTH;
            case ProtectionTickDecoder.TEMPLATE_ID -> ProtectionTickDecoder.BLOCK_LENGTH;
            case SessionsResetDecoder.TEMPLATE_ID -> SessionsResetDecoder.BLOCK_LENGTH;
            default -> Integer.MAX_VALUE;
        };
    }

    /** A command template this engine applies; the protection commands only in records of version 12 or later. */
    private static boolean isCommand(final int templateId, final int version)
    {
        return (templateId >= PlaceOrderDecoder.TEMPLATE_ID && templateId <= CancelReplaceDecoder.TEMPLATE_ID) ||
            (templateId >= CreateAssetDecoder.TEMPLATE_ID && templateId <= SetVaultOwnerDecoder.TEMPLATE_ID) ||
            (templateId >= AgentCreateDecoder.TEMPLATE_ID && templateId <= OwnerRevokeDecoder.TEMPLATE_ID) ||
            (JournalRecords.isProtection(templateId) && version >= JournalRecords.PROTECTIONS_VERSION) ||
            (templateId == SetFixOnboardingDecoder.TEMPLATE_ID && version >= JournalRecords.FIX_ONBOARDING_VERSION);
    }

    /**
     * The earliest protection deadline pending, a lower bound ({@link ProtectionTable#NONE} for none): read by the
     * engine's own thread only; {@link EngineAgent} publishes it for the sequencer's tick.
     */
    public long nextProtectionDeadline()
    {
        return state.protections.nextDeadline();
    }

    /** Sessions the engine knows open (a scan of the protection table: not for the hot path). */
    public int openSessions()
    {
        int open = 0;
        for (int slot = state.protections.next(0, ProtectionTable.SESSION); slot >= 0;
            slot = state.protections.next(slot + 1, ProtectionTable.SESSION))
        {
            open++;
        }
        return open;
    }

    /** Protection table slots in use (sessions, pending sweeps, timers, arms). */
    public int protectionsInUse()
    {
        return state.protections.size();
    }

    /** FIX onboarding records held (one per credential ever given one). */
    public int fixOnboardingRecords()
    {
        return state.fixOnboarding.size();
    }

    /** A Batch's legs group must lie inside the record: at most 1,000 legs of the declared size. */
    private static boolean batchFits(final DirectBuffer buffer, final int body, final int blockLength,
        final int version, final int end)
    {
        final int groupHeader = body + blockLength;
        if (groupHeader + 4 > end)
        {
            return false;
        }
        final int legBlock = buffer.getShort(groupHeader, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
        final int legs = buffer.getShort(groupHeader + 2, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
        return legs <= 1_000 && legBlock >= BatchDecoder.LegsDecoder.sbeBlockLength() &&
            (long)groupHeader + 4 + (long)legs * legBlock <= end;
    }
}
