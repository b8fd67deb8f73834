package io.venue.sequencer;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Amend;
import io.venue.action.Batch;
import io.venue.action.BatchLeg;
import io.venue.action.Cancel;
import io.venue.action.CancelAll;
import io.venue.action.CancelByClientOrderId;
import io.venue.action.CreateAsset;
import io.venue.action.CreateOutcomeMarket;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.HaltMarket;
import io.venue.action.Merge;
import io.venue.action.ResumeMarket;
import io.venue.action.SetKillSwitch;
import io.venue.action.SetFixOnboarding;
import io.venue.action.SetVaultOwner;
import io.venue.action.Split;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.Withdraw;
import io.venue.crypto.OrderIds;
import io.venue.journal.sbe.ActionEnvelopeEncoder;
import io.venue.journal.sbe.AmendEncoder;
import io.venue.journal.sbe.BatchEncoder;
import io.venue.journal.sbe.Book;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.CancelAllEncoder;
import io.venue.journal.sbe.CancelByClientOrderIdEncoder;
import io.venue.journal.sbe.CancelEncoder;
import io.venue.journal.sbe.CreateAssetEncoder;
import io.venue.journal.sbe.CreateOutcomeMarketEncoder;
import io.venue.journal.sbe.CreateSpotMarketEncoder;
import io.venue.journal.sbe.DepositEncoder;
import io.venue.journal.sbe.HaltMarketEncoder;
import io.venue.journal.sbe.KillScope;
import io.venue.journal.sbe.LegType;
import io.venue.journal.sbe.LimitClass;
import io.venue.journal.sbe.MergeEncoder;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.PlaceOrderEncoder;
import io.venue.journal.sbe.ResumeMarketEncoder;
import io.venue.journal.sbe.SetKillSwitchEncoder;
import io.venue.journal.sbe.FixRateTier;
import io.venue.journal.sbe.SetFixOnboardingEncoder;
import io.venue.journal.sbe.SetVaultOwnerEncoder;
import io.venue.journal.sbe.Side;
import io.venue.journal.sbe.SignerMatch;
import io.venue.journal.sbe.SplitEncoder;
import io.venue.journal.sbe.StpMode;
import io.venue.journal.sbe.TimeInForce;
import io.venue.journal.sbe.WithdrawEncoder;
import io.venue.verifier.CommandWriter;
import org.agrona.MutableDirectBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Turns a verified signed action into its journal command: the payload's fields, the stamped sequence
 * and time, and what the verifier found (digest, signer match, signer candidates). Batch legs that place
 * get their order ids derived here (docs/SIGNING.md section 5), so the engine never hashes.
 * <p>
 * One instance per sequencer thread; the encoders are reused.
 */
public final class ActionCommandEncoder implements CommandWriter
{
    private static final int ADDRESS = 20;
    private static final int DIGEST = 32;
    private static final int SIGNATURE = 65;

    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final PlaceOrderEncoder placeOrder = new PlaceOrderEncoder();
    private final CancelEncoder cancel = new CancelEncoder();
    private final AmendEncoder amend = new AmendEncoder();
    private final CancelByClientOrderIdEncoder cancelByClientOrderId = new CancelByClientOrderIdEncoder();
    private final CancelAllEncoder cancelAll = new CancelAllEncoder();
    private final BatchEncoder batch = new BatchEncoder();
    private final SplitEncoder split = new SplitEncoder();
    private final MergeEncoder merge = new MergeEncoder();
    private final CreateAssetEncoder createAsset = new CreateAssetEncoder();
    private final CreateSpotMarketEncoder createSpotMarket = new CreateSpotMarketEncoder();
    private final CreateOutcomeMarketEncoder createOutcomeMarket = new CreateOutcomeMarketEncoder();
    private final HaltMarketEncoder haltMarket = new HaltMarketEncoder();
    private final ResumeMarketEncoder resumeMarket = new ResumeMarketEncoder();
    private final SetKillSwitchEncoder setKillSwitch = new SetKillSwitchEncoder();
    private final DepositEncoder deposit = new DepositEncoder();
    private final WithdrawEncoder withdraw = new WithdrawEncoder();
    private final SetVaultOwnerEncoder setVaultOwner = new SetVaultOwnerEncoder();
    private final SetFixOnboardingEncoder setFixOnboarding = new SetFixOnboardingEncoder();
    private final OrderIds orderIds = new OrderIds();
    private final byte[] scratch = new byte[32];
    private final byte[] signature = new byte[SIGNATURE];

