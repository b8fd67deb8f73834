package io.venue.journal;

import io.venue.journal.sbe.ActionAcceptedDecoder;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.ActionRejectedDecoder;
import io.venue.journal.sbe.AgentChangedDecoder;
import io.venue.journal.sbe.SessionOpenedDecoder;
import io.venue.journal.sbe.SessionClosedDecoder;
import io.venue.journal.sbe.DeadManArmDecoder;
import io.venue.journal.sbe.CancelOnDisconnectArmDecoder;
import io.venue.journal.sbe.ProtectionTickDecoder;
import io.venue.journal.sbe.SessionsResetDecoder;
import io.venue.journal.sbe.ProtectionChangedDecoder;
import io.venue.journal.sbe.SessionKind;
import io.venue.journal.sbe.ProtectionKind;
import io.venue.journal.sbe.ProtectionAction;
import io.venue.journal.sbe.AgentCreateDecoder;
import io.venue.journal.sbe.AgentKeyKind;
import io.venue.journal.sbe.AgentKind;
import io.venue.journal.sbe.AgentRevokeDecoder;
import io.venue.journal.sbe.AgentRotateDecoder;
import io.venue.journal.sbe.AgentState;
import io.venue.journal.sbe.AmendDecoder;
import io.venue.journal.sbe.AssetCreatedDecoder;
import io.venue.journal.sbe.BalanceChangedDecoder;
import io.venue.journal.sbe.BatchDecoder;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.BookDeltaDecoder;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.CancelAllDecoder;
import io.venue.journal.sbe.CancelByClientOrderIdDecoder;
import io.venue.journal.sbe.CancelDecoder;
import io.venue.journal.sbe.CancelReplaceDecoder;
import io.venue.journal.sbe.CreateAssetDecoder;
import io.venue.journal.sbe.CreateOutcomeMarketDecoder;
import io.venue.journal.sbe.CreateSpotMarketDecoder;
import io.venue.journal.sbe.DepositDecoder;
import io.venue.journal.sbe.HaltMarketDecoder;
import io.venue.journal.sbe.KillScope;
import io.venue.journal.sbe.KillSwitchChangedDecoder;
import io.venue.journal.sbe.LegType;
import io.venue.journal.sbe.LimitClass;
import io.venue.journal.sbe.MarketCreatedDecoder;
import io.venue.journal.sbe.MarketKind;
import io.venue.journal.sbe.MarketStatus;
import io.venue.journal.sbe.MarketStatusChangedDecoder;
import io.venue.journal.sbe.MergeDecoder;
import io.venue.journal.sbe.OrderAcceptedDecoder;
import io.venue.journal.sbe.OrderAmendedDecoder;
import io.venue.journal.sbe.OrderDoneDecoder;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.OrderRestedDecoder;
import io.venue.journal.sbe.OwnerRevokeDecoder;
import io.venue.journal.sbe.PlaceOrderDecoder;
import io.venue.journal.sbe.PositionChangedDecoder;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.journal.sbe.RequestRejectedDecoder;
import io.venue.journal.sbe.RequestsRejectedSummaryDecoder;
import io.venue.journal.sbe.FixMarkKind;
import io.venue.journal.sbe.FixOnboardingChangedDecoder;
import io.venue.journal.sbe.FixRateTier;
import io.venue.journal.sbe.FixSessionMarkDecoder;
import io.venue.journal.sbe.SetFixOnboardingDecoder;
import io.venue.journal.sbe.FixSubSession;
import io.venue.journal.sbe.ResumeMarketDecoder;
import io.venue.journal.sbe.SetKillSwitchDecoder;
import io.venue.journal.sbe.SetVaultOwnerDecoder;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.SignerMatch;
import io.venue.journal.sbe.SplitDecoder;
import io.venue.journal.sbe.StpMode;
import io.venue.journal.sbe.TimeInForce;
import io.venue.journal.sbe.TradeDecoder;
import io.venue.journal.sbe.VaultOwnerChangedDecoder;
import io.venue.journal.sbe.WithdrawDecoder;
import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Renders any journal record as one line of JSON, for {@code journal dump} and for tests.
 *
 * <pre>
 * {"type":"Cancel","sequence":7,"timestampMs":1763000000000,"epoch":1,"envelope":{"account":"0x…",…},"orderId":"0x…"}
 * {"error":"UNKNOWN_TEMPLATE","length":64,"templateId":77,"schemaId":1,"version":1,"blockLength":40}
 * </pre>
 *
 * <ul>
 *     <li>{@code type} first, then every field in schema order (composites as objects, a group as an array
 *     of objects, variable data last), so the same record always prints the same line;</li>
 *     <li>integers in decimal, unsigned ones as unsigned; fixed byte arrays as {@code 0x} + lowercase hex;
 *     enums by name ({@code "UNKNOWN(n)"} for a value the schema does not define); booleans as
 *     {@code true}/{@code false}; a null {@code expiresAt} or {@code legIndex} as {@code null}; sets as arrays
 *     of choice names ({@code "bit7"} for an undefined bit); text as an escaped string;</li>
 *     <li>bytes that {@link JournalRecords} refuses print as an {@code error} line naming the
 *     {@link RecordError}, never an exception.</li>
 * </ul>
 *
 * Reusable, one per thread; besides the returned String it allocates only for unsigned values above 2^63,
 * undefined enum values and UTF-8 text.
 */
