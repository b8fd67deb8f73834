package io.venue.bench;

import io.venue.action.SignedAction;
import io.venue.action.json.CanonicalJson;
import io.venue.action.typed.TypedOrder;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.RecoveryStatus;
import io.venue.crypto.Secp256k1Recoveries;
import io.venue.crypto.Secp256k1Recovery;
import io.venue.signing.ActionSigner;
import io.venue.transport.bsl.CompactOrders;
import io.venue.verifier.ActionVerifier;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The verifier's CPU per compact order, typed ({@link ActionVerifier#verifyTyped}: canonical JSON written from the
 * typed order's fields) against the JSON path the compact routes took before ({@link ActionVerifier#verify} of the
 * order's JSON submit: strict parse, then canonical re-encode), each as the verifier thread calls it (a record in
 * direct memory as on a ring, v2 only as for the MM lane), in alternating rounds on one thread: A B A B, so that what
 * the shared machine does meanwhile falls on both. CPU time is the thread's own
 * ({@link ThreadMXBean#getCurrentThreadCpuTime}).
 * <p>
 * Three pairs of arms:
 * <ul>
 * <li>{@code verify}: the whole verification with the native secp256k1 recovery, what a verifier thread spends per
 * order;</li>
 * <li>{@code verify-no-recovery}: the same with a recovery that does no curve arithmetic (it answers the account at
 * once), which leaves the part the two paths differ in (parse or field read, canonical JSON, digest, the record);</li>
 * <li>{@code lane}: the I/O thread's part before the pool, per order of a 100-order body: before, the body decoded into
 * signed actions and each rebuilt as its JSON submit; now, the body checked in place (the offer's copy excluded from
 * both).</li>
 * </ul>
 * Usage: {@code TypedVerifyRun [secondsPerArm] [rounds]} (default 2 and 6); two rounds of each arm run
 * first, unreported.
 */
public final class TypedVerifyRun
{
    private static final int ORDERS = 1024;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final ActionVerifier verifier;
    private final UnsafeBuffer jsonRing = new UnsafeBuffer(ByteBuffer.allocateDirect(ORDERS * 1024));
    private final int[] jsonOffset = new int[ORDERS];
    private final int[] jsonLength = new int[ORDERS];
    private final UnsafeBuffer typedRing = new UnsafeBuffer(ByteBuffer.allocateDirect(ORDERS * 256));
    private final ExpandableArrayBuffer out = new ExpandableArrayBuffer(2048);
    private final byte[][] compactBodies;
    private long sink;

    private TypedVerifyRun(final Secp256k1Recovery recovery, final List<SignedAction> orders)
    {
        verifier = new ActionVerifier(Fixtures.CHAIN_ID, Fixtures.CONTRACT, recovery, false, 512 * 1024,
            (account, signer) -> false);
        int at = 0;
        final UnsafeBuffer record = new UnsafeBuffer(new byte[TypedOrder.LENGTH]);
        for (int i = 0; i < ORDERS; i++)
        {
            final byte[] body = CanonicalJson.signedActionBody(orders.get(i));
            jsonRing.putBytes(at, body);
            jsonOffset[i] = at;
            jsonLength[i] = body.length;
            at += (body.length + 7) & ~7;
            TypedOrder.encode(orders.get(i), record, 0);
            typedRing.putBytes(i * 256, record, 0, TypedOrder.LENGTH);
        }
        compactBodies = new byte[ORDERS / 100][];
        for (int i = 0; i < compactBodies.length; i++)
        {
            compactBodies[i] = CompactOrders.encode(7, orders.subList(i * 100, i * 100 + 100));
        }
    }

    public static void main(final String[] args) throws Exception
    {
        final double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
        final ActionSigner signer = new ActionSigner(Fixtures.CHAIN_ID, Fixtures.CONTRACT, Fixtures.KEY);
        final List<SignedAction> orders = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++)
        {
            orders.add(signer.sign(Fixtures.order(i + 1), PreimageMode.RAW));
        }
        final Secp256k1Recoveries recoveries = Secp256k1Recoveries.select();
        final TypedVerifyRun full = new TypedVerifyRun(recoveries.newRecovery(), orders);
        final TypedVerifyRun noRecovery = new TypedVerifyRun(
            new AccountAtOnce(Fixtures.KEY.address().toBytes()), orders);
        full.check();
        noRecovery.check();
        System.out.printf(Locale.ROOT, "recovery %s; %.1f s per arm, %d rounds (A B A B), after 2 unreported%n",
            recoveries.name(), seconds, rounds);
        compare("verify", full::json, full::typed, seconds, rounds);
        compare("verify-no-recovery", noRecovery::json, noRecovery::typed, seconds, rounds);
        compare("lane", noRecovery::laneJson, noRecovery::laneTyped, seconds, rounds);
        System.out.println("(sink " + (full.sink + noRecovery.sink) + ")");
    }

    /** Both paths give the same record for every order (a run that measured different work would say nothing). */
    private void check()
    {
        final ExpandableArrayBuffer jsonOut = new ExpandableArrayBuffer(2048);
        for (int i = 0; i < ORDERS; i++)
        {
            final int a = verifier.verify(jsonRing, jsonOffset[i], jsonLength[i], 0, 0, jsonOut, true);
            final int b = verifier.verifyTyped(typedRing, i * 256, TypedOrder.LENGTH, 0, 0, out, true);
            final byte[] x = new byte[a];
            final byte[] y = new byte[b];
            jsonOut.getBytes(0, x);
            out.getBytes(0, y);
            if (!Arrays.equals(x, y) || out.getByte(16) != 0)
            {
                throw new IllegalStateException("order " + i + ": the two paths differ or the order did not verify");
            }
        }
    }

    /** One arm's unit of work: some orders; returns how many. */
    @FunctionalInterface
    private interface Arm
    {
        int run();
    }

    private int json()
    {
        for (int i = 0; i < ORDERS; i++)
        {
            sink += verifier.verify(jsonRing, jsonOffset[i], jsonLength[i], 0, i, out, true);
        }
        return ORDERS;
    }

    private int typed()
    {
        for (int i = 0; i < ORDERS; i++)
        {
            sink += verifier.verifyTyped(typedRing, i * 256, TypedOrder.LENGTH, 0, i, out, true);
        }
        return ORDERS;
    }

    private int laneJson()
    {
        int count = 0;
        try
        {
            for (final byte[] body : compactBodies)
            {
                for (final SignedAction order : CompactOrders.decode(body).orders())
                {
                    sink += CanonicalJson.signedActionBody(order).length;
                    count++;
                }
            }
        }
        catch (final CompactOrders.Malformed malformed)
        {
            throw new IllegalStateException(malformed);
        }
        return count;
    }

    private int laneTyped()
    {
        int count = 0;
        try
        {
            for (final byte[] body : compactBodies)
            {
                final CompactOrders.Request request = CompactOrders.decode(body);
                for (int i = 0; i < request.size(); i++)
                {
                    sink += request.ts(i) + request.offset(i);
                    count++;
                }
            }
        }
        catch (final CompactOrders.Malformed malformed)
        {
            throw new IllegalStateException(malformed);
        }
        return count;
    }

    private static void compare(final String name, final Arm json, final Arm typed, final double seconds,
        final int rounds)
    {
        for (int i = 0; i < 2; i++)
        {
            measure(json, seconds);
            measure(typed, seconds);
        }
        final double[] a = new double[rounds];
        final double[] b = new double[rounds];
        final double[] ratio = new double[rounds];
        for (int i = 0; i < rounds; i++)
        {
            a[i] = measure(json, seconds);
            b[i] = measure(typed, seconds);
            ratio[i] = b[i] / a[i];
            System.out.printf(Locale.ROOT, "%s round %d: json %.0f ns, typed %.0f ns CPU per order (typed/json %.3f)%n",
                name, i + 1, a[i], b[i], ratio[i]);
        }
        System.out.printf(Locale.ROOT, "%s: json median %.0f ns (%.0f-%.0f), typed median %.0f ns (%.0f-%.0f); " +
            "typed/json of the medians %.3f, of each round: median %.3f (%.3f-%.3f)%n", name, median(a), min(a), max(a),
            median(b), min(b), max(b), median(b) / median(a), median(ratio), min(ratio), max(ratio));
    }

    /** CPU nanoseconds of this thread per order, over about {@code seconds}. */
    private static double measure(final Arm arm, final double seconds)
    {
        final long wallEnd = System.nanoTime() + (long)(seconds * 1e9);
        final long cpuStart = THREADS.getCurrentThreadCpuTime();
        long orders = 0;
        do
        {
            orders += arm.run();
        }
        while (System.nanoTime() < wallEnd);
        return (THREADS.getCurrentThreadCpuTime() - cpuStart) / (double)orders;
    }

    private static double median(final double[] values)
    {
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double min(final double[] values)
    {
        return Arrays.stream(values).min().orElse(Double.NaN);
    }

    private static double max(final double[] values)
    {
        return Arrays.stream(values).max().orElse(Double.NaN);
    }

    /** A recovery without curve arithmetic: every signature recovers to the account. Only for this measurement. */
    private static final class AccountAtOnce implements Secp256k1Recovery
    {
        private final byte[] account;

        AccountAtOnce(final byte[] account)
        {
            this.account = account;
        }

        @Override
        public String name()
        {
            return "account-at-once";
        }

        @Override
        public RecoveryStatus recover(final byte[] hash, final int hashOffset, final byte[] signature,
            final int signatureOffset, final byte[] addressOut, final int addressOffset)
        {
            System.arraycopy(account, 0, addressOut, addressOffset, account.length);
            return RecoveryStatus.OK;
        }
    }
}