    /** On a verifier's thread: the command with sequence, time and epoch zero, for the single writer to stamp. */
    @Override
    public int write(
        final ActionPayload payload,
        final byte[] digest,
        final int signerMatch,
        final byte[] rawSigner,
        final byte[] personalSigner,
        final byte[] signature,
        final boolean mmLimitClass,
        final MutableDirectBuffer out,
        final int offset)
    {
        return encode(0, 0, 0, payload, digest, SignerMatch.get((short)signerMatch), rawSigner, personalSigner,
            signature, mmLimitClass, out, offset);
    }

    /**
     * Writes the command at {@code buffer[offset..)}.
     *
     * @param digest         the v2 digest of the payload (32 bytes).
     * @param signerMatch    how the verifier matched the signer.
     * @param rawSigner      the raw-mode recovered signer (20 bytes).
     * @param personalSigner the personal-mode recovered signer (20 bytes; zeros if not computed).
     * @return the record's length, header included.
     */
    public int encode(
        final long sequence,
        final long timestampMs,
        final long epoch,
        final ActionPayload payload,
        final byte[] digest,
        final SignerMatch signerMatch,
        final byte[] rawSigner,
        final byte[] personalSigner,
        final MutableDirectBuffer buffer,
        final int offset)
    {
        return encode(sequence, timestampMs, epoch, payload, digest, signerMatch, rawSigner, personalSigner, null,
            false, buffer, offset);
    }

    /**
     * As above, keeping the request's signature in the envelope so an audit can verify it again
     * ({@link SignatureAudit}), and with {@code mmLimitClass} journaling a place, cancel, amend or cancel by client
     * order id as of limit class MM (it came in on the MM/BSL compact routes, whose windows were charged before the
     * journal), which the engine's per-account action limiter does not count; TRADING otherwise.
     *
     * @param requestSignature r, s, v as the request carried them (65 bytes), or null for none (zeros).
     */
    public int encode(
        final long sequence,
        final long timestampMs,
        final long epoch,
        final ActionPayload payload,
        final byte[] digest,
        final SignerMatch signerMatch,
        final byte[] rawSigner,
        final byte[] personalSigner,
        final byte[] requestSignature,
        final boolean mmLimitClass,
        final MutableDirectBuffer buffer,
        final int offset)
    {
        if (null == requestSignature)
        {
            Arrays.fill(signature, (byte)0);
        }
        else
        {
            System.arraycopy(requestSignature, 0, signature, 0, SIGNATURE);
        }
        final Action action = payload.action();
        final int bodyLength;
        final LimitClass limitClass = mmLimitClass ? LimitClass.MM : LimitClass.TRADING;
        if (action instanceof SpotPlaceOrder order)
        {
            final PlaceOrderEncoder e = placeOrder.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            e.market(order.market()).book(book(order.book())).side(side(order.side())).price(order.price())
                .qty(order.qty())
                .stpMode(stp(order.stpMode())).timeInForce(tif(order.timeInForce())).isMarket(bool(order.isMarket()))
                .reduceOnly(bool(order.reduceOnly())).expiresAt(order.expiresAt()).limitClass(limitClass);
            bodyLength = e.encodedLength();
        }
        else if (action instanceof Cancel c)
        {
            final CancelEncoder e = cancel.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            c.orderId().copyTo(scratch, 0);
            e.putOrderId(scratch, 0, DIGEST).limitClass(limitClass);
            bodyLength = e.encodedLength();
        }
        else if (action instanceof Amend a)
        {
            final AmendEncoder e = amend.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            a.orderId().copyTo(scratch, 0);
            e.putOrderId(scratch, 0, DIGEST).price(a.price()).qty(a.qty()).limitClass(limitClass);
            bodyLength = e.encodedLength();
        }
        else if (action instanceof CancelByClientOrderId c)
        {
            final CancelByClientOrderIdEncoder e = cancelByClientOrderId.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            c.clientOrderId().copyTo(scratch, 0);
            e.putClientOrderId(scratch, 0, 16).limitClass(limitClass);
            bodyLength = e.encodedLength();
        }
        else if (action instanceof CancelAll c)
        {
            final CancelAllEncoder e = cancelAll.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            final boolean all = c.market() == CancelAll.ALL_MARKETS;
            e.market(all ? 0 : c.market()).allMarkets(bool(all));
            bodyLength = e.encodedLength();
        }
        else if (action instanceof Batch b)
        {
            bodyLength = batch(b, sequence, timestampMs, epoch, payload, digest, signerMatch, rawSigner, personalSigner,
                buffer, offset);
        }
        else if (action instanceof Split s)
        {
            final SplitEncoder e = split.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            e.market(s.market()).qty(s.qty());
            bodyLength = e.encodedLength();
        }
        else if (action instanceof Merge m)
        {
            final MergeEncoder e = merge.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            e.market(m.market()).qty(m.qty());
            bodyLength = e.encodedLength();
        }
        else
        {
            bodyLength = admin(action, sequence, timestampMs, epoch, payload, digest, signerMatch, rawSigner,
                personalSigner, buffer, offset);
        }
        return MessageHeaderEncoder.ENCODED_LENGTH + bodyLength;
    }