public final class RecordPrinter
{
    private static final EnumNames BOOK = EnumNames.of(Book.values(), Book::value);
    private static final EnumNames SIDE = EnumNames.of(Side.values(), Side::value);
    private static final EnumNames STP_MODE = EnumNames.of(StpMode.values(), StpMode::value);
    private static final EnumNames TIME_IN_FORCE = EnumNames.of(TimeInForce.values(), TimeInForce::value);
    private static final EnumNames LIMIT_CLASS = EnumNames.of(LimitClass.values(), LimitClass::value);
    private static final EnumNames KILL_SCOPE = EnumNames.of(KillScope.values(), KillScope::value);
    private static final EnumNames SIGNER_MATCH = EnumNames.of(SignerMatch.values(), SignerMatch::value);
    private static final EnumNames LEG_TYPE = EnumNames.of(LegType.values(), LegType::value);
    private static final EnumNames AGENT_KEY_KIND = EnumNames.of(AgentKeyKind.values(), AgentKeyKind::value);
    private static final EnumNames AGENT_KIND = EnumNames.of(AgentKind.values(), AgentKind::value);
    private static final EnumNames AGENT_STATE = EnumNames.of(AgentState.values(), AgentState::value);
    private static final EnumNames MARKET_KIND = EnumNames.of(MarketKind.values(), MarketKind::value);
    private static final EnumNames MARKET_STATUS = EnumNames.of(MarketStatus.values(), MarketStatus::value);
    private static final EnumNames REQUEST_REJECT_REASON =
        EnumNames.of(RequestRejectReason.values(), RequestRejectReason::value);
    private static final EnumNames REJECT_CODE = EnumNames.of(RejectCode.values(), RejectCode::value);
    private static final EnumNames SESSION_KIND = EnumNames.of(SessionKind.values(), SessionKind::value);
    /** A FixMarkets array: 16 little-endian u32s. */
    private static final int FIX_MARKETS = 64;
    private static final EnumNames FIX_RATE_TIER = EnumNames.of(FixRateTier.values(), FixRateTier::value);
    private static final EnumNames PROTECTION_KIND = EnumNames.of(ProtectionKind.values(), ProtectionKind::value);
    private static final EnumNames PROTECTION_ACTION =
        EnumNames.of(ProtectionAction.values(), ProtectionAction::value);
    private static final EnumNames ORDER_DONE_REASON = EnumNames.of(OrderDoneReason.values(), OrderDoneReason::value);
    private static final EnumNames FIX_SUB_SESSION = EnumNames.of(FixSubSession.values(), FixSubSession::value);
    private static final EnumNames FIX_MARK_KIND = EnumNames.of(FixMarkKind.values(), FixMarkKind::value);

    /** Choice names of {@code AgentScopes} by bit. */
    private static final String[] SCOPE_NAMES = { "trade", "cancel", "quote", "mintRedeem", "read", "dropCopy" };

    private static final int ADDRESS = 20;
    private static final int DIGEST = 32;
    private static final int IP_ADDRESS = 16;
    private static final int SIGNATURE = 65;
    private static final int CLIENT_ORDER_ID = 16;
    private static final int AGENT_ID = 8;
    private static final int AGENT_KEY = 32;

    private final JournalRecords records = new JournalRecords();
    private final JsonLine json = new JsonLine();
    private byte[] scratch = new byte[64];

