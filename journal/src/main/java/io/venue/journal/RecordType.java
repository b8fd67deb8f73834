package io.venue.journal;

import io.venue.journal.sbe.ActionAcceptedDecoder;
import io.venue.journal.sbe.ActionRejectedDecoder;
import io.venue.journal.sbe.AgentChangedDecoder;
import io.venue.journal.sbe.SessionOpenedDecoder;
import io.venue.journal.sbe.SessionClosedDecoder;
import io.venue.journal.sbe.DeadManArmDecoder;
import io.venue.journal.sbe.CancelOnDisconnectArmDecoder;
import io.venue.journal.sbe.ProtectionTickDecoder;
import io.venue.journal.sbe.SessionsResetDecoder;
import io.venue.journal.sbe.ProtectionChangedDecoder;
import io.venue.journal.sbe.AgentCreateDecoder;
import io.venue.journal.sbe.AgentRevokeDecoder;
import io.venue.journal.sbe.AgentRotateDecoder;
import io.venue.journal.sbe.AmendDecoder;
import io.venue.journal.sbe.AssetCreatedDecoder;
import io.venue.journal.sbe.BalanceChangedDecoder;
import io.venue.journal.sbe.BatchDecoder;
import io.venue.journal.sbe.BookDeltaDecoder;
import io.venue.journal.sbe.CancelDecoder;
import io.venue.journal.sbe.CancelAllDecoder;
import io.venue.journal.sbe.CancelByClientOrderIdDecoder;
import io.venue.journal.sbe.CancelReplaceDecoder;
import io.venue.journal.sbe.CreateAssetDecoder;
import io.venue.journal.sbe.CreateOutcomeMarketDecoder;
import io.venue.journal.sbe.CreateSpotMarketDecoder;
import io.venue.journal.sbe.DepositDecoder;
import io.venue.journal.sbe.HaltMarketDecoder;
import io.venue.journal.sbe.KillSwitchChangedDecoder;
import io.venue.journal.sbe.MarketCreatedDecoder;
import io.venue.journal.sbe.MarketStatusChangedDecoder;
import io.venue.journal.sbe.MergeDecoder;
import io.venue.journal.sbe.OrderAcceptedDecoder;
import io.venue.journal.sbe.OrderAmendedDecoder;
import io.venue.journal.sbe.OrderDoneDecoder;
import io.venue.journal.sbe.OrderRestedDecoder;
import io.venue.journal.sbe.OwnerRevokeDecoder;
import io.venue.journal.sbe.PlaceOrderDecoder;
import io.venue.journal.sbe.PositionChangedDecoder;
import io.venue.journal.sbe.RequestRejectedDecoder;
import io.venue.journal.sbe.RequestsRejectedSummaryDecoder;
import io.venue.journal.sbe.FixOnboardingChangedDecoder;
import io.venue.journal.sbe.FixSessionMarkDecoder;
import io.venue.journal.sbe.SetFixOnboardingDecoder;
import io.venue.journal.sbe.ResumeMarketDecoder;
import io.venue.journal.sbe.SetKillSwitchDecoder;
import io.venue.journal.sbe.SplitDecoder;
import io.venue.journal.sbe.TradeDecoder;
import io.venue.journal.sbe.SetVaultOwnerDecoder;
import io.venue.journal.sbe.VaultOwnerChangedDecoder;
import io.venue.journal.sbe.WithdrawDecoder;

import static io.venue.journal.RecordKind.COMMAND;
import static io.venue.journal.RecordKind.EVENT;

/**
 * Every message of the journal schema ({@code sbe/venue-journal.xml}) with its template id and the shape
 * {@link JournalRecords} checks before a decoder may read it: the fixed block, at most one repeating group
 * (without nested groups) and a number of variable-length fields after it.
 */
