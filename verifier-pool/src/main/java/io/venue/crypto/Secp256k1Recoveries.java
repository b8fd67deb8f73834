package io.venue.crypto;

import io.venue.codec.Hex;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.Locale;

/**
 * Chooses the secp256k1 recovery implementation once, at start-up: libsecp256k1 when it loads and
 * passes a self-test, otherwise the pure-Java BouncyCastle one. The choice is logged at INFO.
 * <p>
 * The system property {@value #PROPERTY} overrides: {@value #BOUNCYCASTLE} forces the Java
 * implementation, {@value #NATIVE} requires the native one (start-up fails without it), {@value #AUTO}
 * (the default) tries native then falls back.
 * <p>
 * Recovery instances are not thread safe; take one per verifier thread from {@link #newRecovery()}.
 */
public final class Secp256k1Recoveries
{
    public static final String PROPERTY = "venue.secp256k1";
    public static final String AUTO = "auto";
    public static final String NATIVE = "native";
    public static final String BOUNCYCASTLE = "bouncycastle";

    // keccak256("venue secp256k1 self-test") signed by private key 1; checked against web3j in the tests.
    static final byte[] SELF_TEST_HASH = Hex.fromHex(
        "0x6ea50f40f665d47853818f5907e33c662020439f9c158dc64cd7abbf40ac91a6");
    static final byte[] SELF_TEST_SIGNATURE = Hex.fromHex(
        "0x9a3d0a22ab9f3b59258426c42a9ad8749c0740052cc3bf71966093836d922952" +
        "407d10a014cf6f7ed1690572b9ac546a52b13505b2e99ef78b821aaf46c82b45" +
        "1c");
    static final byte[] SELF_TEST_ADDRESS = Hex.fromHex("0x7e5f4552091a69125d5dfcb7b8c2659029395bdf");

    private static final Logger LOG = LoggerFactory.getLogger(Secp256k1Recoveries.class);

    private final boolean nativeChosen;
    private final String reason;

    private Secp256k1Recoveries(final boolean nativeChosen, final String reason)
    {
        this.nativeChosen = nativeChosen;
        this.reason = reason;
    }

    /** Selects according to the system property {@value #PROPERTY} (default {@value #AUTO}). Call once. */
    public static Secp256k1Recoveries select()
    {
        return select(System.getProperty(PROPERTY, AUTO));
    }

    /**
     * Selects according to {@code mode}: {@value #AUTO}, {@value #NATIVE} or {@value #BOUNCYCASTLE}.
     *
     * @throws IllegalArgumentException for any other mode.
     * @throws IllegalStateException    if {@value #NATIVE} is required and unavailable.
     */
    public static Secp256k1Recoveries select(final String mode)
    {
        final String normalized = mode.trim().toLowerCase(Locale.ROOT);
        final Secp256k1Recoveries choice;
        switch (normalized)
        {
            case BOUNCYCASTLE:
                choice = new Secp256k1Recoveries(false, PROPERTY + "=" + BOUNCYCASTLE);
                break;

            case NATIVE:
            {
                final String failure = probeNative();
                if (null != failure)
                {
                    throw new IllegalStateException(PROPERTY + "=" + NATIVE + " but " + failure);
                }
                choice = new Secp256k1Recoveries(true, PROPERTY + "=" + NATIVE);
                break;
            }

            case AUTO:
            {
                final String failure = probeNative();
                choice = null == failure ?
                    new Secp256k1Recoveries(true, "native library loaded and passed self-test") :
                    new Secp256k1Recoveries(false, "fallback: " + failure);
                break;
            }

            default:
                throw new IllegalArgumentException(
                    PROPERTY + " must be " + AUTO + ", " + NATIVE + " or " + BOUNCYCASTLE + ", got: " + mode);
        }

        LOG.info("secp256k1 recovery: {} ({})", choice.name(), choice.reason);
        return choice;
    }

    /** {@link NativeSecp256k1Recovery#NAME} or {@link BouncyCastleSecp256k1Recovery#NAME}. */
    public String name()
    {
        return nativeChosen ? NativeSecp256k1Recovery.NAME : BouncyCastleSecp256k1Recovery.NAME;
    }

    public boolean isNative()
    {
        return nativeChosen;
    }

    /** Why this implementation was chosen, as logged. */
    public String reason()
    {
        return reason;
    }

    /** A new instance of the chosen implementation, for one thread. */
    public Secp256k1Recovery newRecovery()
    {
        return nativeChosen ? new NativeSecp256k1Recovery() : new BouncyCastleSecp256k1Recovery();
    }

    /** Recovers the known signature with {@code recovery}; true iff it yields the known address. */
    static boolean passesSelfTest(final Secp256k1Recovery recovery)
    {
        final byte[] address = new byte[Secp256k1Recovery.ADDRESS_LENGTH];
        return RecoveryStatus.OK == recovery.recover(SELF_TEST_HASH, 0, SELF_TEST_SIGNATURE, 0, address, 0) &&
            Arrays.equals(SELF_TEST_ADDRESS, address);
    }

    // null when the native implementation is usable, else why not.
    private static String probeNative()
    {
        try
        {
            return passesSelfTest(new NativeSecp256k1Recovery()) ? null : "native self-test recovered a wrong address";
        }
        catch (final LinkageError | RuntimeException ex)
        {
            return "native library unavailable: " + describe(ex);
        }
    }

    // Loading fails inside a static initializer, so the useful message is usually the root cause's.
    private static String describe(final Throwable failure)
    {
        Throwable root = failure;
        while (null != root.getCause() && root.getCause() != root)
        {
            root = root.getCause();
        }
        return root == failure ? failure.toString() : failure.getClass().getSimpleName() + " caused by " + root;
    }
}