    private final PlaceOrderDecoder placeOrder = new PlaceOrderDecoder();
    private final CancelReplaceDecoder cancelReplace = new CancelReplaceDecoder();
    private final CancelDecoder cancel = new CancelDecoder();
    private final AmendDecoder amend = new AmendDecoder();
    private final CancelByClientOrderIdDecoder cancelByClientOrderId = new CancelByClientOrderIdDecoder();
    private final CancelAllDecoder cancelAll = new CancelAllDecoder();
    private final BatchDecoder batch = new BatchDecoder();
    private final SplitDecoder split = new SplitDecoder();
    private final MergeDecoder merge = new MergeDecoder();
    private final CreateAssetDecoder createAsset = new CreateAssetDecoder();
    private final CreateSpotMarketDecoder createSpotMarket = new CreateSpotMarketDecoder();
    private final CreateOutcomeMarketDecoder createOutcomeMarket = new CreateOutcomeMarketDecoder();
    private final HaltMarketDecoder haltMarket = new HaltMarketDecoder();
    private final ResumeMarketDecoder resumeMarket = new ResumeMarketDecoder();
    private final SetKillSwitchDecoder setKillSwitch = new SetKillSwitchDecoder();
    private final DepositDecoder deposit = new DepositDecoder();
    private final WithdrawDecoder withdraw = new WithdrawDecoder();
    private final SetVaultOwnerDecoder setVaultOwner = new SetVaultOwnerDecoder();
    private final VaultOwnerChangedDecoder vaultOwnerChanged = new VaultOwnerChangedDecoder();
    private final AgentCreateDecoder agentCreate = new AgentCreateDecoder();
    private final AgentRotateDecoder agentRotate = new AgentRotateDecoder();
    private final AgentRevokeDecoder agentRevoke = new AgentRevokeDecoder();
    private final OwnerRevokeDecoder ownerRevoke = new OwnerRevokeDecoder();
    private final RequestRejectedDecoder requestRejected = new RequestRejectedDecoder();
    private final RequestsRejectedSummaryDecoder requestsRejectedSummary = new RequestsRejectedSummaryDecoder();
    private final FixSessionMarkDecoder fixSessionMark = new FixSessionMarkDecoder();
    private final SetFixOnboardingDecoder setFixOnboarding = new SetFixOnboardingDecoder();
    private final FixOnboardingChangedDecoder fixOnboardingChanged = new FixOnboardingChangedDecoder();
    private final ActionAcceptedDecoder actionAccepted = new ActionAcceptedDecoder();
    private final ActionRejectedDecoder actionRejected = new ActionRejectedDecoder();
    private final OrderAcceptedDecoder orderAccepted = new OrderAcceptedDecoder();
    private final OrderRestedDecoder orderRested = new OrderRestedDecoder();
    private final TradeDecoder trade = new TradeDecoder();
    private final OrderDoneDecoder orderDone = new OrderDoneDecoder();
    private final OrderAmendedDecoder orderAmended = new OrderAmendedDecoder();
    private final BalanceChangedDecoder balanceChanged = new BalanceChangedDecoder();
    private final PositionChangedDecoder positionChanged = new PositionChangedDecoder();
    private final BookDeltaDecoder bookDelta = new BookDeltaDecoder();
    private final MarketCreatedDecoder marketCreated = new MarketCreatedDecoder();
    private final MarketStatusChangedDecoder marketStatusChanged = new MarketStatusChangedDecoder();
    private final AssetCreatedDecoder assetCreated = new AssetCreatedDecoder();
    private final KillSwitchChangedDecoder killSwitchChanged = new KillSwitchChangedDecoder();
    private final AgentChangedDecoder agentChanged = new AgentChangedDecoder();
    private final SessionOpenedDecoder sessionOpened = new SessionOpenedDecoder();
    private final SessionClosedDecoder sessionClosed = new SessionClosedDecoder();
    private final DeadManArmDecoder deadManArm = new DeadManArmDecoder();
    private final CancelOnDisconnectArmDecoder codArm = new CancelOnDisconnectArmDecoder();
    private final ProtectionTickDecoder protectionTick = new ProtectionTickDecoder();
    private final SessionsResetDecoder sessionsReset = new SessionsResetDecoder();
    private final ProtectionChangedDecoder protectionChanged = new ProtectionChangedDecoder();

    /** The record as one JSON line (without a line feed). Allocates the string. */
    public String print(final DirectBuffer buffer, final int offset, final int length)
    {
        return print(buffer, offset, length, new StringBuilder(256)).toString();
    }

    /** Appends the record as one JSON line (without a line feed) to {@code out}, and returns {@code out}. */
    public StringBuilder print(final DirectBuffer buffer, final int offset, final int length, final StringBuilder out)
    {
        final RecordError error = records.wrap(buffer, offset, length);
        json.begin(out);
        if (error != RecordError.NONE)
        {
            printError(error, length);
        }
        else
        {
            json.key("type").string(records.type().messageName());
            printBody(records.type(), buffer, records.bodyOffset(), records.blockLength(), records.version());
        }
        json.end();
        return out;
    }

    private void printError(final RecordError error, final int length)
    {
        json.key("error").string(error.name());
        json.key("length").number(length);
        if (records.templateId() >= 0)
        {
            json.key("templateId").number(records.templateId());
            json.key("schemaId").number(records.schemaId());
            json.key("version").number(records.version());
            json.key("blockLength").number(records.blockLength());
        }
    }

