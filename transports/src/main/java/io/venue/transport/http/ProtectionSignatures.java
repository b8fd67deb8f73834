package io.venue.transport.http;

import io.venue.action.Address;
import io.venue.codec.Hex;
import io.venue.crypto.Eip191;
import io.venue.crypto.RecoveryStatus;
import io.venue.crypto.Secp256k1Recovery;
import io.venue.entry.protect.ProtectionText;
import org.agrona.collections.LongArrayQueue;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The account's own signature on the protection routes (spec 4.3: "over REST with the account's signature"): the
 * EIP-191 signature of a {@link ProtectionText} rebuilt here from the request's fields, so the key signs exactly what
 * the venue applies. The signer must be the account itself. A text is dated within {@link #SKEW_MS} of the server's
 * clock and not before the node started, and used once: texts are remembered until they can no longer pass the date
 * check, at most {@code capacity} of them (then such requests are refused until older ones age out: the memory is keyed
 * by client input, so it is bounded). Thread safe; one per node.
 */
public final class ProtectionSignatures
{
    /** A text's timestamp may be this far from the server's clock either way (the machine headers' skew). */
    public static final long SKEW_MS = 30_000;
    /** Texts remembered by default: far more than the MM auth throttle lets the addresses of a minute send. */
    public static final int DEFAULT_CAPACITY = 100_000;

    /** Why a signed request was not taken. */
    enum Failure
    {
        STALE, WRONG_SIGNER, REPLAYED, FULL
    }

    private final long chainId;
    private final Address verifyingContract;
    private final LongSupplier clockMs;
    private final ThreadLocal<Secp256k1Recovery> recovery;
    private final long acceptsFromMs;
    private final int capacity;
    private final Set<String> used = new HashSet<>();
    private final ArrayDeque<String> usedInOrder = new ArrayDeque<>();
    private final LongArrayQueue usedAtMs = new LongArrayQueue();

    public ProtectionSignatures(final long chainId, final Address verifyingContract, final LongSupplier clockMs,
        final Supplier<Secp256k1Recovery> recovery, final int capacity)
    {
        if (verifyingContract == null || capacity < 1)
        {
            throw new IllegalArgumentException("the deployment's contract and a positive capacity are needed");
        }
        this.chainId = chainId;
        this.verifyingContract = verifyingContract;
        this.clockMs = clockMs;
        this.recovery = ThreadLocal.withInitial(recovery);
        this.capacity = capacity;
        // a text signed before the node started might have been used at a node before it: none is taken
        this.acceptsFromMs = clockMs.getAsLong();
    }

    long acceptsFromMs()
    {
        return acceptsFromMs;
    }

    long nowMs()
    {
        return clockMs.getAsLong();
    }

    /**
     * Checks a request's signature: null when {@code account} signed the text of the request and it was not used
     * before (it is now), else why not. The date is checked first, then the signer, and only a good signature takes
     * a place in the memory.
     */
    Failure check(final String route, final Address account, final long market, final long countdownMs,
        final boolean armed, final long nonce, final long timestampMs, final byte[] signature)
    {
        final long now = clockMs.getAsLong();
        if (timestampMs < now - SKEW_MS || timestampMs > now + SKEW_MS || timestampMs < acceptsFromMs)
        {
            return Failure.STALE;
        }
        final String text = route.equals(ProtectionText.DEAD_MAN) ?
            ProtectionText.deadMan(account, market, countdownMs, nonce, timestampMs, chainId, verifyingContract) :
            ProtectionText.cancelOnDisconnect(account, market, armed, nonce, timestampMs, chainId, verifyingContract);
        final byte[] hash = Eip191.personalHash(text);
        final byte[] signer = new byte[Address.LENGTH];
        if (recovery.get().recover(hash, 0, signature, 0, signer, 0) != RecoveryStatus.OK ||
            !Arrays.equals(signer, account.toBytes()))
        {
            return Failure.WRONG_SIGNER;
        }
        return useOnce(Hex.to0x(hash), now);
    }

    private synchronized Failure useOnce(final String textHash, final long now)
    {
        // a text passes the date check only within the skew of its timestamp and is taken within the skew of arrival:
        // twice the skew after it was taken it can never pass again
        while (!usedAtMs.isEmpty() && usedAtMs.peekLong() < now - 2 * SKEW_MS)
        {
            usedAtMs.pollLong();
            used.remove(usedInOrder.poll());
        }
        if (used.contains(textHash))
        {
            return Failure.REPLAYED;
        }
        if (used.size() >= capacity)
        {
            return Failure.FULL;
        }
        used.add(textHash);
        usedInOrder.add(textHash);
        usedAtMs.addLong(now);
        return null;
    }
}
