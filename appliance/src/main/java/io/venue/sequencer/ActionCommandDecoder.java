package io.venue.sequencer;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.Batch;
import io.venue.action.BatchLeg;
import io.venue.action.Cancel;
import io.venue.action.CancelAll;
import io.venue.action.CancelByClientOrderId;
import io.venue.action.ClientOrderId;
import io.venue.action.CreateAsset;
import io.venue.action.CreateOutcomeMarket;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.HaltMarket;
import io.venue.action.Merge;
import io.venue.action.OrderId;
import io.venue.action.ResumeMarket;
import io.venue.action.SetKillSwitch;
import io.venue.action.FixRateTier;
import io.venue.action.SetFixOnboarding;
import io.venue.action.SetVaultOwner;
import io.venue.action.Split;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.Withdraw;
import io.venue.journal.JournalRecords;
import io.venue.journal.RecordError;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.AmendDecoder;
import io.venue.journal.sbe.BatchDecoder;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.CancelAllDecoder;
import io.venue.journal.sbe.CancelByClientOrderIdDecoder;
import io.venue.journal.sbe.CancelDecoder;
import io.venue.journal.sbe.CreateAssetDecoder;
import io.venue.journal.sbe.CreateOutcomeMarketDecoder;
import io.venue.journal.sbe.CreateSpotMarketDecoder;
import io.venue.journal.sbe.DepositDecoder;
import io.venue.journal.sbe.HaltMarketDecoder;
import io.venue.journal.sbe.MergeDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.PlaceOrderDecoder;
import io.venue.journal.sbe.ResumeMarketDecoder;
import io.venue.journal.sbe.SetKillSwitchDecoder;
import io.venue.journal.sbe.SetFixOnboardingDecoder;
import io.venue.journal.sbe.SetVaultOwnerDecoder;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.SplitDecoder;
import io.venue.journal.sbe.StpMode;
import io.venue.journal.sbe.TimeInForce;
import io.venue.journal.sbe.WithdrawDecoder;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import io.venue.action.KillScope;
import io.venue.journal.sbe.LimitClass;

/**
 * The inverse of {@link ActionCommandEncoder}: the signed action a command record was made from, rebuilt
 * from the record's fields, so that an audit can encode it to canonical JSON again and check its digest and
 * signature ({@link SignatureAudit}). Allocates: for tools, not the hot path.
 */
public final class ActionCommandDecoder
{
    private final JournalRecords records = new JournalRecords();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final PlaceOrderDecoder placeOrder = new PlaceOrderDecoder();
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
    private final SetFixOnboardingDecoder setFixOnboarding = new SetFixOnboardingDecoder();
    private ActionEnvelopeDecoder envelope;
    private boolean mmLimitClass;