    // The order of the calls below is the order of the fields in the schema; SchemaModelTest holds them to it.
    private void printBody(
        final RecordType type, final DirectBuffer buffer, final int offset, final int blockLength, final int version)
    {
        switch (type)
        {
            case PLACE_ORDER ->
            {
                final PlaceOrderDecoder d = placeOrder.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                u32("market", d.market());
                enumValue("book", BOOK, d.bookRaw());
                enumValue("side", SIDE, d.sideRaw());
                u64("price", d.price());
                u64("qty", d.qty());
                enumValue("stpMode", STP_MODE, d.stpModeRaw());
                enumValue("timeInForce", TIME_IN_FORCE, d.timeInForceRaw());
                bool("isMarket", d.isMarketRaw());
                bool("reduceOnly", d.reduceOnlyRaw());
                nullable("expiresAt", d.expiresAt(), PlaceOrderDecoder.expiresAtNullValue());
                enumValue("limitClass", LIMIT_CLASS, d.limitClassRaw());
            }
            case CANCEL ->
            {
                final CancelDecoder d = cancel.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                bytes("orderId", d.getOrderId(scratch, 0, DIGEST));
                enumValue("limitClass", LIMIT_CLASS, d.limitClassRaw());
            }
            case AMEND ->
            {
                final AmendDecoder d = amend.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                bytes("orderId", d.getOrderId(scratch, 0, DIGEST));
                u64("price", d.price());
                u64("qty", d.qty());
                enumValue("limitClass", LIMIT_CLASS, d.limitClassRaw());
            }
            case CANCEL_BY_CLIENT_ORDER_ID ->
            {
                final CancelByClientOrderIdDecoder d = cancelByClientOrderId.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                bytes("clientOrderId", d.getClientOrderId(scratch, 0, CLIENT_ORDER_ID));
                enumValue("limitClass", LIMIT_CLASS, d.limitClassRaw());
            }
            case CANCEL_ALL ->
            {
                final CancelAllDecoder d = cancelAll.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                u32("market", d.market());
                bool("allMarkets", d.allMarketsRaw());
            }
            case BATCH -> printBatch(batch.wrap(buffer, offset, blockLength, version));
            case SPLIT ->
            {
                final SplitDecoder d = split.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                u32("market", d.market());
                u64("qty", d.qty());
            }
            case MERGE ->
            {
                final MergeDecoder d = merge.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                u32("market", d.market());
                u64("qty", d.qty());
            }
            case CANCEL_REPLACE ->
            {
                final CancelReplaceDecoder d = cancelReplace.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                bytes("cancelOrderId", d.getCancelOrderId(scratch, 0, DIGEST));
                bytes("cancelSignature", d.getCancelSignature(scratch(SIGNATURE), 0, SIGNATURE));
                u32("market", d.market());
                enumValue("book", BOOK, d.bookRaw());
                enumValue("side", SIDE, d.sideRaw());
                u64("price", d.price());
                u64("qty", d.qty());
                enumValue("timeInForce", TIME_IN_FORCE, d.timeInForceRaw());
                u64("expiry", d.expiry());
            }
            case CREATE_ASSET ->
            {
                final CreateAssetDecoder d = createAsset.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                u32("asset", d.asset());
                symbol("symbol", d.getSymbol(scratch, 0));
            }
            case CREATE_SPOT_MARKET ->
            {
                final CreateSpotMarketDecoder d = createSpotMarket.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                u32("market", d.market());
                u32("baseAsset", d.baseAsset());
                u32("quoteAsset", d.quoteAsset());
                u64("tickSize", d.tickSize());
                u64("lotSize", d.lotSize());
                u64("minQty", d.minQty());
            }
            case CREATE_OUTCOME_MARKET ->
            {
                final CreateOutcomeMarketDecoder d = createOutcomeMarket.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                u32("market", d.market());
                u32("collateralAsset", d.collateralAsset());
                u64("tickSize", d.tickSize());
                u64("lotSize", d.lotSize());
                u64("minQty", d.minQty());
            }
            case HALT_MARKET ->
            {
                final HaltMarketDecoder d = haltMarket.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                u32("market", d.market());
            }
            case RESUME_MARKET ->
            {
                final ResumeMarketDecoder d = resumeMarket.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                u32("market", d.market());
            }
            case SET_KILL_SWITCH ->
            {
                final SetKillSwitchDecoder d = setKillSwitch.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                enumValue("scope", KILL_SCOPE, d.scopeRaw());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u32("market", d.market());
                bool("active", d.activeRaw());
            }
            case DEPOSIT ->
            {
                final DepositDecoder d = deposit.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u32("asset", d.asset());
                u64("amount", d.amount());
            }
            case WITHDRAW ->
            {
                final WithdrawDecoder d = withdraw.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u32("asset", d.asset());
                u64("amount", d.amount());
            }
            case SET_VAULT_OWNER ->
            {
                final SetVaultOwnerDecoder d = setVaultOwner.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                bool("hasOwner", d.hasOwnerRaw());
                bytes("owner", d.getOwner(scratch, 0, ADDRESS));
            }
            case AGENT_CREATE ->
            {
                final AgentCreateDecoder d = agentCreate.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                bytes("owner", d.getOwner(scratch, 0, ADDRESS));
                bytes("agentId", d.getAgentId(scratch, 0, AGENT_ID));
                enumValue("keyKind", AGENT_KEY_KIND, d.keyKindRaw());
                bytes("agentKey", d.getAgentKey(scratch, 0, AGENT_KEY));
                enumValue("agentKind", AGENT_KIND, d.agentKindRaw());
                scopes("scopes", d.scopes().getRaw());
                u64("issuedAtMs", d.issuedAtMs());
                u64("expiresAtMs", d.expiresAtMs());
                u64("nonce", d.nonce());
                bytes("intentDigest", d.getIntentDigest(scratch, 0, DIGEST));
                final int length = d.policyLength();
                ascii("policy", d.getPolicy(scratch(length), 0, length));
            }
            case AGENT_ROTATE ->
            {
                final AgentRotateDecoder d = agentRotate.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                bytes("owner", d.getOwner(scratch, 0, ADDRESS));
                bytes("agentId", d.getAgentId(scratch, 0, AGENT_ID));
                bytes("newCredentialId", d.getNewCredentialId(scratch, 0, AGENT_ID));
                enumValue("keyKind", AGENT_KEY_KIND, d.keyKindRaw());
                bytes("agentKey", d.getAgentKey(scratch, 0, AGENT_KEY));
                u64("overlapUntilMs", d.overlapUntilMs());
                u64("issuedAtMs", d.issuedAtMs());
                u64("nonce", d.nonce());
                bytes("intentDigest", d.getIntentDigest(scratch, 0, DIGEST));
            }
            case AGENT_REVOKE ->
            {
                final AgentRevokeDecoder d = agentRevoke.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                bytes("owner", d.getOwner(scratch, 0, ADDRESS));
                bytes("agentId", d.getAgentId(scratch, 0, AGENT_ID));
                bytes("credentialId", d.getCredentialId(scratch, 0, AGENT_ID));
                bool("allCredentials", d.allCredentialsRaw());
                u64("issuedAtMs", d.issuedAtMs());
                u64("nonce", d.nonce());
                bytes("intentDigest", d.getIntentDigest(scratch, 0, DIGEST));
            }
            case OWNER_REVOKE ->
            {
                final OwnerRevokeDecoder d = ownerRevoke.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                bytes("owner", d.getOwner(scratch, 0, ADDRESS));
                u64("issuedAtMs", d.issuedAtMs());
                u64("nonce", d.nonce());
                bytes("intentDigest", d.getIntentDigest(scratch, 0, DIGEST));
            }
            case SESSION_OPENED ->
            {
                final SessionOpenedDecoder d = sessionOpened.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                u64("sessionId", d.sessionId());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                bytes("credentialId", d.getCredentialId(scratch, 0, AGENT_ID));
                enumValue("kind", SESSION_KIND, d.kindRaw());
                bool("cancelOnDisconnect", d.cancelOnDisconnectRaw());
                u64("graceMs", d.graceMs());
            }
            case SESSION_CLOSED ->
            {
                final SessionClosedDecoder d = sessionClosed.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                u64("sessionId", d.sessionId());
            }
            case DEAD_MAN_ARM ->
            {
                final DeadManArmDecoder d = deadManArm.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u32("market", d.market());
                bool("allMarkets", d.allMarketsRaw());
                u64("countdownMs", d.countdownMs());
            }
            case CANCEL_ON_DISCONNECT_ARM ->
            {
                final CancelOnDisconnectArmDecoder d = codArm.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u32("market", d.market());
                bool("allMarkets", d.allMarketsRaw());
                bool("armed", d.armedRaw());
                u64("graceMs", d.graceMs());
            }
            case PROTECTION_TICK ->
            {
                final ProtectionTickDecoder d = protectionTick.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
            }
            case SESSIONS_RESET ->
            {
                final SessionsResetDecoder d = sessionsReset.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
            }
            case REQUEST_REJECTED ->
            {
                final RequestRejectedDecoder d = requestRejected.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                u64("connectionId", d.connectionId());
                u64("correlationId", d.correlationId());
                enumValue("reason", REQUEST_REJECT_REASON, d.reasonRaw());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                bytes("digest", d.getDigest(scratch, 0, DIGEST));
                final int length = d.detailLength();
                utf8("detail", d.getDetail(scratch(length), 0, length));
            }
            case REQUESTS_REJECTED_SUMMARY ->
            {
                final RequestsRejectedSummaryDecoder d =
                    requestsRejectedSummary.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                u64("connectionId", d.connectionId());
                enumValue("reason", REQUEST_REJECT_REASON, d.reasonRaw());
                u64("count", d.count());
                u64("firstCorrelationId", d.firstCorrelationId());
                u64("lastCorrelationId", d.lastCorrelationId());
                u64("firstTimestampMs", d.firstTimestampMs());
                u64("lastTimestampMs", d.lastTimestampMs());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                bytes("digest", d.getDigest(scratch, 0, DIGEST));
                bytes("detailDigest", d.getDetailDigest(scratch, 0, DIGEST));
                // a summary older than the field has none: printed as the zeros it means
                if (d.getSourceAddress(scratch, 0, IP_ADDRESS) == 0)
                {
                    Arrays.fill(scratch, 0, IP_ADDRESS, (byte)0);
                }
                bytes("sourceAddress", IP_ADDRESS);
            }
            case FIX_SESSION_MARK ->
            {
                final FixSessionMarkDecoder d = fixSessionMark.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                u64("connectionId", d.connectionId());
                bytes("credentialId", d.getCredentialId(scratch, 0, AGENT_ID));
                enumValue("subSession", FIX_SUB_SESSION, d.subSessionRaw());
                enumValue("kind", FIX_MARK_KIND, d.kindRaw());
                u64("nextInSeq", d.nextInSeq());
                u64("nextOutSeq", d.nextOutSeq());
                u64("reservedOutThrough", d.reservedOutThrough());
                u64("reportKey", version < JournalRecords.FIX_REPORT_KEY_VERSION ? 0 : d.reportKey());
            }
            case SET_FIX_ONBOARDING ->
            {
                final SetFixOnboardingDecoder d = setFixOnboarding.wrap(buffer, offset, blockLength, version);
                commandHeader(d.sequence(), d.timestampMs(), d.epoch());
                envelope(d.envelope());
                bytes("credentialId", d.getCredentialId(scratch, 0, AGENT_ID));
                bool("fixEnabled", d.fixEnabledRaw());
                bool("dropCopy", d.dropCopyRaw());
                bool("allMarkets", d.allMarketsRaw());
                u32("marketCount", d.marketCount());
                bytes("markets", d.getMarkets(scratch(FIX_MARKETS), 0, FIX_MARKETS));
                enumValue("rateTier", FIX_RATE_TIER, d.rateTierRaw());
                bool("cancelOnDisconnect", d.cancelOnDisconnectRaw());
                u32("codGraceMs", d.codGraceMs());
            }
            case ACTION_ACCEPTED ->
            {
                final ActionAcceptedDecoder d = actionAccepted.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u64("nonce", d.nonce());
                bytes("digest", d.getDigest(scratch, 0, DIGEST));
                u32("rateRemaining", d.rateRemaining());
                u32("rateResetMs", d.rateResetMs());
                u64("nonceFloor", d.nonceFloor());
                u64("nextUsableNonce", d.nextUsableNonce());
            }
            case ACTION_REJECTED ->
            {
                final ActionRejectedDecoder d = actionRejected.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u64("nonce", d.nonce());
                bytes("digest", d.getDigest(scratch, 0, DIGEST));
                enumValue("code", REJECT_CODE, d.codeRaw());
                u64("nonceFloor", d.nonceFloor());
                u64("nonceWindow", d.nonceWindow());
                u64("nextUsableNonce", d.nextUsableNonce());
                nullable("legIndex", d.legIndex(), ActionRejectedDecoder.legIndexNullValue());
                u32("rateRemaining", d.rateRemaining());
                u32("rateResetMs", d.rateResetMs());
            }
            case ORDER_ACCEPTED ->
            {
                final OrderAcceptedDecoder d = orderAccepted.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                bytes("orderId", d.getOrderId(scratch, 0, DIGEST));
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u32("market", d.market());
                enumValue("book", BOOK, d.bookRaw());
                enumValue("side", SIDE, d.sideRaw());
                u64("price", d.price());
                u64("qty", d.qty());
                u64("remaining", d.remaining());
            }
            case ORDER_RESTED ->
            {
                final OrderRestedDecoder d = orderRested.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                bytes("orderId", d.getOrderId(scratch, 0, DIGEST));
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u32("market", d.market());
                enumValue("book", BOOK, d.bookRaw());
                enumValue("side", SIDE, d.sideRaw());
                u64("price", d.price());
                u64("qty", d.qty());
                u64("remaining", d.remaining());
            }
            case TRADE ->
            {
                final TradeDecoder d = trade.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                u32("market", d.market());
                enumValue("book", BOOK, d.bookRaw());
                bytes("makerOrderId", d.getMakerOrderId(scratch, 0, DIGEST));
                bytes("makerAccount", d.getMakerAccount(scratch, 0, ADDRESS));
                bytes("takerOrderId", d.getTakerOrderId(scratch, 0, DIGEST));
                bytes("takerAccount", d.getTakerAccount(scratch, 0, ADDRESS));
                u64("price", d.price());
                u64("qty", d.qty());
                enumValue("takerSide", SIDE, d.takerSideRaw());
                u64("makerRemaining", d.makerRemaining());
            }
            case ORDER_DONE ->
            {
                final OrderDoneDecoder d = orderDone.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                bytes("orderId", d.getOrderId(scratch, 0, DIGEST));
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u32("market", d.market());
                enumValue("reason", ORDER_DONE_REASON, d.reasonRaw());
                u64("remaining", d.remaining());
            }
            case ORDER_AMENDED ->
            {
                final OrderAmendedDecoder d = orderAmended.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                bytes("orderId", d.getOrderId(scratch, 0, DIGEST));
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u32("market", d.market());
                u64("price", d.price());
                u64("qty", d.qty());
                u64("remaining", d.remaining());
                bool("priorityKept", d.priorityKeptRaw());
            }
            case BALANCE_CHANGED ->
            {
                final BalanceChangedDecoder d = balanceChanged.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u32("asset", d.asset());
                u64("available", d.available());
                u64("locked", d.locked());
            }
            case POSITION_CHANGED ->
            {
                final PositionChangedDecoder d = positionChanged.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u32("market", d.market());
                u64("yes", d.yes());
                u64("yesLocked", d.yesLocked());
                u64("no", d.no());
                u64("noLocked", d.noLocked());
            }
            case BOOK_DELTA ->
            {
                final BookDeltaDecoder d = bookDelta.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                u32("market", d.market());
                enumValue("book", BOOK, d.bookRaw());
                enumValue("side", SIDE, d.sideRaw());
                u64("price", d.price());
                u64("levelQty", d.levelQty());
                u32("orderCount", d.orderCount());
            }
            case MARKET_CREATED ->
            {
                final MarketCreatedDecoder d = marketCreated.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                u32("market", d.market());
                enumValue("kind", MARKET_KIND, d.kindRaw());
                u32("baseAsset", d.baseAsset());
                u32("quoteAsset", d.quoteAsset());
                u32("collateralAsset", d.collateralAsset());
                u64("tickSize", d.tickSize());
                u64("lotSize", d.lotSize());
                u64("minQty", d.minQty());
            }
            case MARKET_STATUS_CHANGED ->
            {
                final MarketStatusChangedDecoder d = marketStatusChanged.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                u32("market", d.market());
                enumValue("status", MARKET_STATUS, d.statusRaw());
            }
            case ASSET_CREATED ->
            {
                final AssetCreatedDecoder d = assetCreated.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                u32("asset", d.asset());
                symbol("symbol", d.getSymbol(scratch, 0));
            }
            case KILL_SWITCH_CHANGED ->
            {
                final KillSwitchChangedDecoder d = killSwitchChanged.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                enumValue("scope", KILL_SCOPE, d.scopeRaw());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u32("market", d.market());
                bool("active", d.activeRaw());
            }
            case VAULT_OWNER_CHANGED ->
            {
                final VaultOwnerChangedDecoder d = vaultOwnerChanged.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                bool("hasOwner", d.hasOwnerRaw());
                bytes("owner", d.getOwner(scratch, 0, ADDRESS));
            }
            case AGENT_CHANGED ->
            {
                final AgentChangedDecoder d = agentChanged.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                bytes("owner", d.getOwner(scratch, 0, ADDRESS));
                bytes("agentId", d.getAgentId(scratch, 0, AGENT_ID));
                bytes("credentialId", d.getCredentialId(scratch, 0, AGENT_ID));
                enumValue("state", AGENT_STATE, d.stateRaw());
                enumValue("keyKind", AGENT_KEY_KIND, d.keyKindRaw());
                bytes("agentKey", d.getAgentKey(scratch, 0, AGENT_KEY));
                enumValue("agentKind", AGENT_KIND, d.agentKindRaw());
                scopes("scopes", d.scopes().getRaw());
                u64("validUntilMs", d.validUntilMs());
            }
            case PROTECTION_CHANGED ->
            {
                final ProtectionChangedDecoder d = protectionChanged.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                enumValue("kind", PROTECTION_KIND, d.kindRaw());
                enumValue("action", PROTECTION_ACTION, d.actionRaw());
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                u32("market", d.market());
                bool("allMarkets", d.allMarketsRaw());
                u64("sessionId", d.sessionId());
                bytes("credentialId", d.getCredentialId(scratch, 0, AGENT_ID));
                u64("deadlineMs", d.deadlineMs());
                u32("cancelled", d.cancelled());
            }
            case FIX_ONBOARDING_CHANGED ->
            {
                final FixOnboardingChangedDecoder d = fixOnboardingChanged.wrap(buffer, offset, blockLength, version);
                eventHeader(d.sequence(), d.eventIndex());
                bytes("credentialId", d.getCredentialId(scratch, 0, AGENT_ID));
                bytes("account", d.getAccount(scratch, 0, ADDRESS));
                bool("fixEnabled", d.fixEnabledRaw());
                bool("dropCopy", d.dropCopyRaw());
                bool("allMarkets", d.allMarketsRaw());
                u32("marketCount", d.marketCount());
                bytes("markets", d.getMarkets(scratch(FIX_MARKETS), 0, FIX_MARKETS));
                enumValue("rateTier", FIX_RATE_TIER, d.rateTierRaw());
                bool("cancelOnDisconnect", d.cancelOnDisconnectRaw());
                u32("codGraceMs", d.codGraceMs());
            }
        }
    }