    private int batch(
        final Batch b,
        final long sequence,
        final long timestampMs,
        final long epoch,
        final ActionPayload payload,
        final byte[] digest,
        final SignerMatch signerMatch,
        final byte[] rawSigner,
        final byte[] personalSigner,
        final MutableDirectBuffer buffer,
        final int offset)
    {
        final BatchEncoder e = batch.wrapAndApplyHeader(buffer, offset, header)
            .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
        envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
        final BatchEncoder.LegsEncoder legs = e.legsCount(b.legs().size());
        for (int i = 0; i < b.legs().size(); i++)
        {
            final BatchLeg leg = b.legs().get(i);
            legs.next();
            Arrays.fill(scratch, (byte)0);
            legs.putClientOrderId(scratch, 0, 16).market(0).book(Book.NONE).side(Side.BID).price(0).qty(0)
                .stpMode(StpMode.NONE).timeInForce(TimeInForce.GTC).isMarket(BooleanType.FALSE)
                .reduceOnly(BooleanType.FALSE) .expiresAt(BatchEncoder.LegsEncoder.expiresAtNullValue());
            if (leg instanceof SpotPlaceOrder order)
            {
                orderIds.batchLeg(digest, 0, i, scratch, 0);
                legs.legType(LegType.PLACE).putOrderId(scratch, 0, DIGEST).market(order.market())
                    .book(book(order.book()))
                    .side(side(order.side())).price(order.price()).qty(order.qty()).stpMode(stp(order.stpMode()))
                    .timeInForce(tif(order.timeInForce())).isMarket(bool(order.isMarket()))
                    .reduceOnly(bool(order.reduceOnly())).expiresAt(order.expiresAt());
            }
            else if (leg instanceof Cancel c)
            {
                c.orderId().copyTo(scratch, 0);
                legs.legType(LegType.CANCEL).putOrderId(scratch, 0, DIGEST);
            }
            else if (leg instanceof Amend a)
            {
                a.orderId().copyTo(scratch, 0);
                legs.legType(LegType.AMEND).putOrderId(scratch, 0, DIGEST).price(a.price()).qty(a.qty());
            }
            else if (leg instanceof CancelByClientOrderId c)
            {
                Arrays.fill(scratch, (byte)0);
                legs.legType(LegType.CANCEL_BY_CLIENT_ORDER_ID).putOrderId(scratch, 0, DIGEST);
                c.clientOrderId().copyTo(scratch, 0);
                legs.putClientOrderId(scratch, 0, 16);
            }
        }
        return e.encodedLength();
    }

