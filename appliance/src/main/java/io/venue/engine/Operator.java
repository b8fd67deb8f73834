package io.venue.engine;

import io.venue.engine.account.Accounts;
import io.venue.engine.index.FixedKeyIndex;
import io.venue.engine.market.Assets;
import io.venue.engine.onboard.FixOnboardingTable;
import io.venue.engine.market.MarketKind;
import io.venue.engine.market.Markets;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.CreateAssetDecoder;
import io.venue.journal.sbe.CreateOutcomeMarketDecoder;
import io.venue.journal.sbe.CreateSpotMarketDecoder;
import io.venue.journal.sbe.DepositDecoder;
import io.venue.journal.sbe.HaltMarketDecoder;
import io.venue.journal.sbe.KillScope;
import io.venue.journal.sbe.MarketCreatedEncoder;
import io.venue.journal.sbe.MarketStatus;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.ResumeMarketDecoder;
import io.venue.journal.sbe.SetFixOnboardingDecoder;
import io.venue.journal.sbe.SetKillSwitchDecoder;
import io.venue.journal.sbe.SetVaultOwnerDecoder;
import io.venue.journal.sbe.WithdrawDecoder;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The operator actions: list assets and markets, halt and resume, kill switches, deposits and
 * withdrawals. Only an operator key (EngineConfig) may sign them. Turning a kill switch on cancels every
 * open order in its scope and blocks new orders; cancels stay allowed.
 */
final class Operator
{
    /** Book numbers are 11 bits of an order handle: 2,048 books, 1,024 markets. */
    static final int MAX_MARKETS = 1 << (31 - Orders.SLOT_BITS - 1);

    private final ShardState state;
    private final Gate gate;
    private final Settlement settlement;
    private final OrderEntry orderEntry;
    private long nowMs;
    private final int[] onboardingMarkets = new int[FixOnboardingTable.MAX_MARKETS];

    Operator(final ShardState state, final Gate gate, final Settlement settlement, final OrderEntry orderEntry)
    {
        this.state = state;
        this.gate = gate;
        this.settlement = settlement;
        this.orderEntry = orderEntry;
    }

    void command(final long nowMs)
    {
        this.nowMs = nowMs;
    }

    void onCreateAsset(final CreateAssetDecoder create)
    {
        final DirectBuffer buffer = create.buffer();
        final int envelope = create.offset() + CreateAssetDecoder.envelopeEncodingOffset();
        final int account = gate.admit(buffer, envelope, Gate.SCOPE_OPERATOR, nowMs);
        if (account < 0)
        {
            return;
        }
        final Assets assets = state.assets;
        if (assets.find(create.asset()) != Assets.MISSING)
        {
            gate.reject(buffer, envelope, account, RejectCode.ASSET_EXISTS);
            return;
        }
        if (assets.add(create.asset()) == Assets.MISSING)
        {
            gate.reject(buffer, envelope, account, RejectCode.INVALID_ACTION);
            return;
        }
        state.events.actionAccepted(buffer, envelope);
        state.events.assetCreated(create.asset(), buffer, create.offset() + CreateAssetDecoder.symbolEncodingOffset());
    }

    void onCreateSpotMarket(final CreateSpotMarketDecoder create)
    {
        final DirectBuffer buffer = create.buffer();
        final int envelope = create.offset() + CreateSpotMarketDecoder.envelopeEncodingOffset();
        final int account = gate.admit(buffer, envelope, Gate.SCOPE_OPERATOR, nowMs);
        if (account < 0)
        {
            return;
        }
        final int base = state.assets.find(create.baseAsset());
        final int quote = state.assets.find(create.quoteAsset());
        final RejectCode refusal = marketRefusal(create.market(), create.tickSize(), create.lotSize(), create.minQty());
        if (refusal != null || base == Assets.MISSING || quote == Assets.MISSING || base == quote)
        {
            gate.reject(buffer, envelope, account, refusal != null ? refusal :
                base == quote && base != Assets.MISSING ? RejectCode.INVALID_ACTION : RejectCode.UNKNOWN_ASSET);
            return;
        }
        final int market = state.markets.add(create.market(), MarketKind.SPOT, base, -1, quote,
            create.tickSize(), create.lotSize(), create.minQty());
        state.addBook(2 * market);
        state.events.actionAccepted(buffer, envelope);
        final MarketCreatedEncoder created = state.events.marketCreated();
        // FQN-CLASH: the codec's MarketKind (MarketKind here is the engine's)
        created.market(create.market()).kind(io.venue.journal.sbe.MarketKind.SPOT).baseAsset(create.baseAsset())
            .quoteAsset(create.quoteAsset()).collateralAsset(0).tickSize(create.tickSize()).lotSize(create.lotSize())
            .minQty(create.minQty());
        state.events.emitMarketCreated();
    }