public enum RecordType
{
    PLACE_ORDER(COMMAND, "PlaceOrder", PlaceOrderDecoder.TEMPLATE_ID, PlaceOrderDecoder.BLOCK_LENGTH),
    CANCEL(COMMAND, "Cancel", CancelDecoder.TEMPLATE_ID, CancelDecoder.BLOCK_LENGTH),
    AMEND(COMMAND, "Amend", AmendDecoder.TEMPLATE_ID, AmendDecoder.BLOCK_LENGTH),
    CANCEL_BY_CLIENT_ORDER_ID(
        COMMAND, "CancelByClientOrderId",
        CancelByClientOrderIdDecoder.TEMPLATE_ID, CancelByClientOrderIdDecoder.BLOCK_LENGTH),
    CANCEL_ALL(COMMAND, "CancelAll", CancelAllDecoder.TEMPLATE_ID, CancelAllDecoder.BLOCK_LENGTH),
    BATCH(
        COMMAND, "Batch",
        BatchDecoder.TEMPLATE_ID, BatchDecoder.BLOCK_LENGTH, BatchDecoder.LegsDecoder.sbeBlockLength(), 0),
    SPLIT(COMMAND, "Split", SplitDecoder.TEMPLATE_ID, SplitDecoder.BLOCK_LENGTH),
    MERGE(COMMAND, "Merge", MergeDecoder.TEMPLATE_ID, MergeDecoder.BLOCK_LENGTH),
    CANCEL_REPLACE(COMMAND, "CancelReplace", CancelReplaceDecoder.TEMPLATE_ID,
        CancelReplaceDecoder.BLOCK_LENGTH),
    CREATE_ASSET(COMMAND, "CreateAsset", CreateAssetDecoder.TEMPLATE_ID, CreateAssetDecoder.BLOCK_LENGTH),
    CREATE_SPOT_MARKET(
        COMMAND, "CreateSpotMarket",
        CreateSpotMarketDecoder.TEMPLATE_ID, CreateSpotMarketDecoder.BLOCK_LENGTH),
    CREATE_OUTCOME_MARKET(
        COMMAND, "CreateOutcomeMarket",
        CreateOutcomeMarketDecoder.TEMPLATE_ID, CreateOutcomeMarketDecoder.BLOCK_LENGTH),
    HALT_MARKET(COMMAND, "HaltMarket", HaltMarketDecoder.TEMPLATE_ID, HaltMarketDecoder.BLOCK_LENGTH),
    RESUME_MARKET(COMMAND, "ResumeMarket", ResumeMarketDecoder.TEMPLATE_ID, ResumeMarketDecoder.BLOCK_LENGTH),
    SET_KILL_SWITCH(COMMAND, "SetKillSwitch", SetKillSwitchDecoder.TEMPLATE_ID, SetKillSwitchDecoder.BLOCK_LENGTH),
    DEPOSIT(COMMAND, "Deposit", DepositDecoder.TEMPLATE_ID, DepositDecoder.BLOCK_LENGTH),
    WITHDRAW(COMMAND, "Withdraw", WithdrawDecoder.TEMPLATE_ID, WithdrawDecoder.BLOCK_LENGTH),
    SET_VAULT_OWNER(COMMAND, "SetVaultOwner", SetVaultOwnerDecoder.TEMPLATE_ID, SetVaultOwnerDecoder.BLOCK_LENGTH),
    AGENT_CREATE(COMMAND, "AgentCreate", AgentCreateDecoder.TEMPLATE_ID, AgentCreateDecoder.BLOCK_LENGTH, 0, 1),
    AGENT_ROTATE(COMMAND, "AgentRotate", AgentRotateDecoder.TEMPLATE_ID, AgentRotateDecoder.BLOCK_LENGTH),
    AGENT_REVOKE(COMMAND, "AgentRevoke", AgentRevokeDecoder.TEMPLATE_ID, AgentRevokeDecoder.BLOCK_LENGTH),
    OWNER_REVOKE(COMMAND, "OwnerRevoke", OwnerRevokeDecoder.TEMPLATE_ID, OwnerRevokeDecoder.BLOCK_LENGTH),
    SESSION_OPENED(COMMAND, "SessionOpened", SessionOpenedDecoder.TEMPLATE_ID, SessionOpenedDecoder.BLOCK_LENGTH),
    SESSION_CLOSED(COMMAND, "SessionClosed", SessionClosedDecoder.TEMPLATE_ID, SessionClosedDecoder.BLOCK_LENGTH),
    DEAD_MAN_ARM(COMMAND, "DeadManArm", DeadManArmDecoder.TEMPLATE_ID, DeadManArmDecoder.BLOCK_LENGTH),
    CANCEL_ON_DISCONNECT_ARM(
        COMMAND, "CancelOnDisconnectArm",
        CancelOnDisconnectArmDecoder.TEMPLATE_ID, CancelOnDisconnectArmDecoder.BLOCK_LENGTH),
    PROTECTION_TICK(COMMAND, "ProtectionTick", ProtectionTickDecoder.TEMPLATE_ID, ProtectionTickDecoder.BLOCK_LENGTH),
    SESSIONS_RESET(COMMAND, "SessionsReset", SessionsResetDecoder.TEMPLATE_ID, SessionsResetDecoder.BLOCK_LENGTH),
    REQUEST_REJECTED(
        COMMAND, "RequestRejected",
        RequestRejectedDecoder.TEMPLATE_ID, RequestRejectedDecoder.BLOCK_LENGTH, 0, 1),
    REQUESTS_REJECTED_SUMMARY(
        COMMAND, "RequestsRejectedSummary",
        RequestsRejectedSummaryDecoder.TEMPLATE_ID, RequestsRejectedSummaryDecoder.BLOCK_LENGTH),
    FIX_SESSION_MARK(COMMAND, "FixSessionMark", FixSessionMarkDecoder.TEMPLATE_ID, FixSessionMarkDecoder.BLOCK_LENGTH),
    SET_FIX_ONBOARDING(
        COMMAND, "SetFixOnboarding", SetFixOnboardingDecoder.TEMPLATE_ID, SetFixOnboardingDecoder.BLOCK_LENGTH),
    ACTION_ACCEPTED(EVENT, "ActionAccepted", ActionAcceptedDecoder.TEMPLATE_ID, ActionAcceptedDecoder.BLOCK_LENGTH),
    ACTION_REJECTED(EVENT, "ActionRejected", ActionRejectedDecoder.TEMPLATE_ID, ActionRejectedDecoder.BLOCK_LENGTH),
    ORDER_ACCEPTED(EVENT, "OrderAccepted", OrderAcceptedDecoder.TEMPLATE_ID, OrderAcceptedDecoder.BLOCK_LENGTH),
    ORDER_RESTED(EVENT, "OrderRested", OrderRestedDecoder.TEMPLATE_ID, OrderRestedDecoder.BLOCK_LENGTH),
    TRADE(EVENT, "Trade", TradeDecoder.TEMPLATE_ID, TradeDecoder.BLOCK_LENGTH),
    ORDER_DONE(EVENT, "OrderDone", OrderDoneDecoder.TEMPLATE_ID, OrderDoneDecoder.BLOCK_LENGTH),
    ORDER_AMENDED(EVENT, "OrderAmended", OrderAmendedDecoder.TEMPLATE_ID, OrderAmendedDecoder.BLOCK_LENGTH),
    BALANCE_CHANGED(EVENT, "BalanceChanged", BalanceChangedDecoder.TEMPLATE_ID, BalanceChangedDecoder.BLOCK_LENGTH),
    POSITION_CHANGED(
        EVENT, "PositionChanged",
        PositionChangedDecoder.TEMPLATE_ID, PositionChangedDecoder.BLOCK_LENGTH),
    BOOK_DELTA(EVENT, "BookDelta", BookDeltaDecoder.TEMPLATE_ID, BookDeltaDecoder.BLOCK_LENGTH),
    MARKET_CREATED(EVENT, "MarketCreated", MarketCreatedDecoder.TEMPLATE_ID, MarketCreatedDecoder.BLOCK_LENGTH),
    MARKET_STATUS_CHANGED(
        EVENT, "MarketStatusChanged",
        MarketStatusChangedDecoder.TEMPLATE_ID, MarketStatusChangedDecoder.BLOCK_LENGTH),
    ASSET_CREATED(EVENT, "AssetCreated", AssetCreatedDecoder.TEMPLATE_ID, AssetCreatedDecoder.BLOCK_LENGTH),
    KILL_SWITCH_CHANGED(
        EVENT, "KillSwitchChanged",
        KillSwitchChangedDecoder.TEMPLATE_ID, KillSwitchChangedDecoder.BLOCK_LENGTH),
    VAULT_OWNER_CHANGED(
        EVENT, "VaultOwnerChanged",
        VaultOwnerChangedDecoder.TEMPLATE_ID, VaultOwnerChangedDecoder.BLOCK_LENGTH),
    AGENT_CHANGED(EVENT, "AgentChanged", AgentChangedDecoder.TEMPLATE_ID, AgentChangedDecoder.BLOCK_LENGTH),
    PROTECTION_CHANGED(
        EVENT, "ProtectionChanged", ProtectionChangedDecoder.TEMPLATE_ID, ProtectionChangedDecoder.BLOCK_LENGTH),
    FIX_ONBOARDING_CHANGED(
        EVENT, "FixOnboardingChanged",
        FixOnboardingChangedDecoder.TEMPLATE_ID, FixOnboardingChangedDecoder.BLOCK_LENGTH);

