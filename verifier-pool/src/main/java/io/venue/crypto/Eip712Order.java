package io.venue.crypto;

import io.venue.action.Address;
import io.venue.action.Book;
import io.venue.action.Side;

import java.nio.charset.StandardCharsets;

/**
 * EIP-712 hash of the typed Order that signs the place leg of an MM cancel-replace (spec 5.3):
 * keccak256(0x19 0x01 || domainSeparator || hashStruct(order)).
 * <p>
 * Every numeric field is taken as an unsigned 64-bit value and encoded as a 32-byte big-endian word;
 * expiry is hashed exactly as passed (seconds by convention). The domain separator is computed once
 * per instance. Not thread safe: one instance per thread; {@link #hash} is allocation free.
 */
public final class Eip712Order
{
    public static final String DOMAIN_NAME = "ServiceSpotCLOB";
    public static final String DOMAIN_VERSION = "1";
    public static final String DOMAIN_TYPE =
        "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)";
    public static final String ORDER_TYPE =
        "Order(uint256 marketId,address trader,uint8 side,uint256 price,uint256 qty,uint64 expiry,uint64 nonce)";

    /** Packed side codes: outcome markets use all four, spot uses Bid = 0 and Ask = 1. */
    public static final int YES_BID = 0;
    public static final int YES_ASK = 1;
    public static final int NO_BID = 2;
    public static final int NO_ASK = 3;

    private static final int WORD = 32;
    private static final int ORDER_WORDS = 8;
    private static final int DOMAIN_WORDS = 5;
    private static final int STRUCT_HASH_OFFSET = 2 + WORD;

    private final Keccak256 keccak = new Keccak256();
    // Words whose leading zero bytes are written once; only the low bytes change per order.
    private final byte[] order = new byte[ORDER_WORDS * WORD];
    private final byte[] digestInput = new byte[2 + WORD + WORD];
    private final long chainId;
    private final Address verifyingContract;

    public Eip712Order(final long chainId, final Address verifyingContract)
    {
        this.chainId = chainId;
        this.verifyingContract = verifyingContract;

        final byte[] domain = new byte[DOMAIN_WORDS * WORD];
        keccakOf(DOMAIN_TYPE, domain, 0);
        keccakOf(DOMAIN_NAME, domain, WORD);
        keccakOf(DOMAIN_VERSION, domain, 2 * WORD);
        writeU64(chainId, domain, 3 * WORD);
        verifyingContract.copyTo(domain, 4 * WORD + (WORD - Address.LENGTH));

        digestInput[0] = 0x19;
        digestInput[1] = 0x01;
        keccak.hash(domain, 0, domain.length, digestInput, 2);

        keccakOf(ORDER_TYPE, order, 0);
    }

    public long chainId()
    {
        return chainId;
    }

    public Address verifyingContract()
    {
        return verifyingContract;
    }

    /** A copy of the 32-byte domain separator. */
    public byte[] domainSeparator()
    {
        final byte[] copy = new byte[WORD];
        System.arraycopy(digestInput, 2, copy, 0, WORD);
        return copy;
    }

    /**
     * The packed side code.
     *
     * @param book YES or NO for an outcome market, null for spot.
     */
    public static int sideCode(final Side side, final Book book)
    {
        final int ask = side == Side.ASK ? 1 : 0;
        return book == Book.NO ? 2 + ask : ask;
    }

    /**
     * Writes the 32-byte EIP-712 digest of an order to {@code out}.
     *
     * @param side a packed code, 0 to 3.
     * @throws IllegalArgumentException if {@code side} is not 0 to 3.
     */
    public void hash(
        final long marketId,
        final Address trader,
        final int side,
        final long price,
        final long qty,
        final long expiry,
        final long nonce,
        final byte[] out,
        final int outOffset)
    {
        if ((side & ~3) != 0)
        {
            throw new IllegalArgumentException("side code must be 0 to 3, got " + side);
        }

        writeU64(marketId, order, WORD);
        trader.copyTo(order, 2 * WORD + (WORD - Address.LENGTH));
        order[4 * WORD - 1] = (byte)side;
        writeU64(price, order, 4 * WORD);
        writeU64(qty, order, 5 * WORD);
        writeU64(expiry, order, 6 * WORD);
        writeU64(nonce, order, 7 * WORD);

        keccak.hash(order, 0, order.length, digestInput, STRUCT_HASH_OFFSET);
        keccak.hash(digestInput, 0, digestInput.length, out, outOffset);
    }

    // A u64 as the low 8 bytes of a 32-byte word whose upper 24 bytes are already zero.
    private static void writeU64(final long value, final byte[] dst, final int wordOffset)
    {
        final int offset = wordOffset + WORD - 8;
        for (int i = 0; i < 8; i++)
        {
            dst[offset + i] = (byte)(value >>> (56 - 8 * i));
        }
    }

    private void keccakOf(final String text, final byte[] out, final int outOffset)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        keccak.hash(bytes, 0, bytes.length, out, outOffset);
    }
}
