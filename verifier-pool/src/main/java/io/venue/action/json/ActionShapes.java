package io.venue.action.json;

import io.venue.action.ActionPayload;
import io.venue.action.Amend;
import io.venue.action.Batch;
import io.venue.action.Book;
import io.venue.action.Cancel;
import io.venue.action.CancelAll;
import io.venue.action.CancelByClientOrderId;
import io.venue.action.CreateAsset;
import io.venue.action.CreateOutcomeMarket;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.HaltMarket;
import io.venue.action.KillScope;
import io.venue.action.Merge;
import io.venue.action.ResumeMarket;
import io.venue.action.FixRateTier;
import io.venue.action.SetFixOnboarding;
import io.venue.action.SetKillSwitch;
import io.venue.action.SetVaultOwner;
import io.venue.action.Side;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.Split;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.action.Withdraw;

import static io.venue.action.Fields.ACCOUNT;
import static io.venue.action.Fields.ACTION;
import static io.venue.action.Fields.ACTIVE;
import static io.venue.action.Fields.AMOUNT;
import static io.venue.action.Fields.CANCEL_ON_DISCONNECT;
import static io.venue.action.Fields.COD_GRACE_MS;
import static io.venue.action.Fields.CREDENTIAL_ID;
import static io.venue.action.Fields.DROP_COPY;
import static io.venue.action.Fields.FIX_ENABLED;
import static io.venue.action.Fields.MARKETS;
import static io.venue.action.Fields.RATE_TIER;
import static io.venue.action.Fields.ASSET;
import static io.venue.action.Fields.BASE_ASSET;
import static io.venue.action.Fields.BOOK;
import static io.venue.action.Fields.CLIENT_ORDER_ID;
import static io.venue.action.Fields.COLLATERAL_ASSET;
import static io.venue.action.Fields.EXPIRES_AT;
import static io.venue.action.Fields.IS_MARKET;
import static io.venue.action.Fields.LEGS;
import static io.venue.action.Fields.LOT_SIZE;
import static io.venue.action.Fields.MARKET;
import static io.venue.action.Fields.MIN_QTY;
import static io.venue.action.Fields.NONCE;
import static io.venue.action.Fields.NONCE_RESERVATION_ID;
import static io.venue.action.Fields.ORDER_ID;
import static io.venue.action.Fields.OWNER;
import static io.venue.action.Fields.PRICE;
import static io.venue.action.Fields.QTY;
import static io.venue.action.Fields.QUOTE_ASSET;
import static io.venue.action.Fields.REDUCE_ONLY;
import static io.venue.action.Fields.SCOPE;
import static io.venue.action.Fields.SIDE;
import static io.venue.action.Fields.STP_MODE;
import static io.venue.action.Fields.SYMBOL;
import static io.venue.action.Fields.TICK_SIZE;
import static io.venue.action.Fields.TIME_IN_FORCE;
import static io.venue.action.Fields.TS;
import static io.venue.action.json.FieldKind.ADDRESS;
import static io.venue.action.json.FieldKind.ADDRESS_OR_NULL;
import static io.venue.action.json.FieldKind.BATCH_LEGS;
import static io.venue.action.json.FieldKind.BOOL;
import static io.venue.action.json.FieldKind.CLIENT_ORDER_ID_HEX;
import static io.venue.action.json.FieldKind.CREDENTIAL_ID_TEXT;
import static io.venue.action.json.FieldKind.MILLIS;
import static io.venue.action.json.FieldKind.MILLIS_OR_NULL;
import static io.venue.action.json.FieldKind.NULL_ONLY;
import static io.venue.action.json.FieldKind.ORDER_ID_HEX;
import static io.venue.action.json.FieldKind.SIGNATURE_BYTES;
import static io.venue.action.json.FieldKind.SIGNATURE_SCHEME;
import static io.venue.action.json.FieldKind.SYMBOL_TEXT;
import static io.venue.action.json.FieldKind.TAGGED_ACTION;
import static io.venue.action.json.FieldKind.U32;
import static io.venue.action.json.FieldKind.U32_LIST_OR_NULL;
import static io.venue.action.json.FieldKind.U32_OR_NULL;
import static io.venue.action.json.FieldKind.U64;
import static io.venue.action.json.FieldShape.enumField;
import static io.venue.action.json.FieldShape.optional;
import static io.venue.action.json.FieldShape.required;