    private void printBatch(final BatchDecoder d)
    {
        commandHeader(d.sequence(), d.timestampMs(), d.epoch());
        envelope(d.envelope());
        json.beginArray("legs");
        for (final BatchDecoder.LegsDecoder leg : d.legs())
        {
            json.beginObject();
            enumValue("legType", LEG_TYPE, leg.legTypeRaw());
            bytes("orderId", leg.getOrderId(scratch, 0, DIGEST));
            bytes("clientOrderId", leg.getClientOrderId(scratch, 0, CLIENT_ORDER_ID));
            u32("market", leg.market());
            enumValue("book", BOOK, leg.bookRaw());
            enumValue("side", SIDE, leg.sideRaw());
            u64("price", leg.price());
            u64("qty", leg.qty());
            enumValue("stpMode", STP_MODE, leg.stpModeRaw());
            enumValue("timeInForce", TIME_IN_FORCE, leg.timeInForceRaw());
            bool("isMarket", leg.isMarketRaw());
            bool("reduceOnly", leg.reduceOnlyRaw());
            nullable("expiresAt", leg.expiresAt(), BatchDecoder.LegsDecoder.expiresAtNullValue());
            json.endObject();
        }
        json.endArray();
    }

    private void commandHeader(final long sequence, final long timestampMs, final long epoch)
    {
        u64("sequence", sequence);
        u64("timestampMs", timestampMs);
        u32("epoch", epoch);
    }