    private static final RecordType[] BY_TEMPLATE_ID;

    static
    {
        int maxTemplateId = 0;
        for (final RecordType type : values())
        {
            maxTemplateId = Math.max(maxTemplateId, type.templateId);
        }
        BY_TEMPLATE_ID = new RecordType[maxTemplateId + 1];
        for (final RecordType type : values())
        {
            if (BY_TEMPLATE_ID[type.templateId] != null)
            {
                throw new IllegalStateException("template id " + type.templateId + " used twice");
            }
            BY_TEMPLATE_ID[type.templateId] = type;
        }
    }

    private final RecordKind kind;
    private final String messageName;
    private final int templateId;
    private final int blockLength;
    private final int groupEntryLength;
    private final int varDataCount;

    RecordType(final RecordKind kind, final String messageName, final int templateId, final int blockLength)
    {
        this(kind, messageName, templateId, blockLength, 0, 0);
    }

    RecordType(
        final RecordKind kind,
        final String messageName,
        final int templateId,
        final int blockLength,
        final int groupEntryLength,
        final int varDataCount)
    {
        this.kind = kind;
        this.messageName = messageName;
        this.templateId = templateId;
        this.blockLength = blockLength;
        this.groupEntryLength = groupEntryLength;
        this.varDataCount = varDataCount;
    }