    void onCreateOutcomeMarket(final CreateOutcomeMarketDecoder create)
    {
        final DirectBuffer buffer = create.buffer();
        final int envelope = create.offset() + CreateOutcomeMarketDecoder.envelopeEncodingOffset();
        final int account = gate.admit(buffer, envelope, Gate.SCOPE_OPERATOR, nowMs);
        if (account < 0)
        {
            return;
        }
        final int collateral = state.assets.find(create.collateralAsset());
        RejectCode refusal = marketRefusal(create.market(), create.tickSize(), create.lotSize(), create.minQty());
        if (refusal == null && collateral == Assets.MISSING)
        {
            refusal = RejectCode.UNKNOWN_ASSET;
        }
        if (refusal == null && state.assets.isFull(2))
        {
            refusal = RejectCode.INVALID_ACTION;
        }
        if (refusal != null)
        {
            gate.reject(buffer, envelope, account, refusal);
            return;
        }
        final int yes = state.assets.addShare();
        final int no = state.assets.addShare();
        state.ledger.pairShares(yes, no);
        final int market = state.markets.add(create.market(), MarketKind.OUTCOME, yes, no, collateral,
            create.tickSize(), create.lotSize(), create.minQty());
        state.addBook(2 * market);
        state.addBook(2 * market + 1);
        state.events.actionAccepted(buffer, envelope);
        final MarketCreatedEncoder created = state.events.marketCreated();
        // FQN-CLASH: the codec's MarketKind (MarketKind here is the engine's)
        created.market(create.market()).kind(io.venue.journal.sbe.MarketKind.OUTCOME).baseAsset(0).quoteAsset(0)
            .collateralAsset(create.collateralAsset()).tickSize(create.tickSize()).lotSize(create.lotSize())
            .minQty(create.minQty());
        state.events.emitMarketCreated();
    }

    void onHaltMarket(final HaltMarketDecoder halt)
    {
        status(halt.buffer(), halt.offset() + HaltMarketDecoder.envelopeEncodingOffset(), halt.market(), true);
    }

    void onResumeMarket(final ResumeMarketDecoder resume)
    {
        status(resume.buffer(), resume.offset() + ResumeMarketDecoder.envelopeEncodingOffset(), resume.market(), false);
    }

    void onSetKillSwitch(final SetKillSwitchDecoder kill)
    {
        final DirectBuffer buffer = kill.buffer();
        final int envelope = kill.offset() + SetKillSwitchDecoder.envelopeEncodingOffset();
        final int account = gate.admit(buffer, envelope, Gate.SCOPE_OPERATOR, nowMs);
        if (account < 0)
        {
            return;
        }
        final boolean active = kill.active() == BooleanType.TRUE;
        final KillScope scope = kill.scope();
        int target = -1;
        if (scope == KillScope.ACCOUNT)
        {
            final int targetOffset = kill.offset() + SetKillSwitchDecoder.accountEncodingOffset();
            if (state.accounts.find(buffer, targetOffset) == FixedKeyIndex.MISSING && !state.roomForAccounts(1))
            {
                gate.reject(buffer, envelope, account, RejectCode.CAPACITY_LIMIT);
                return;
            }
            target = state.addAccount(buffer, targetOffset);
        }
        else if (scope == KillScope.MARKET)
        {
            target = state.markets.find(kill.market());
            if (target == Markets.MISSING)
            {
                gate.reject(buffer, envelope, account, RejectCode.UNKNOWN_MARKET);
                return;
            }
        }
        else if (scope != KillScope.VENUE)
        {
            gate.reject(buffer, envelope, account, RejectCode.INVALID_ACTION);
            return;
        }
        state.events.actionAccepted(buffer, envelope);
        switch (scope)
        {
            case ACCOUNT -> state.accountKilled[target] = active;
            case MARKET -> state.markets.killed(target, active);
            default -> state.venueKilled = active;
        }
        if (scope == KillScope.ACCOUNT)
        {
            state.accountChanged(target);
        }
        else if (scope == KillScope.MARKET)
        {
            state.marketChanged(target);
        }
        state.events.killSwitchChanged().scope(scope)
            .putAccount(buffer, kill.offset() + SetKillSwitchDecoder.accountEncodingOffset(), 20)
            .market(kill.market()).active(kill.active());
        state.events.emitKillSwitchChanged();
        if (active)
        {
            orderEntry.cancelAll(scope == KillScope.ACCOUNT ? target : -1, scope == KillScope.MARKET ? target : -1);
        }
    }