    /**
     * @return the payload, or null for a record that is not a signed action (owner intents, pre-journal
     * rejections, other schemas). {@link #envelope()} then points at the record's envelope.
     * @throws IllegalArgumentException when the record is cut short or malformed ({@link JournalRecords}), or a field
     *                                  holds a value no action can have (a damaged record).
     */
    public ActionPayload decode(final DirectBuffer buffer, final int offset, final int length)
    {
        final RecordError error = records.wrap(buffer, offset, length);
        if (error != RecordError.NONE)
        {
            throw new IllegalArgumentException("an unreadable record: " + error);
        }
        header.wrap(buffer, offset);
        final int body = offset + MessageHeaderDecoder.ENCODED_LENGTH;
        final int block = header.blockLength();
        final int version = header.version();
        final Action action;
        mmLimitClass = false;
        switch (header.templateId())
        {
            case PlaceOrderDecoder.TEMPLATE_ID ->
            {
                final PlaceOrderDecoder d = placeOrder.wrap(buffer, body, block, version);
                envelope = d.envelope();
                mmLimitClass = d.limitClassRaw() == LimitClass.MM.value();
                action = new SpotPlaceOrder(d.market(), book(d.book()), side(d.side()), d.price(), d.qty(),
                    stp(d.stpMode()), tif(d.timeInForce()), d.isMarket() == BooleanType.TRUE,
                    d.reduceOnly() == BooleanType.TRUE, d.expiresAt());
            }
            case CancelDecoder.TEMPLATE_ID ->
            {
                final CancelDecoder d = cancel.wrap(buffer, body, block, version);
                envelope = d.envelope();
                mmLimitClass = d.limitClassRaw() == LimitClass.MM.value();
                action = new Cancel(new OrderId(bytes(buffer, d.offset() + CancelDecoder.orderIdEncodingOffset(), 32)));
            }
            case AmendDecoder.TEMPLATE_ID ->
            {
                final AmendDecoder d = amend.wrap(buffer, body, block, version);
                envelope = d.envelope();
                mmLimitClass = d.limitClassRaw() == LimitClass.MM.value();
                action = new Amend(new OrderId(bytes(buffer, d.offset() + AmendDecoder.orderIdEncodingOffset(), 32)),
                    d.price(), d.qty());
            }
            case CancelByClientOrderIdDecoder.TEMPLATE_ID ->
            {
                final CancelByClientOrderIdDecoder d = cancelByClientOrderId.wrap(buffer, body, block, version);
                envelope = d.envelope();
                mmLimitClass = d.limitClassRaw() == LimitClass.MM.value();
                action = new CancelByClientOrderId(new ClientOrderId(
                    bytes(buffer, d.offset() + CancelByClientOrderIdDecoder.clientOrderIdEncodingOffset(), 16)));
            }
            case CancelAllDecoder.TEMPLATE_ID ->
            {
                final CancelAllDecoder d = cancelAll.wrap(buffer, body, block, version);
                envelope = d.envelope();
                action = new CancelAll(d.allMarkets() == BooleanType.TRUE ? CancelAll.ALL_MARKETS : d.market());
            }
            case BatchDecoder.TEMPLATE_ID ->
            {
                final BatchDecoder d = batch.wrap(buffer, body, block, version);
                envelope = d.envelope();
                action = batch(d);
            }
            case SplitDecoder.TEMPLATE_ID ->
            {
                final SplitDecoder d = split.wrap(buffer, body, block, version);
                envelope = d.envelope();
                action = new Split(d.market(), d.qty());
            }
            case MergeDecoder.TEMPLATE_ID ->
            {
                final MergeDecoder d = merge.wrap(buffer, body, block, version);
                envelope = d.envelope();
                action = new Merge(d.market(), d.qty());
            }
            default ->
            {
                action = admin(header.templateId(), buffer, body, block, version);
                if (null == action)
                {
                    return null;
                }
            }
        }
        final int at = envelope.offset();
        final ClientOrderId clientOrderId = envelope.hasClientOrderId() == BooleanType.TRUE ?
            new ClientOrderId(bytes(buffer, at + ActionEnvelopeDecoder.clientOrderIdEncodingOffset(), 16)) : null;
        return new ActionPayload(new Address(bytes(buffer, at + ActionEnvelopeDecoder.accountEncodingOffset(), 20)),
            envelope.nonce(), clientOrderId, envelope.ts(), action);
    }

    /**
     * Whether the record last decoded to a payload is an order command of limit class MM (one of the MM/BSL compact
     * routes, whose windows were charged before the journal).
     */
    public boolean mmLimitClass()
    {
        return mmLimitClass;
    }

    /** The envelope of the record last decoded to a payload: digest, signer match, signers, signature. */
    public ActionEnvelopeDecoder envelope()
    {
        return envelope;
    }

