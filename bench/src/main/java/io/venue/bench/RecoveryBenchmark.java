package io.venue.bench;

import io.venue.crypto.Keccak256;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1Recoveries;
import io.venue.crypto.Secp256k1Recovery;
import io.venue.crypto.Secp256k1Signer;
import io.venue.verifier.ActionVerifier;
import org.agrona.ExpandableArrayBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Signer recovery (native libsecp256k1 against pure-Java BouncyCastle), keccak, and the whole per-order
 * verification on one thread: the rate every signed lane is bounded by.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RecoveryBenchmark
{
    private static final int BODIES = 256;

    @Param({"native", "bouncycastle"})
    public String implementation;

    private Secp256k1Recovery recovery;
    private ActionVerifier verifier;
    private final Keccak256 keccak = new Keccak256();
    private final ExpandableArrayBuffer out = new ExpandableArrayBuffer(4096);
    private final byte[] hash = new byte[32];
    private final byte[] signature = new byte[65];
    private final byte[] address = new byte[20];
    private final byte[] keccakOut = new byte[32];
    private byte[][] bodies;
    private byte[][] agentBodies;
    private byte[][] personalBodies;
    private ActionVerifier knowingVerifier;
    private int next;

    @Setup
    public void setUp()
    {
        recovery = Secp256k1Recoveries.select(implementation).newRecovery();
        verifier = new ActionVerifier(Fixtures.CHAIN_ID, Fixtures.CONTRACT, recovery, false, 1 << 16);
        bodies = Fixtures.signedBodies(BODIES);
        agentBodies = Fixtures.signedBodies(BODIES, Fixtures.AGENT);
        personalBodies = Fixtures.signedBodies(BODIES, Fixtures.KEY, PreimageMode.PERSONAL);
        final byte[] agent = Fixtures.AGENT.address().toBytes();
        final byte[] principal = Fixtures.KEY.address().toBytes();
        knowingVerifier = new ActionVerifier(Fixtures.CHAIN_ID, Fixtures.CONTRACT, recovery, false, 1 << 16,
            (account, signer) -> Arrays.equals(account, principal) && Arrays.equals(signer, agent));
        // a real signature over a real digest, for the bare recovery benchmark
        verifier.verify(bodies[0], 0, bodies[0].length, 0, 0, out);
        out.getBytes(20, hash);
        final Secp256k1Signer signer = new Secp256k1Signer(Fixtures.KEY);
        System.arraycopy(signer.sign(hash), 0, signature, 0, 65);
    }

    @Benchmark
    public Object recover()
    {
        return recovery.recover(hash, 0, signature, 0, address, 0);
    }

    @Benchmark
    public byte[] keccak()
    {
        keccak.hash(signature, 0, 64, keccakOut, 0);
        return keccakOut;
    }

    /** Parse, canonical encode, v2 digest, recover, compare with the account: one signed order. */
    @Benchmark
    public int verifyOrder()
    {
        final byte[] body = bodies[next++ & (BODIES - 1)];
        return verifier.verify(body, 0, body.length, 0, 0, out);
    }

    /** An order signed by an agent of the account, the verifier not knowing it: both preimage modes recovered. */
    @Benchmark
    public int verifyAgentOrder()
    {
        final byte[] body = agentBodies[next++ & (BODIES - 1)];
        return verifier.verify(body, 0, body.length, 0, 0, out);
    }

    /** The same, the verifier knowing the agent's address from the event journal: one recovery. */
    @Benchmark
    public int verifyKnownAgentOrder()
    {
        final byte[] body = agentBodies[next++ & (BODIES - 1)];
        return knowingVerifier.verify(body, 0, body.length, 0, 0, out);
    }

    /**
     * An account's own order signed in personal mode, the verifier recovering in the usual order: raw, then personal.
     */
    @Benchmark
    public int verifyPersonalOrder()
    {
        final byte[] body = personalBodies[next++ & (BODIES - 1)];
        return verifier.verify(body, 0, body.length, 0, 0, out);
    }

    /** The same, the verifier remembering that the account's last action matched in personal mode: one recovery. */
    @Benchmark
    public int verifyRememberedPersonalOrder()
    {
        final byte[] body = personalBodies[next++ & (BODIES - 1)];
        return knowingVerifier.verify(body, 0, body.length, 0, 0, out);
    }
}
