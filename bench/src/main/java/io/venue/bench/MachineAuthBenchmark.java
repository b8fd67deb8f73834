package io.venue.bench;

import io.venue.codec.Hex;
import io.venue.svc.SvcCredential;
import io.venue.svc.SvcEd25519V3;
import io.venue.svc.SvcHmacV2;
import io.venue.svc.SvcRequestSigner;
import io.venue.svc.SvcVerifier;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * SVC-* machine request authentication: HMAC-SHA256 (version 2) and Ed25519 (version 3) over the signed
 * string, and the whole header check with a version 2 credential.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MachineAuthBenchmark
{
    private static final String KEY_ID = "spk_0123456789abcdef";
    private static final String SECRET = "sps_" + "0123456789abcdef".repeat(4);
    private static final String PASSPHRASE = "spp_" + "fedcba9876543210".repeat(2);
    private static final byte[] SEED = Hex.fromHex(
        "0x9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
    private static final long TS = 1_763_000_000_000L;

    private final SvcHmacV2 hmac = new SvcHmacV2();
    private final SvcEd25519V3 ed25519 = new SvcEd25519V3();
    private final SvcVerifier verifier = new SvcVerifier();
    private final byte[] body = "{\"scope\":\"private_ws:read\"}".getBytes(StandardCharsets.UTF_8);
    private byte[] message;
    private byte[] hmacSignature;
    private byte[] edSignature;
    private Ed25519PublicKeyParameters publicKey;
    private Map<String, String> headers;
    private Function<String, String> headerLookup;
    private Function<String, SvcCredential> credentials;

    @Setup
    public void setUp()
    {
        final SvcRequestSigner hmacSigner = SvcRequestSigner.hmac(KEY_ID, SECRET, PASSPHRASE);
        headers = hmacSigner.sign(7, TS, "POST", "/api/v1/ws/token", "b=2&a=1", body);
        message = hmacSigner.lastSignedString().getBytes(StandardCharsets.UTF_8);
        hmacSignature = Hex.fromHex(headers.get("SVC-Signature"));
        edSignature = Hex.fromHex(ed25519.sign(SEED, message, 0, message.length));
        publicKey = SvcEd25519V3.parsePublicKey(SvcEd25519V3.publicKey(SEED));
        final SvcCredential credential = SvcCredential.hmac(KEY_ID, SECRET, PASSPHRASE);
        credentials = keyId -> credential;
        headerLookup = headers::get;
    }

    @Benchmark
    public boolean hmacVerify()
    {
        return hmac.verify(SECRET, message, 0, message.length, hmacSignature, 0);
    }

    @Benchmark
    public boolean ed25519Verify()
    {
        return ed25519.verify(publicKey, message, 0, message.length, edSignature, 0);
    }

    /** Header parsing, canonical string with body sha256, skew and constant-time HMAC compare. */
    @Benchmark
    public Object svcRequestV2()
    {
        return verifier.verify(headerLookup, credentials, "POST", "/api/v1/ws/token", "b=2&a=1", body, 0,
            body.length, TS);
    }
}
