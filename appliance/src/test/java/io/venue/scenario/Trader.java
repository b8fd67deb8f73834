package io.venue.scenario;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.ClientOrderId;
import io.venue.action.SignedAction;
import io.venue.appliance.ApplianceContext;
import io.venue.codec.Hex;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.signing.ActionSigner;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * An account and the key that signs its actions (the account's own wallet, or one of its agents'), with the account's
 * next nonce: every action a scenario signs for it takes the next one, whatever lane sends it, as a real client keeps
 * one nonce sequence per account. Lanes keep what they need per account here ({@link #laneState}), so a lane client
 * made again (another venue after a restart) finds its credentials.
 */
public final class Trader
{
    private static final SecureRandom RANDOM = new SecureRandom();

    final Secp256k1KeyPair wallet;
    final Address account;
    final Secp256k1KeyPair signer;
    final PreimageMode mode;
    private final AtomicLong nonce;
    private final Map<String, Object> laneState;

    private Trader(final Secp256k1KeyPair wallet, final Address account, final Secp256k1KeyPair signer,
        final PreimageMode mode, final AtomicLong nonce, final Map<String, Object> laneState)
    {
        this.wallet = wallet;
        this.account = account;
        this.signer = signer;
        this.mode = mode;
        this.nonce = nonce;
        this.laneState = laneState;
    }

    /** A new wallet that signs for itself (raw v2 digest, as clients sign), from nonce {@code first}. */
    static Trader of(final Secp256k1KeyPair wallet, final long first, final PreimageMode mode)
    {
        return new Trader(wallet, wallet.address(), wallet, mode, new AtomicLong(first), new ConcurrentHashMap<>());
    }

    static Trader fresh()
    {
        return of(Secp256k1KeyPair.generate(RANDOM), 0, PreimageMode.RAW);
    }

    /** The same account and nonce sequence, its actions signed by {@code key} (one of its agents, or a stranger). */
    Trader signedBy(final Secp256k1KeyPair key)
    {
        return new Trader(wallet, account, key, PreimageMode.RAW, nonce, laneState);
    }

    public Address account()
    {
        return account;
    }

    long nextNonce()
    {
        return nonce.getAndIncrement();
    }

    /** The nonce the next action will take, without taking it. */
    long peekNonce()
    {
        return nonce.get();
    }

    SignedAction sign(final Action action)
    {
        return sign(nextNonce(), action);
    }

    SignedAction sign(final long withNonce, final Action action)
    {
        return sign(new ActionPayload(account, withNonce, null, System.currentTimeMillis(), action));
    }

    SignedAction sign(final Action action, final ClientOrderId clientOrderId)
    {
        return sign(new ActionPayload(account, nextNonce(), clientOrderId, System.currentTimeMillis(), action));
    }

    SignedAction sign(final ActionPayload payload)
    {
        return signer().sign(payload, mode);
    }

    /** The v2 digest of a signed action: the id of the order a place makes. */
    String digest(final SignedAction signed)
    {
        return Hex.to0x(signer().digestV2(signed.payload()));
    }

    private ActionSigner signer()
    {
        return new ActionSigner(ApplianceContext.DEMO_CHAIN_ID, ApplianceContext.DEMO_CONTRACT, signer);
    }

    @SuppressWarnings("unchecked")
    <T> T laneState(final String key, final Supplier<T> make)
    {
        return (T)laneState.computeIfAbsent(key, k -> make.get());
    }

    @Override
    public String toString()
    {
        return account.toString();
    }
}
