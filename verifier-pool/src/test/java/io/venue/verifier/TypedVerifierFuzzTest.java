package io.venue.verifier;

import io.venue.action.SignedAction;
import io.venue.action.json.CanonicalJson;
import io.venue.action.typed.TypedOrder;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static io.venue.verifier.TypedVerificationTest.PERSONAL_PROBE;
import static io.venue.verifier.TypedVerificationTest.bytes;
import static io.venue.verifier.TypedVerificationTest.record;
import static io.venue.verifier.TypedVerificationTest.verifier;
import static io.venue.verifier.VerificationResultLayout.TEXT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The typed order's decoder on the verifier's side, fed any bytes of any length (also run with Agrona's bounds checks
 * off, as production runs: the pom's unchecked-decoders execution).
 */
class TypedVerifierFuzzTest
{
    /**
     * Any bytes of any length: one result, never an exception; an order when the model takes it (then the JSON route's
     * result for that action), MALFORMED otherwise; and the refusals leave the verifier as it was: afterwards it treats
     * an account it never matched in personal mode as a fresh verifier does.
     */
    @Property(tries = 1000)
    void anyBytesGiveOneCleanResultAndChangeNothing(
        @ForAll("signedOrders") @Size(min = 1, max = 1) final List<TypedVerificationTest.Sent> sent,
        @ForAll final long seed, @ForAll @IntRange(min = 0, max = 16) final int changes)
    {
        final Random random = new Random(seed);
        final int length = random.nextInt(4) == 0 ? random.nextInt(TypedOrder.LENGTH + 64) : TypedOrder.LENGTH;
        final UnsafeBuffer record = new UnsafeBuffer(new byte[TypedOrder.LENGTH + 64]);
        if (changes == 16)
        {
            for (int i = 0; i < record.capacity(); i++)
            {
                record.putByte(i, (byte)random.nextInt(256));
            }
        }
        else
        {
            TypedOrder.encode(sent.get(0).order(), record, 0);
            for (int i = 0; i < changes; i++)
            {
                record.putByte(random.nextInt(TypedOrder.LENGTH), (byte)random.nextInt(256));
            }
        }
        final TypedVerificationTest.Pair pair = new TypedVerificationTest.Pair();
        final long market = TypedOrder.market(record, 0);
        if (length == TypedOrder.LENGTH && TypedOrder.check(record, 0, market) == null)
        {
            // an order (the trader's own, signed in personal mode, may teach both verifiers that mode: they stay
            // in step)
            final SignedAction decoded = TypedOrder.toSignedAction(record, 0, market);
            pair.same(CanonicalJson.signedActionBody(decoded), record, length, true, decoded.toString());
            return;
        }
        final int resultLength = pair.typed.verifyTyped(record, 0, length, 1, 2, pair.typedOut, true);
        final VerificationResult result = new VerificationResult().wrap(pair.typedOut, 0);
        assertEquals(VerificationOutcome.MALFORMED, result.outcome());
        assertEquals(TEXT + result.textLength(), resultLength);
        assertEquals(1, result.connectionId());
        assertEquals(2, result.correlationId());
        // the trader's personal-mode order: recovered raw first by a verifier that has not matched the trader in
        // personal mode, so its raw candidate is not zero, as a fresh verifier's and as the JSON verifier's, which was
        // given nothing
        final SignedAction signed = PERSONAL_PROBE;
        final byte[] afterFuzz = pair.same(signed, true);
        final ExpandableArrayBuffer freshOut = new ExpandableArrayBuffer(1024);
        final UnsafeBuffer probeRecord = record(signed);
        final int freshLength = verifier()
            .verifyTyped(probeRecord, 0, TypedOrder.LENGTH, 3, pair.correlation, freshOut, true);
        assertArrayEquals(bytes(freshOut, freshLength), afterFuzz, "the verifier's state changed");
        // and the probe sees that state: matched once in personal mode, the trader's next order is recovered in that
        // mode alone, its raw candidate left zero
        final int raw = VerificationResultLayout.RAW_SIGNER;
        assertTrue(!Arrays.equals(new byte[20], Arrays.copyOfRange(afterFuzz, raw, raw + 20)));
        final byte[] learned = pair.same(signed, true);
        assertArrayEquals(new byte[20], Arrays.copyOfRange(learned, raw, raw + 20));
    }

    @Provide
    Arbitrary<List<TypedVerificationTest.Sent>> signedOrders()
    {
        return new TypedVerificationTest().signedOrders();
    }
}