/**
 * The shapes the strict parser accepts: the SignedAction envelope, the payload and every action variant.
 * The canonical field order lives in each record's {@code writeFields}; a round-trip test keeps the two
 * in agreement.
 */
final class ActionShapes
{
    /** An action variant: its tag, its fields, and whether a Batch may hold it. */
    record Variant(JsonKey tag, ObjectShape shape, boolean batchLeg)
    {
    }

    static final Variant[] VARIANTS = {
        new Variant(JsonKey.of(SpotPlaceOrder.TAG), new ObjectShape(SpotPlaceOrder.TAG,
            v -> new SpotPlaceOrder(v.number(0), v.ref(1), v.ref(2), v.number(3), v.number(4), v.ref(5), v.ref(6),
                v.bool(7), v.bool(8), v.number(9)),
            required(MARKET, U32),
            enumField(BOOK, false, true, Book.values()),
            enumField(SIDE, false, false, Side.values()),
            required(PRICE, U64),
            required(QTY, U64),
            enumField(STP_MODE, true, false, StpMode.values()),
            enumField(TIME_IN_FORCE, false, false, TimeInForce.values()),
            required(IS_MARKET, BOOL),
            required(REDUCE_ONLY, BOOL),
            required(EXPIRES_AT, MILLIS_OR_NULL)), true),
        new Variant(JsonKey.of(Cancel.TAG), new ObjectShape(Cancel.TAG,
            v -> new Cancel(v.ref(0)),
            required(ORDER_ID, ORDER_ID_HEX)), true),
        new Variant(JsonKey.of(Amend.TAG), new ObjectShape(Amend.TAG,
            v -> new Amend(v.ref(0), v.number(1), v.number(2)),
            required(ORDER_ID, ORDER_ID_HEX),
            required(PRICE, U64),
            required(QTY, U64)), true),
        new Variant(JsonKey.of(CancelByClientOrderId.TAG), new ObjectShape(CancelByClientOrderId.TAG,
            v -> new CancelByClientOrderId(v.ref(0)),
            required(CLIENT_ORDER_ID, CLIENT_ORDER_ID_HEX)), true),
        new Variant(JsonKey.of(Batch.TAG), new ObjectShape(Batch.TAG,
            v -> new Batch(v.ref(0)),
            required(LEGS, BATCH_LEGS)), false),
        new Variant(JsonKey.of(CancelAll.TAG), new ObjectShape(CancelAll.TAG,
            v -> new CancelAll(v.number(0)),
            required(MARKET, U32_OR_NULL)), false),
        new Variant(JsonKey.of(Split.TAG), new ObjectShape(Split.TAG,
            v -> new Split(v.number(0), v.number(1)),
            required(MARKET, U32),
            required(QTY, U64)), false),
        new Variant(JsonKey.of(Merge.TAG), new ObjectShape(Merge.TAG,
            v -> new Merge(v.number(0), v.number(1)),
            required(MARKET, U32),
            required(QTY, U64)), false),
        new Variant(JsonKey.of(CreateAsset.TAG), new ObjectShape(CreateAsset.TAG,
            v -> new CreateAsset(v.number(0), v.ref(1)),
            required(ASSET, U32),
            required(SYMBOL, SYMBOL_TEXT)), false),
        new Variant(JsonKey.of(CreateSpotMarket.TAG), new ObjectShape(CreateSpotMarket.TAG,
            v -> new CreateSpotMarket(v.number(0), v.number(1), v.number(2), v.number(3), v.number(4), v.number(5)),
            required(MARKET, U32),
            required(BASE_ASSET, U32),
            required(QUOTE_ASSET, U32),
            required(TICK_SIZE, U64),
            required(LOT_SIZE, U64),
            required(MIN_QTY, U64)), false),
        new Variant(JsonKey.of(CreateOutcomeMarket.TAG), new ObjectShape(CreateOutcomeMarket.TAG,
            v -> new CreateOutcomeMarket(v.number(0), v.number(1), v.number(2), v.number(3), v.number(4)),
            required(MARKET, U32),
            required(COLLATERAL_ASSET, U32),
            required(TICK_SIZE, U64),
            required(LOT_SIZE, U64),
            required(MIN_QTY, U64)), false),
        new Variant(JsonKey.of(HaltMarket.TAG), new ObjectShape(HaltMarket.TAG,
            v -> new HaltMarket(v.number(0)),
            required(MARKET, U32)), false),
        new Variant(JsonKey.of(ResumeMarket.TAG), new ObjectShape(ResumeMarket.TAG,
            v -> new ResumeMarket(v.number(0)),
            required(MARKET, U32)), false),
        new Variant(JsonKey.of(SetKillSwitch.TAG), new ObjectShape(SetKillSwitch.TAG,
            v -> new SetKillSwitch(v.ref(0), v.ref(1), v.number(2), v.bool(3)),
            enumField(SCOPE, false, false, KillScope.values()),
            required(ACCOUNT, ADDRESS_OR_NULL),
            required(MARKET, U32_OR_NULL),
            required(ACTIVE, BOOL)), false),
        new Variant(JsonKey.of(Deposit.TAG), new ObjectShape(Deposit.TAG,
            v -> new Deposit(v.ref(0), v.number(1), v.number(2)),
            required(ACCOUNT, ADDRESS),
            required(ASSET, U32),
            required(AMOUNT, U64)), false),
        new Variant(JsonKey.of(Withdraw.TAG), new ObjectShape(Withdraw.TAG,
            v -> new Withdraw(v.ref(0), v.number(1), v.number(2)),
            required(ACCOUNT, ADDRESS),
            required(ASSET, U32),
            required(AMOUNT, U64)), false),
        new Variant(JsonKey.of(SetVaultOwner.TAG), new ObjectShape(SetVaultOwner.TAG,
            v -> new SetVaultOwner(v.ref(0), v.ref(1)),
            required(ACCOUNT, ADDRESS),
            required(OWNER, ADDRESS_OR_NULL)), false),
        new Variant(JsonKey.of(SetFixOnboarding.TAG), new ObjectShape(SetFixOnboarding.TAG,
            v -> new SetFixOnboarding(v.ref(0), v.bool(1), v.bool(2), v.ref(3), v.ref(4), v.bool(5), v.number(6)),
            required(CREDENTIAL_ID, CREDENTIAL_ID_TEXT),
            required(FIX_ENABLED, BOOL),
            required(DROP_COPY, BOOL),
            required(MARKETS, U32_LIST_OR_NULL),
            enumField(RATE_TIER, true, false, FixRateTier.values()),
            required(CANCEL_ON_DISCONNECT, BOOL),
            required(COD_GRACE_MS, U32)), false),
    };

    static final ObjectShape PAYLOAD = new ObjectShape("payload",
        v -> new ActionPayload(v.ref(0), v.number(1), v.ref(3), v.number(4), v.ref(5)),
        required(ACCOUNT, ADDRESS),
        required(NONCE, U64),
        required(NONCE_RESERVATION_ID, NULL_ONLY),
        optional(CLIENT_ORDER_ID, CLIENT_ORDER_ID_HEX),
        required(TS, MILLIS),
        required(ACTION, TAGGED_ACTION));

    static final ObjectShape SIGNATURE = new ObjectShape("signature",
        v -> new Signature65(v.ref(1)),
        required(JsonKey.of("scheme"), SIGNATURE_SCHEME),
        required(JsonKey.of("bytes"), SIGNATURE_BYTES));

    static final ObjectShape SIGNED_ACTION = new ObjectShape("body",
        v -> new SignedAction(v.ref(0), v.ref(1)),
        FieldShape.object(JsonKey.of("payload"), PAYLOAD),
        FieldShape.object(JsonKey.of("signature"), SIGNATURE));

    private ActionShapes()
    {
    }
}