    private void eventHeader(final long sequence, final long eventIndex)
    {
        u64("sequence", sequence);
        u32("eventIndex", eventIndex);
    }

    private void envelope(final ActionEnvelopeDecoder e)
    {
        json.beginObject("envelope");
        bytes("account", e.getAccount(scratch, 0, ADDRESS));
        u64("nonce", e.nonce());
        u64("ts", e.ts());
        bool("hasClientOrderId", e.hasClientOrderIdRaw());
        bytes("clientOrderId", e.getClientOrderId(scratch, 0, CLIENT_ORDER_ID));
        bytes("digest", e.getDigest(scratch, 0, DIGEST));
        enumValue("signerMatch", SIGNER_MATCH, e.signerMatchRaw());
        bytes("rawSigner", e.getRawSigner(scratch, 0, ADDRESS));
        bytes("personalSigner", e.getPersonalSigner(scratch, 0, ADDRESS));
        bytes("signature", e.getSignature(scratch(SIGNATURE), 0, SIGNATURE));
        json.endObject();
    }

    private void u64(final String name, final long value)
    {
        json.key(name).unsigned(value);
    }

    private void u32(final String name, final long value)
    {
        json.key(name).number(value);
    }

    private void nullable(final String name, final long value, final long nullValue)
    {
        json.key(name);
        if (value == nullValue)
        {
            json.nullValue();
        }
        else
        {
            json.number(value);
        }
    }