    void onDeposit(final DepositDecoder deposit)
    {
        final DirectBuffer buffer = deposit.buffer();
        final int envelope = deposit.offset() + DepositDecoder.envelopeEncodingOffset();
        final int operator = gate.admit(buffer, envelope, Gate.SCOPE_OPERATOR, nowMs);
        if (operator < 0)
        {
            return;
        }
        final int asset = state.assets.find(deposit.asset());
        if (asset == Assets.MISSING)
        {
            gate.reject(buffer, envelope, operator, RejectCode.UNKNOWN_ASSET);
            return;
        }
        final long amount = deposit.amount();
        if (amount < 0 || amount > ShardState.MAX_SUPPLY - state.supply[asset])
        {
            // the asset's supply stays below 2^62, so no balance can overflow anywhere
            gate.reject(buffer, envelope, operator, RejectCode.INVALID_QTY);
            return;
        }
        final int accountOffset = deposit.offset() + DepositDecoder.accountEncodingOffset();
        final int known = state.accounts.find(buffer, accountOffset);
        if ((known == FixedKeyIndex.MISSING && !state.roomForAccounts(1)) ||
            !state.roomForCells(known == FixedKeyIndex.MISSING ? state.accounts.count() : known, asset, -1))
        {
            gate.reject(buffer, envelope, operator, RejectCode.CAPACITY_LIMIT);
            return;
        }
        final int account = state.addAccount(buffer, accountOffset);
        state.ledger.credit(account, asset, amount);
        state.supply[asset] += amount;
        state.events.actionAccepted(buffer, envelope);
        settlement.balance(account, asset);
    }

    void onWithdraw(final WithdrawDecoder withdraw)
    {
        final DirectBuffer buffer = withdraw.buffer();
        final int envelope = withdraw.offset() + WithdrawDecoder.envelopeEncodingOffset();
        final int operator = gate.admit(buffer, envelope, Gate.SCOPE_OPERATOR, nowMs);
        if (operator < 0)
        {
            return;
        }
        final int asset = state.assets.find(withdraw.asset());
        if (asset == Assets.MISSING)
        {
            gate.reject(buffer, envelope, operator, RejectCode.UNKNOWN_ASSET);
            return;
        }
        final Accounts accounts = state.accounts;
        final int account = accounts.find(buffer, withdraw.offset() + WithdrawDecoder.accountEncodingOffset());
        // a cell never opened holds nothing, and is not opened (made a record) by a refused withdrawal
        if (account == FixedKeyIndex.MISSING || withdraw.amount() < 0 || !state.ledger.isOpen(account, asset) ||
            !state.ledger.debit(account, asset, withdraw.amount()))
        {
            gate.reject(buffer, envelope, operator, RejectCode.INSUFFICIENT_BALANCE);
            return;
        }
        state.supply[asset] -= withdraw.amount();
        state.events.actionAccepted(buffer, envelope);
        settlement.balance(account, asset);
    }

    void onSetVaultOwner(final SetVaultOwnerDecoder set)
    {
        final DirectBuffer buffer = set.buffer();
        final int envelope = set.offset() + SetVaultOwnerDecoder.envelopeEncodingOffset();
        final int operator = gate.admit(buffer, envelope, Gate.SCOPE_OPERATOR, nowMs);
        if (operator < 0)
        {
            return;
        }
        final int accountOffset = set.offset() + SetVaultOwnerDecoder.accountEncodingOffset();
        final int ownerOffset = set.offset() + SetVaultOwnerDecoder.ownerEncodingOffset();
        final boolean hasOwner = set.hasOwner() == BooleanType.TRUE;
        // the zero address signs nothing: as an owner it would stand for every signer that was not recovered
        if (hasOwner && (sameAddress(buffer, accountOffset, ownerOffset) || Gate.isZeroAddress(buffer, ownerOffset)))
        {
            gate.reject(buffer, envelope, operator, RejectCode.INVALID_ACTION);
            return;
        }
        final int unknown = (state.accounts.find(buffer, accountOffset) == FixedKeyIndex.MISSING ? 1 : 0) +
            (hasOwner && state.accounts.find(buffer, ownerOffset) == FixedKeyIndex.MISSING ? 1 : 0);
        if (!state.roomForAccounts(unknown))
        {
            gate.reject(buffer, envelope, operator, RejectCode.CAPACITY_LIMIT);
            return;
        }
        final int account = state.addAccount(buffer, accountOffset);
        final int owner = hasOwner ? state.addAccount(buffer, ownerOffset) : -1;
        state.vaultOwner[account] = owner;
        state.accountChanged(account);
        state.events.actionAccepted(buffer, envelope);
        state.events.vaultOwnerChanged(account, owner);
    }