    private int admin(
        final Action action,
        final long sequence,
        final long timestampMs,
        final long epoch,
        final ActionPayload payload,
        final byte[] digest,
        final SignerMatch signerMatch,
        final byte[] rawSigner,
        final byte[] personalSigner,
        final MutableDirectBuffer buffer,
        final int offset)
    {
        if (action instanceof CreateAsset a)
        {
            final CreateAssetEncoder e = createAsset.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            e.asset(a.asset()).symbol(a.symbol());
            return e.encodedLength();
        }
        if (action instanceof CreateSpotMarket m)
        {
            final CreateSpotMarketEncoder e = createSpotMarket.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            e.market(m.market()).baseAsset(m.baseAsset()).quoteAsset(m.quoteAsset()).tickSize(m.tickSize())
                .lotSize(m.lotSize()).minQty(m.minQty());
            return e.encodedLength();
        }
        if (action instanceof CreateOutcomeMarket m)
        {
            final CreateOutcomeMarketEncoder e = createOutcomeMarket.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            e.market(m.market()).collateralAsset(m.collateralAsset()).tickSize(m.tickSize()).lotSize(m.lotSize())
                .minQty(m.minQty());
            return e.encodedLength();
        }
        if (action instanceof HaltMarket h)
        {
            final HaltMarketEncoder e = haltMarket.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            e.market(h.market());
            return e.encodedLength();
        }
        if (action instanceof ResumeMarket r)
        {
            final ResumeMarketEncoder e = resumeMarket.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            e.market(r.market());
            return e.encodedLength();
        }
        if (action instanceof SetKillSwitch k)
        {
            final SetKillSwitchEncoder e = setKillSwitch.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            Arrays.fill(scratch, (byte)0);
            if (k.account() != null)
            {
                k.account().copyTo(scratch, 0);
            }
            e.scope(switch (k.scope())
            {
                case ACCOUNT -> KillScope.ACCOUNT;
                case MARKET -> KillScope.MARKET;
                case VENUE -> KillScope.VENUE;
            }).putAccount(scratch, 0, ADDRESS).market(k.market() == SetKillSwitch.NO_MARKET ? 0 : k.market())
                .active(bool(k.active()));
            return e.encodedLength();
        }
        if (action instanceof Deposit d)
        {
            final DepositEncoder e = deposit.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            d.account().copyTo(scratch, 0);
            e.putAccount(scratch, 0, ADDRESS).asset(d.asset()).amount(d.amount());
            return e.encodedLength();
        }
        if (action instanceof SetFixOnboarding f)
        {
            final SetFixOnboardingEncoder e = setFixOnboarding.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            final long credential = f.credentialBits();
            for (int i = 0; i < 8; i++)
            {
                e.credentialId(i, (short)((credential >>> (56 - 8 * i)) & 0xFF));
            }
            final int count = f.markets() == null ? 0 : f.markets().size();
            e.fixEnabled(bool(f.fixEnabled())).dropCopy(bool(f.dropCopy())).allMarkets(bool(f.markets() == null))
                .marketCount((short)count);
            // 16 little-endian u32s, unused ones zero
            final int markets = e.offset() + SetFixOnboardingEncoder.marketsEncodingOffset();
            for (int i = 0; i < SetFixOnboardingEncoder.marketsLength() / 4; i++)
            {
                buffer.putInt(markets + 4 * i, i < count ? (int)(long)f.markets().get(i) : 0,
                    ByteOrder.LITTLE_ENDIAN);
            }
            e.rateTier(f.rateTier() == null ? FixRateTier.DEFAULT : switch (f.rateTier())
            {
                case STANDARD -> FixRateTier.STANDARD;
                case ENHANCED -> FixRateTier.ENHANCED;
                case PREMIUM -> FixRateTier.PREMIUM;
            }).cancelOnDisconnect(bool(f.cancelOnDisconnect())).codGraceMs(f.codGraceMs());
            return e.encodedLength();
        }
        if (action instanceof SetVaultOwner v)
        {
            final SetVaultOwnerEncoder e = setVaultOwner.wrapAndApplyHeader(buffer, offset, header)
                .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
            envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
            v.account().copyTo(scratch, 0);
            e.putAccount(scratch, 0, ADDRESS);
            Arrays.fill(scratch, (byte)0);
            if (v.owner() != null)
            {
                v.owner().copyTo(scratch, 0);
            }
            e.hasOwner(bool(v.owner() != null)).putOwner(scratch, 0, ADDRESS);
            return e.encodedLength();
        }
        final Withdraw w = (Withdraw)action;
        final WithdrawEncoder e = withdraw.wrapAndApplyHeader(buffer, offset, header)
            .sequence(sequence).timestampMs(timestampMs).epoch(epoch);
        envelope(e.envelope(), payload, digest, signerMatch, rawSigner, personalSigner);
        w.account().copyTo(scratch, 0);
        e.putAccount(scratch, 0, ADDRESS).asset(w.asset()).amount(w.amount());
        return e.encodedLength();
    }