    private void enumValue(final String name, final EnumNames names, final short raw)
    {
        final String valueName = names.nameOf(raw);
        json.key(name).string(valueName != null ? valueName : "UNKNOWN(" + raw + ")");
    }

    /** A {@code BooleanType}: 0 and 1 as JSON booleans, anything else named as unknown. */
    private void bool(final String name, final short raw)
    {
        json.key(name);
        if (raw == BooleanType.FALSE.value() || raw == BooleanType.TRUE.value())
        {
            json.bool(raw == BooleanType.TRUE.value());
        }
        else
        {
            json.string("UNKNOWN(" + raw + ")");
        }
    }

    private void scopes(final String name, final short raw)
    {
        json.beginArray(name);
        for (int bit = 0; bit < 8; bit++)
        {
            if ((raw & (1 << bit)) != 0)
            {
                json.string(bit < SCOPE_NAMES.length ? SCOPE_NAMES[bit] : "bit" + bit);
            }
        }
        json.endArray();
    }

    /** {@code length} bytes of the scratch array as hex. */
    private void bytes(final String name, final int length)
    {
        json.key(name).hex(scratch, length);
    }

    /** A NUL-padded fixed char array in the scratch array: the chars before the first NUL. */
    private void symbol(final String name, final int length)
    {
        int end = 0;
        while (end < length && scratch[end] != 0)
        {
            end++;
        }
        json.key(name).asciiString(scratch, end);
    }

    private void ascii(final String name, final int length)
    {
        json.key(name).asciiString(scratch, length);
    }

    private void utf8(final String name, final int length)
    {
        json.key(name).string(new String(scratch, 0, length, StandardCharsets.UTF_8));
    }

    private byte[] scratch(final int length)
    {
        if (scratch.length < length)
        {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        return scratch;
    }
}