    /**
     * Sets a credential's FIX onboarding record (journal version 16). Refused, changing nothing: UNKNOWN_AGENT for a
     * credential that is not an active agent credential, INVALID_ACTION for values outside the rules (the JSON
     * parser's rules, checked again because the engine trusts no record), CAPACITY_LIMIT for a new credential when
     * the table is full. Whether the credential is an institutional agent's HMAC credential is the FIX lane's check at
     * logon (the engine keeps neither the agent kind nor the key kind).
     */
    void onSetFixOnboarding(final SetFixOnboardingDecoder set)
    {
        final DirectBuffer buffer = set.buffer();
        final int envelope = set.offset() + SetFixOnboardingDecoder.envelopeEncodingOffset();
        final int operator = gate.admit(buffer, envelope, Gate.SCOPE_OPERATOR, nowMs);
        if (operator < 0)
        {
            return;
        }
        final long credentialId = buffer.getLong(set.offset() + SetFixOnboardingDecoder.credentialIdEncodingOffset(),
            ByteOrder.BIG_ENDIAN);
        final int owner = state.agents.activeCredentialOwner(credentialId, nowMs);
        if (credentialId == 0 || owner < 0)
        {
            gate.reject(buffer, envelope, operator, RejectCode.UNKNOWN_AGENT);
            return;
        }
        final boolean allMarkets = set.allMarkets() == BooleanType.TRUE;
        final int count = set.marketCount();
        if (count <= FixOnboardingTable.MAX_MARKETS)
        {
            for (int i = 0; i < count; i++)
            {
                onboardingMarkets[i] = buffer.getInt(set.offset() + SetFixOnboardingDecoder.marketsEncodingOffset() +
                    4 * i, ByteOrder.LITTLE_ENDIAN);
            }
        }
        final FixOnboardingTable table = state.fixOnboarding;
        if (!FixOnboardingTable.valid(allMarkets, count, onboardingMarkets, set.rateTierRaw(), set.codGraceMs()))
        {
            gate.reject(buffer, envelope, operator, RejectCode.INVALID_ACTION);
            return;
        }
        if (table.find(credentialId) == FixOnboardingTable.MISSING && table.isFull())
        {
            gate.reject(buffer, envelope, operator, RejectCode.CAPACITY_LIMIT);
            return;
        }
        final int flags = (set.fixEnabled() == BooleanType.TRUE ? FixOnboardingTable.FIX : 0) |
            (set.dropCopy() == BooleanType.TRUE ? FixOnboardingTable.DROP_COPY : 0) |
            (allMarkets ? FixOnboardingTable.ALL_MARKETS : 0) |
            (set.cancelOnDisconnect() == BooleanType.TRUE ? FixOnboardingTable.CANCEL_ON_DISCONNECT : 0);
        final int slot = table.put(credentialId, flags, count, onboardingMarkets, set.rateTierRaw(),
            (int)set.codGraceMs());
        state.fixOnboardingChanged(slot);
        state.events.actionAccepted(buffer, envelope);
        state.events.fixOnboardingChanged(table, slot, owner);
    }

    private static boolean sameAddress(final DirectBuffer buffer, final int a, final int b)
    {
        return buffer.getLong(a) == buffer.getLong(b) && buffer.getLong(a + 8) == buffer.getLong(b + 8) &&
            buffer.getInt(a + 16) == buffer.getInt(b + 16);
    }

    private void status(final DirectBuffer buffer, final int envelope, final long marketId, final boolean halt)
    {
        final int account = gate.admit(buffer, envelope, Gate.SCOPE_OPERATOR, nowMs);
        if (account < 0)
        {
            return;
        }
        final int market = state.markets.find(marketId);
        if (market == Markets.MISSING)
        {
            gate.reject(buffer, envelope, account, RejectCode.UNKNOWN_MARKET);
            return;
        }
        state.markets.halted(market, halt);
        state.marketChanged(market);
        state.events.actionAccepted(buffer, envelope);
        state.events.marketStatusChanged(marketId, halt ? MarketStatus.HALTED : MarketStatus.ACTIVE);
    }

    private RejectCode marketRefusal(final long marketId, final long tick, final long lot, final long minQty)
    {
        if (state.markets.exists(marketId))
        {
            return RejectCode.MARKET_EXISTS;
        }
        if (tick <= 0 || lot <= 0 || minQty < 0 || state.markets.count() >= state.config.maxMarkets())
        {
            return RejectCode.INVALID_ACTION;
        }
        return null;
    }
}