    private void envelope(
        final ActionEnvelopeEncoder envelope,
        final ActionPayload payload,
        final byte[] digest,
        final SignerMatch signerMatch,
        final byte[] rawSigner,
        final byte[] personalSigner)
    {
        payload.account().copyTo(scratch, 0);
        envelope.putAccount(scratch, 0, ADDRESS).nonce(payload.nonce()).ts(payload.ts());
        Arrays.fill(scratch, (byte)0);
        if (payload.clientOrderId() != null)
        {
            payload.clientOrderId().copyTo(scratch, 0);
        }
        envelope.hasClientOrderId(bool(payload.clientOrderId() != null)).putClientOrderId(scratch, 0, 16)
            .putDigest(digest, 0, DIGEST).signerMatch(signerMatch)
            .putRawSigner(rawSigner, 0, ADDRESS).putPersonalSigner(personalSigner, 0, ADDRESS)
            .putSignature(signature, 0, SIGNATURE);
    }

    private static BooleanType bool(final boolean value)
    {
        return value ? BooleanType.TRUE : BooleanType.FALSE;
    }

    // FQN-CLASH: the action model's Book (Book here is the codec's)
    private static Book book(final io.venue.action.Book book)
    {
        // FQN-CLASH: the action model's Book (Book here is the codec's)
        return book == null ? Book.NONE : book == io.venue.action.Book.YES ? Book.YES : Book.NO;
    }

    // FQN-CLASH: the action model's Side (Side here is the codec's)
    private static Side side(final io.venue.action.Side side)
    {
        // FQN-CLASH: the action model's Side (Side here is the codec's)
        return side == io.venue.action.Side.BID ? Side.BID : Side.ASK;
    }

    // FQN-CLASH: the action model's StpMode (StpMode here is the codec's)
    private static StpMode stp(final io.venue.action.StpMode stp)
    {
        if (stp == null)
        {
            return StpMode.NONE;
        }
        return switch (stp)
        {
            case CANCEL_MAKER -> StpMode.CANCEL_MAKER;
            case CANCEL_TAKER -> StpMode.CANCEL_TAKER;
            case REJECT -> StpMode.REJECT;
            case SKIP_SELF -> StpMode.SKIP_SELF;
        };
    }

    // FQN-CLASH: the action model's TimeInForce (TimeInForce here is the codec's)
    private static TimeInForce tif(final io.venue.action.TimeInForce tif)
    {
        return switch (tif)
        {
            case GTC -> TimeInForce.GTC;
            case IOC -> TimeInForce.IOC;
            case FOK -> TimeInForce.FOK;
            case POST_ONLY -> TimeInForce.POST_ONLY;
        };
    }
}