    /** The type with this template id, or null. Never throws. */
    public static RecordType ofTemplateId(final int templateId)
    {
        return templateId >= 0 && templateId < BY_TEMPLATE_ID.length ? BY_TEMPLATE_ID[templateId] : null;
    }

    public RecordKind kind()
    {
        return kind;
    }

    public boolean isCommand()
    {
        return kind == COMMAND;
    }

    /** The message's name in the schema, e.g. "PlaceOrder". */
    public String messageName()
    {
        return messageName;
    }

    public int templateId()
    {
        return templateId;
    }

    /** Length of the fixed fields in this build's schema version. */
    public int blockLength()
    {
        return blockLength;
    }

    /**
     * Length of the fixed fields a record of {@code version} holds at least: shorter than {@link #blockLength()} for a
     * record older than a field added at the end of its block (version 10 added {@code sourceAddress} to
     * {@code RequestsRejectedSummary}; version 14 {@code reportKey} to {@code FixSessionMark}).
     */
    public int blockLength(final int version)
    {
        if (this == FIX_SESSION_MARK && version < JournalRecords.FIX_REPORT_KEY_VERSION)
        {
            return FixSessionMarkDecoder.reportKeyEncodingOffset();
        }
        return this == REQUESTS_REJECTED_SUMMARY && version < JournalRecords.ADDRESS_SOURCE_VERSION ?
            RequestsRejectedSummaryDecoder.sourceAddressEncodingOffset() : blockLength;
    }

    /** Length of the fixed fields of one entry of the message's repeating group, 0 when it has none. */
    public int groupEntryLength()
    {
        return groupEntryLength;
    }

    /** Number of variable-length fields after the fixed block and the group. */
    public int varDataCount()
    {
        return varDataCount;
    }
}
