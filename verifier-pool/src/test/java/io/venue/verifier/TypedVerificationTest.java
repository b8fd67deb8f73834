package io.venue.verifier;

import io.venue.action.ActionArbitraries;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Side;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.action.json.ParseErrorCode;
import io.venue.action.typed.TypedOrder;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Recoveries;
import io.venue.crypto.Secp256k1Signer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.venue.verifier.SignedActions.CHAIN_ID;
import static io.venue.verifier.SignedActions.CONTRACT;
import static io.venue.verifier.SignedActions.v1Digest;
import static io.venue.verifier.SignedActions.v2Digest;
import static io.venue.verifier.VerificationResultLayout.TEXT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A typed order verifies to the very result record its JSON body verifies to: same canonical JSON, digest, signers,
 * outcome and refusal, byte for byte, whoever signed it and however (the account, a delegate, a stranger; raw or
 * personal mode; v2 or v1; a bad signature), and refused the same way where JSON can spell the same bad value. Two
 * verifiers run side by side, one given the JSON bodies, one the typed orders, so the state they keep (the accounts
 * matched in personal mode) evolves alike. Any bytes: {@link TypedVerifierFuzzTest}.
 */
class TypedVerificationTest
{
    private static final Secp256k1KeyPair TRADER = key(0x42);
    private static final Secp256k1KeyPair AGENT = key(0x43);
    private static final Secp256k1KeyPair STRANGER = key(0x44);
    private static final byte[] TRADER_ADDRESS = TRADER.address().toBytes();
    private static final byte[] AGENT_ADDRESS = AGENT.address().toBytes();
    /** The agent signs for the trader (as the event journal would have told the verifiers). */
    private static final DelegateSigners DELEGATES = (account, signer) ->
        Arrays.equals(account, TRADER_ADDRESS) && Arrays.equals(signer, AGENT_ADDRESS);
    private static final BigInteger N = new BigInteger(
        "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16);

    /** One signed order as a test sends it: the order, and how its JSON route body and typed record are verified. */
    record Sent(SignedAction order, boolean v2Only)
    {
    }

    private static Secp256k1KeyPair key(final int fill)
    {
        final byte[] key = new byte[32];
        Arrays.fill(key, (byte)fill);
        return Secp256k1KeyPair.fromPrivateKey(key);
    }

    static final Secp256k1Recoveries RECOVERIES = Secp256k1Recoveries.select();
    /** The trader's order signed in personal mode, which teaches a verifier that mode for the trader. */
    static final SignedAction PERSONAL_PROBE = personalProbe();

    static ActionVerifier verifier()
    {
        return new ActionVerifier(CHAIN_ID, CONTRACT, RECOVERIES.newRecovery(), true, 4096, DELEGATES);
    }

    private static SignedAction personalProbe()
    {
        final ActionPayload probe = new ActionPayload(TRADER.address(), 1, null, 1_763_000_000_000L,
            new SpotPlaceOrder(7, null, Side.BID, 1, 1, null, TimeInForce.GTC, false, false, -1));
        return new SignedAction(probe,
            new Signature65(new Secp256k1Signer(TRADER).sign(v2Digest(probe), PreimageMode.PERSONAL)));
    }

    /** A pair of verifiers in step: {@code json} is given bodies, {@code typed} records of the same orders. */
    static final class Pair
    {
        final ActionVerifier json = verifier();
        final ActionVerifier typed = verifier();
        final ExpandableArrayBuffer jsonOut = new ExpandableArrayBuffer(1024);
        final ExpandableArrayBuffer typedOut = new ExpandableArrayBuffer(1024);
        long correlation;

        /** Verifies the body one way and the record the other; asserts the two result records are equal; returns it. */
        byte[] same(final byte[] body, final UnsafeBuffer record, final int recordLength, final boolean v2Only,
            final String what)
        {
            correlation++;
            final int jsonLength = json.verify(new UnsafeBuffer(body), 0, body.length, 3, correlation, jsonOut, v2Only);
            final int typedLength = typed.verifyTyped(record, 0, recordLength, 3, correlation, typedOut, v2Only);
            final byte[] expected = bytes(jsonOut, jsonLength);
            final byte[] actual = bytes(typedOut, typedLength);
            assertArrayEquals(expected, actual,
                () -> what + "\nJSON route:  " + describe(expected) + "\ntyped route: " +
                describe(actual));
            return actual;
        }

        byte[] same(final SignedAction order, final boolean v2Only)
        {
            final UnsafeBuffer record = record(order);
            return same(CanonicalJson.signedActionBody(order), record, TypedOrder.LENGTH, v2Only, order.toString());
        }
    }

    @Property(tries = 100)
    void aTypedOrderVerifiesToTheResultOfItsJsonBody(
        @ForAll("signedOrders") @Size(min = 1, max = 12) final List<Sent> orders)
    {
        final Pair pair = new Pair();
        for (final Sent sent : orders)
        {
            final byte[] result = pair.same(sent.order(), sent.v2Only());
            assertEquals(VerificationOutcome.VERIFIED.ordinal(), result[VerificationResultLayout.OUTCOME],
                describe(result));
        }
    }

    @Property(tries = 300)
    void badSignaturesAreRefusedAsOnTheJsonRoute(
        @ForAll("signedOrders") @Size(min = 1, max = 4) final List<Sent> orders,
        @ForAll final long seed)
    {
        final Pair pair = new Pair();
        final Random random = new Random(seed);
        for (final Sent sent : orders)
        {
            final byte[] signature = spoil(sent.order().signature().toBytes(), random);
            pair.same(new SignedAction(sent.order().payload(), new Signature65(signature)), sent.v2Only());
        }
    }

    /**
     * Every value of a place that JSON can spell and the model refuses (a ts above 2^63-1, a market above 2^32-1, a
     * book, side, stp mode or time in force that is none of the strings, a flag that is a number, a negative expiry),
     * alone or several at once: the typed order is refused with the record the JSON body with those values gets, the
     * first in canonical order named.
     */
    @Property(tries = 500)
    void malformedTypedOrdersAreRefusedAsTheirJsonSpellingIs(
        @ForAll("signedOrders") @Size(min = 1, max = 1) final List<Sent> sent,
        @ForAll @IntRange(min = 1, max = 511) final int faults, @ForAll final long seed)
    {
        final SignedAction order = sent.get(0).order();
        final Random random = new Random(seed);
        final UnsafeBuffer record = record(order);
        String body = new String(CanonicalJson.signedActionBody(order), StandardCharsets.US_ASCII);
        final boolean place = order.payload().action() instanceof SpotPlaceOrder;
        if ((faults & 1) != 0)
        {
            final long ts = Long.MIN_VALUE + (random.nextLong() & Long.MAX_VALUE);
            record.putLong(TypedOrder.TS, ts, ByteOrder.LITTLE_ENDIAN);
            body = body.replaceFirst("\"ts\":\\d+", "\"ts\":" + Long.toUnsignedString(ts));
        }
        if (place)
        {
            if ((faults & 2) != 0)
            {
                final long market = random.nextBoolean() ? (1L << 32) + (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) :
                    Long.MIN_VALUE + (random.nextLong() & Long.MAX_VALUE);
                record.putLong(TypedOrder.MARKET, market, ByteOrder.LITTLE_ENDIAN);
                body = body.replaceFirst("\"market\":\\d+", "\"market\":" + Long.toUnsignedString(market));
            }
            if ((faults & 4) != 0)
            {
                record.putByte(TypedOrder.BOOK, (byte)(3 + random.nextInt(253)));
                body = body.contains("\"book\":") ? body.replaceFirst("\"book\":\"[A-Z]+\"", "\"book\":\"x\"") :
                    body.replaceFirst("(\"market\":\\d+,)", "$1\"book\":\"x\",");
            }
            if ((faults & 8) != 0)
            {
                record.putByte(TypedOrder.SIDE, (byte)(2 + random.nextInt(254)));
                body = body.replaceFirst("\"side\":\"[A-Za-z]+\"", "\"side\":\"x\"");
            }
            if ((faults & 16) != 0)
            {
                record.putByte(TypedOrder.STP_MODE, (byte)(5 + random.nextInt(251)));
                body = body.replaceFirst("\"stp_mode\":(null|\"[a-z_]+\")", "\"stp_mode\":\"x\"");
            }
            if ((faults & 32) != 0)
            {
                record.putByte(TypedOrder.TIME_IN_FORCE, (byte)(4 + random.nextInt(252)));
                body = body.replaceFirst("\"time_in_force\":\"[a-z_]+\"", "\"time_in_force\":\"x\"");
            }
            if ((faults & 64) != 0)
            {
                final int flag = 2 + random.nextInt(254);
                record.putByte(TypedOrder.IS_MARKET, (byte)flag);
                body = body.replaceFirst("\"is_market\":(true|false)", "\"is_market\":" + flag);
            }
            if ((faults & 128) != 0)
            {
                final int flag = 2 + random.nextInt(254);
                record.putByte(TypedOrder.REDUCE_ONLY, (byte)flag);
                body = body.replaceFirst("\"reduce_only\":(true|false)", "\"reduce_only\":" + flag);
            }
            if ((faults & 256) != 0)
            {
                final long expiresAt = Long.MIN_VALUE + random.nextLong(Long.MAX_VALUE);
                record.putLong(TypedOrder.EXPIRES_AT, expiresAt, ByteOrder.LITTLE_ENDIAN);
                body = body.replaceFirst("\"expires_at\":(null|\\d+)", "\"expires_at\":" + expiresAt);
            }
        }
        final boolean refused = (faults & 1) != 0 || (place && faults > 1);
        final Pair pair = new Pair();
        final byte[] result = pair.same(body.getBytes(StandardCharsets.US_ASCII), record, TypedOrder.LENGTH,
            sent.get(0).v2Only(), body);
        assertEquals(refused ? VerificationOutcome.MALFORMED.ordinal() : VerificationOutcome.VERIFIED.ordinal(),
            result[VerificationResultLayout.OUTCOME], describe(result));
    }

    /**
     * What JSON cannot spell (a kind or a client-order-id flag the schema does not define, a record of another length)
     * is refused as MALFORMED with the JSON route's code for the field, and the record of a refused body: no digest,
     * account or signature.
     */
    @Property(tries = 200)
    void whatJsonCannotSpellIsRefusedWithTheJsonRoutesCode(
        @ForAll("signedOrders") @Size(min = 1, max = 1) final List<Sent> sent,
        @ForAll @IntRange(min = 0, max = 2) final int fault, @ForAll @IntRange(min = 0, max = 255) final int raw)
    {
        final UnsafeBuffer record = record(sent.get(0).order());
        final int length;
        final ParseErrorCode code;
        final String field;
        if (fault == 0)
        {
            record.putByte(TypedOrder.KIND, (byte)Math.max(4, raw));
            length = TypedOrder.LENGTH;
            code = ParseErrorCode.UNKNOWN_ACTION;
            field = "payload.action";
        }
        else if (fault == 1)
        {
            record.putByte(TypedOrder.HAS_CLIENT_ORDER_ID, (byte)Math.max(2, raw));
            length = TypedOrder.LENGTH;
            code = ParseErrorCode.INVALID_VALUE;
            field = "payload.client_order_id";
        }
        else
        {
            length = raw == TypedOrder.LENGTH ? 0 : raw;
            code = ParseErrorCode.INVALID_BODY_SIZE;
            field = "";
        }
        final ExpandableArrayBuffer out = new ExpandableArrayBuffer(512);
        final int resultLength = verifier().verifyTyped(record, 0, length, 5, 6, out, true);
        final VerificationResult result = new VerificationResult().wrap(out, 0);
        assertEquals(VerificationOutcome.MALFORMED, result.outcome());
        assertEquals(code, result.parseError());
        assertEquals(TEXT + result.textLength(), resultLength);
        assertTrue(result.text().startsWith(field + "\n"), result.text());
        assertEquals(0, result.digestVersion());
        // the fixed part of a refused JSON body's record: zeros from the digest to the text
        final ExpandableArrayBuffer refusedBody = new ExpandableArrayBuffer(512);
        verifier().verify(new UnsafeBuffer("{}".getBytes(StandardCharsets.US_ASCII)), 0, 2, 5, 6, refusedBody, true);
        assertArrayEquals(Arrays.copyOfRange(bytes(refusedBody, TEXT), 18, VerificationResultLayout.TEXT_LENGTH),
            Arrays.copyOfRange(bytes(out, TEXT), 18, VerificationResultLayout.TEXT_LENGTH));
    }

    // ---------------------------------------------------------------------------------------------------------------

    static UnsafeBuffer record(final SignedAction order)
    {
        final UnsafeBuffer record = new UnsafeBuffer(new byte[TypedOrder.LENGTH]);
        TypedOrder.encode(order, record, 0);
        return record;
    }

    static byte[] bytes(final MutableDirectBuffer buffer, final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    private static String describe(final byte[] record)
    {
        final VerificationResult result = new VerificationResult().wrap(new UnsafeBuffer(record), 0);
        return result.outcome() + " detail " + record[VerificationResultLayout.DETAIL] + " v" + result.digestVersion() +
            " " + result.text();
    }

    /**
     * A signature made unusable one way or another: random bytes, another v, a high s, r or s out of range, a
     * flipped bit.
     */
    private static byte[] spoil(final byte[] signature, final Random random)
    {
        final byte[] spoiled = signature.clone();
        switch (random.nextInt(6))
        {
            case 0 -> random.nextBytes(spoiled);
            case 1 -> spoiled[64] = (byte)random.nextInt(256);
            case 2 ->
            {
                // the malleated twin: n - s, the other recovery id
                final BigInteger s = new BigInteger(1, Arrays.copyOfRange(signature, 32, 64));
                System.arraycopy(unsigned32(N.subtract(s)), 0, spoiled, 32, 32);
                spoiled[64] ^= 1;
            }
            case 3 -> Arrays.fill(spoiled, 0, 32, (byte)0);
            case 4 -> System.arraycopy(unsigned32(N.add(BigInteger.valueOf(random.nextInt(1000)))
                .min(BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE))), 0, spoiled,
                random.nextBoolean() ? 0 : 32, 32);
            default -> spoiled[random.nextInt(65)] ^= (byte)(1 << random.nextInt(8));
        }
        return spoiled;
    }

    private static byte[] unsigned32(final BigInteger value)
    {
        final byte[] bytes = value.toByteArray();
        final byte[] out = new byte[32];
        final int length = Math.min(32, bytes.length);
        System.arraycopy(bytes, bytes.length - length, out, 32 - length, length);
        return out;
    }

    /**
     * Orders of the four kinds a typed order carries, every field over its range, mostly of the trader's account,
     * signed by the trader, its agent or a stranger, in raw or personal mode, over the v2 digest or (now and then) the
     * v1 one, each verified as the MM lane does (v2 only) or as the trading route does.
     */
    @Provide
    Arbitrary<List<Sent>> signedOrders()
    {
        final Arbitrary<Address> accounts = Arbitraries.frequencyOf(
            Tuple.of(8, Arbitraries.just(TRADER.address())), Tuple.of(1, ActionArbitraries.addresses()));
        final Arbitrary<ActionPayload> payloads = Combinators.combine(accounts, ActionArbitraries.u64(),
            ActionArbitraries.clientOrderIds().injectNull(0.5), ActionArbitraries.millis(),
            ActionArbitraries.batchLegs()) .as(ActionPayload::new);
        final Arbitrary<Secp256k1KeyPair> signers = Arbitraries.of(TRADER, TRADER, AGENT, STRANGER);
        return Combinators.combine(payloads, signers, Arbitraries.of(PreimageMode.class),
            Arbitraries.integers().between(0, 9),
                Arbitraries.of(true, false))
            .as((payload, signer, mode, version, v2Only) ->
            {
                final byte[] digest = version == 0 ? v1Digest(payload) : v2Digest(payload);
                return new Sent(
                    new SignedAction(payload, new Signature65(new Secp256k1Signer(signer).sign(digest, mode))), v2Only);
            })
            .list();
    }
}