    private Action admin(final int templateId, final DirectBuffer buffer, final int body, final int block,
        final int version)
    {
        switch (templateId)
        {
            case CreateAssetDecoder.TEMPLATE_ID:
            {
                final CreateAssetDecoder d = createAsset.wrap(buffer, body, block, version);
                envelope = d.envelope();
                return new CreateAsset(d.asset(), d.symbol());
            }
            case CreateSpotMarketDecoder.TEMPLATE_ID:
            {
                final CreateSpotMarketDecoder d = createSpotMarket.wrap(buffer, body, block, version);
                envelope = d.envelope();
                return new CreateSpotMarket(d.market(), d.baseAsset(), d.quoteAsset(), d.tickSize(),
                    d.lotSize(), d.minQty());
            }
            case CreateOutcomeMarketDecoder.TEMPLATE_ID:
            {
                final CreateOutcomeMarketDecoder d = createOutcomeMarket.wrap(buffer, body, block, version);
                envelope = d.envelope();
                return new CreateOutcomeMarket(d.market(), d.collateralAsset(), d.tickSize(), d.lotSize(), d.minQty());
            }
            case HaltMarketDecoder.TEMPLATE_ID:
            {
                final HaltMarketDecoder d = haltMarket.wrap(buffer, body, block, version);
                envelope = d.envelope();
                return new HaltMarket(d.market());
            }
            case ResumeMarketDecoder.TEMPLATE_ID:
            {
                final ResumeMarketDecoder d = resumeMarket.wrap(buffer, body, block, version);
                envelope = d.envelope();
                return new ResumeMarket(d.market());
            }
            case SetKillSwitchDecoder.TEMPLATE_ID:
            {
                final SetKillSwitchDecoder d = setKillSwitch.wrap(buffer, body, block, version);
                envelope = d.envelope();
                final KillScope scope = switch (d.scope())
                {
                    case ACCOUNT -> KillScope.ACCOUNT;
                    case MARKET -> KillScope.MARKET;
                    case VENUE -> KillScope.VENUE;
                    default -> throw new IllegalArgumentException("kill scope " + d.scope());
                };
                final Address account = scope == KillScope.ACCOUNT ?
                    new Address(bytes(buffer, d.offset() + SetKillSwitchDecoder.accountEncodingOffset(), 20)) : null;
                return new SetKillSwitch(scope, account,
                    scope == KillScope.MARKET ? d.market() : SetKillSwitch.NO_MARKET,
                    d.active() == BooleanType.TRUE);
            }
            case DepositDecoder.TEMPLATE_ID:
            {
                final DepositDecoder d = deposit.wrap(buffer, body, block, version);
                envelope = d.envelope();
                return new Deposit(new Address(bytes(buffer, d.offset() + DepositDecoder.accountEncodingOffset(), 20)),
                    d.asset(), d.amount());
            }
            case WithdrawDecoder.TEMPLATE_ID:
            {
                final WithdrawDecoder d = withdraw.wrap(buffer, body, block, version);
                envelope = d.envelope();
                return new Withdraw(
                    new Address(bytes(buffer, d.offset() + WithdrawDecoder.accountEncodingOffset(), 20)), d.asset(),
                    d.amount());
            }
            case SetVaultOwnerDecoder.TEMPLATE_ID:
            {
                final SetVaultOwnerDecoder d = setVaultOwner.wrap(buffer, body, block, version);
                envelope = d.envelope();
                return new SetVaultOwner(
                    new Address(bytes(buffer, d.offset() + SetVaultOwnerDecoder.accountEncodingOffset(), 20)),
                    d.hasOwner() == BooleanType.TRUE ?
                        new Address(bytes(buffer, d.offset() + SetVaultOwnerDecoder.ownerEncodingOffset(), 20)) : null);
            }
            case SetFixOnboardingDecoder.TEMPLATE_ID:
            {
                final SetFixOnboardingDecoder d = setFixOnboarding.wrap(buffer, body, block, version);
                envelope = d.envelope();
                List<Long> markets = null;
                if (d.allMarkets() != BooleanType.TRUE)
                {
                    markets = new ArrayList<>();
                    final int at = d.offset() + SetFixOnboardingDecoder.marketsEncodingOffset();
                    for (int i = 0; i < Math.min(d.marketCount(), SetFixOnboardingDecoder.marketsLength() / 4); i++)
                    {
                        markets.add(buffer.getInt(at + 4 * i, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL);
                    }
                }
                return new SetFixOnboarding(String.format("spk_%016x", buffer.getLong(d.offset() +
                    SetFixOnboardingDecoder.credentialIdEncodingOffset(), ByteOrder.BIG_ENDIAN)),
                    d.fixEnabled() == BooleanType.TRUE, d.dropCopy() == BooleanType.TRUE, markets,
                    switch (d.rateTier())
                    {
                        case STANDARD -> FixRateTier.STANDARD;
                        case ENHANCED -> FixRateTier.ENHANCED;
                        case PREMIUM -> FixRateTier.PREMIUM;
                        default -> null;
                    }, d.cancelOnDisconnect() == BooleanType.TRUE, d.codGraceMs());
            }
            default:
                return null;
        }
    }

    private static Batch batch(final BatchDecoder d)
    {
        final List<BatchLeg> legs = new ArrayList<>();
        for (final BatchDecoder.LegsDecoder leg : d.legs())
        {
            legs.add(switch (leg.legType())
            {
                case PLACE -> new SpotPlaceOrder(leg.market(), book(leg.book()), side(leg.side()), leg.price(),
                    leg.qty(), stp(leg.stpMode()), tif(leg.timeInForce()), leg.isMarket() == BooleanType.TRUE,
                    leg.reduceOnly() == BooleanType.TRUE, leg.expiresAt());
                case CANCEL -> new Cancel(new OrderId(orderId(leg)));
                case AMEND -> new Amend(new OrderId(orderId(leg)), leg.price(), leg.qty());
                case CANCEL_BY_CLIENT_ORDER_ID -> new CancelByClientOrderId(new ClientOrderId(clientOrderId(leg)));
                default -> throw new IllegalArgumentException("leg type " + leg.legType());
            });
        }
        return new Batch(legs);
    }

    private static byte[] orderId(final BatchDecoder.LegsDecoder leg)
    {
        final byte[] id = new byte[32];
        leg.getOrderId(id, 0, 32);
        return id;
    }

    private static byte[] clientOrderId(final BatchDecoder.LegsDecoder leg)
    {
        final byte[] id = new byte[16];
        leg.getClientOrderId(id, 0, 16);
        return id;
    }

    private static byte[] bytes(final DirectBuffer buffer, final int at, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(at, bytes);
        return bytes;
    }

    /** A record's book in the action model: null for NONE; an undefined value throws IllegalArgumentException. */
    // FQN-CLASH: the action model's Book (Book here is the codec's)
    static io.venue.action.Book book(final Book book)
    {
        return switch (book)
        {
            case NONE -> null;
            // FQN-CLASH: the action model's Book (Book here is the codec's)
            case YES -> io.venue.action.Book.YES;
            // FQN-CLASH: the action model's Book (Book here is the codec's)
            case NO -> io.venue.action.Book.NO;
            default -> throw new IllegalArgumentException("book " + book);
        };
    }

    /** A record's side in the action model; an undefined value throws IllegalArgumentException. */
    // FQN-CLASH: the action model's Side (Side here is the codec's)
    static io.venue.action.Side side(final Side side)
    {
        return switch (side)
        {
            // FQN-CLASH: the action model's Side (Side here is the codec's)
            case BID -> io.venue.action.Side.BID;
            // FQN-CLASH: the action model's Side (Side here is the codec's)
            case ASK -> io.venue.action.Side.ASK;
            default -> throw new IllegalArgumentException("side " + side);
        };
    }

    // FQN-CLASH: the action model's StpMode (StpMode here is the codec's)
    private static io.venue.action.StpMode stp(final StpMode stp)
    {
        return switch (stp)
        {
            case NONE -> null;
            // FQN-CLASH: the action model's StpMode (StpMode here is the codec's)
            case CANCEL_MAKER -> io.venue.action.StpMode.CANCEL_MAKER;
            // FQN-CLASH: the action model's StpMode (StpMode here is the codec's)
            case CANCEL_TAKER -> io.venue.action.StpMode.CANCEL_TAKER;
            // FQN-CLASH: the action model's StpMode (StpMode here is the codec's)
            case REJECT -> io.venue.action.StpMode.REJECT;
            // FQN-CLASH: the action model's StpMode (StpMode here is the codec's)
            case SKIP_SELF -> io.venue.action.StpMode.SKIP_SELF;
            default -> throw new IllegalArgumentException("stp mode " + stp);
        };
    }

    // FQN-CLASH: the action model's TimeInForce (TimeInForce here is the codec's)
    private static io.venue.action.TimeInForce tif(final TimeInForce tif)
    {
        return switch (tif)
        {
            // FQN-CLASH: the action model's TimeInForce (TimeInForce here is the codec's)
            case GTC -> io.venue.action.TimeInForce.GTC;
            // FQN-CLASH: the action model's TimeInForce (TimeInForce here is the codec's)
            case IOC -> io.venue.action.TimeInForce.IOC;
            // FQN-CLASH: the action model's TimeInForce (TimeInForce here is the codec's)
            case FOK -> io.venue.action.TimeInForce.FOK;
            // FQN-CLASH: the action model's TimeInForce (TimeInForce here is the codec's)
            case POST_ONLY -> io.venue.action.TimeInForce.POST_ONLY;
            default -> throw new IllegalArgumentException("time in force " + tif);
        };
    }
}
