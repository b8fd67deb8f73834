package io.venue.verifier;

import io.venue.action.Address;
import io.venue.action.OrderId;
import io.venue.codec.Hex;
import io.venue.crypto.CancelByIdText;
import io.venue.crypto.Eip191;
import io.venue.crypto.Eip712Order;
import io.venue.crypto.Keccak256;
import io.venue.crypto.RecoveryStatus;
import io.venue.crypto.Secp256k1Recovery;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The two signatures of an MM cancel-replace (spec 5.3): the place leg's EIP-712 Order and the cancel leg's EIP-191
 * {@code Service CancelById} text must both recover, and to the same signer. Used by the verifier pool before the
 * journal and by the journal audit after it. Not thread safe: one instance per thread.
 */
public final class CancelReplaceCheck
{
    /** The fields of a cancel-replace that are signed. */
    public record Order(byte[] trader, long market, int sideCode, long price, long qty, long expiry, long nonce,
        byte[] cancelOrderId)
    {
    }

    private final Eip712Order eip712;
    private final Secp256k1Recovery recovery;
    private final byte[] placeHash = new byte[32];
    private final byte[] placeSigner = new byte[20];
    private final byte[] cancelSigner = new byte[20];
    private final byte[] cancelHash = new byte[32];
    private final Keccak256 keccak = new Keccak256();

    public CancelReplaceCheck(final long chainId, final Address verifyingContract, final Secp256k1Recovery recovery)
    {
        this.eip712 = new Eip712Order(chainId, verifyingContract);
        this.recovery = recovery;
    }

    /**
     * @return null when both signatures recover to one signer ({@link #signer()}, the order's hash in
     * {@link #placeHash()}); otherwise why not.
     */
    public String check(final Order order, final byte[] placeSignature, final byte[] cancelSignature)
    {
        if ((order.sideCode() & ~3) != 0)
        {
            return "the side code is 0 to 3";
        }
        final Address trader = new Address(order.trader());
        eip712.hash(order.market(), trader, order.sideCode(), order.price(), order.qty(), order.expiry(), order.nonce(),
            placeHash, 0);
        if (recovery.recover(placeHash, 0, placeSignature, 0, placeSigner, 0) != RecoveryStatus.OK)
        {
            return "the place leg's signature is not a valid secp256k1 signature";
        }
        final byte[] text = CancelByIdText.text(new OrderId(order.cancelOrderId()), trader)
            .getBytes(StandardCharsets.UTF_8);
        Eip191.personalHash(keccak, text, 0, text.length, cancelHash, 0);
        if (recovery.recover(cancelHash, 0, cancelSignature, 0, cancelSigner, 0) != RecoveryStatus.OK)
        {
            return "the cancel leg's signature is not a valid secp256k1 signature";
        }
        if (!Arrays.equals(placeSigner, cancelSigner))
        {
            return "the place leg is signed by " + Hex.to0x(placeSigner) + " and the cancel leg by " +
                Hex.to0x(cancelSigner) + ": both legs need the same signer";
        }
        return null;
    }

    /** The EIP-712 Order hash of the last check: the new order's id. */
    public byte[] placeHash()
    {
        return placeHash;
    }

    /** The signer both legs recovered to, after a check that passed. */
    public byte[] signer()
    {
        return placeSigner;
    }
}
