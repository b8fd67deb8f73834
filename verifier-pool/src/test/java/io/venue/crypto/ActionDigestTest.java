package io.venue.crypto;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Book;
import io.venue.action.Side;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJsonWriter;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class ActionDigestTest
{
    private static final Address CONTRACT = Address.of("0x00000000000000000000000000000000000c0ffe");

    @Test
    void v2OfCanonicalJsonMatchesAnIndependentConcatenation()
    {
        final CanonicalJsonWriter writer = new CanonicalJsonWriter();
        new ActionPayload(
            Address.of("0x1111111111111111111111111111111111111111"),
            7,
            null,
            1_700_000_000_000L,
            new SpotPlaceOrder(3, Book.YES, Side.BID, 550_000, 2_000_000, null, TimeInForce.values()[0], false, false,
                SpotPlaceOrder.NO_EXPIRY))
            .writeTo(writer);
        final byte[] json = writer.toByteArray();

        final ActionDigest digest = new ActionDigest(8453, CONTRACT);
        final byte[] out = new byte[32];
        digest.v2(writer.buffer(), 0, writer.length(), out, 0);

        assertArrayEquals(expectedV2(8453, CONTRACT, json), out);
    }

    @Property(tries = 200)
    void v2AndV1MatchBouncyCastleOverTheSpecPreimages(
        @ForAll final long chainId, @ForAll @Size(20) final byte[] contract,
        @ForAll @Size(max = 3000) final byte[] json)
    {
        final Address verifyingContract = new Address(contract);
        final ActionDigest digest = new ActionDigest(chainId, verifyingContract);
        final byte[] framed = new byte[json.length + 11];
        System.arraycopy(json, 0, framed, 4, json.length);
        final byte[] out = new byte[40];

        digest.v2(framed, 4, json.length, out, 5);
        assertArrayEquals(expectedV2(chainId, verifyingContract, json), Arrays.copyOfRange(out, 5, 37));

        digest.v1(framed, 4, json.length, out, 1);
        assertArrayEquals(expectedV1(json), Arrays.copyOfRange(out, 1, 33));
    }

    @Test
    void chainIdAndContractChangeTheV2Digest()
    {
        final byte[] json = "{}".getBytes(StandardCharsets.US_ASCII);
        final byte[] a = new byte[32];
        final byte[] b = new byte[32];
        final byte[] c = new byte[32];
        new ActionDigest(42161, CONTRACT).v2(json, 0, json.length, a, 0);
        new ActionDigest(8453, CONTRACT).v2(json, 0, json.length, b, 0);
        new ActionDigest(42161, Address.of("0x00000000000000000000000000000000000c0fff"))
            .v2(json, 0, json.length, c, 0);

        assertFalse(Arrays.equals(a, b));
        assertFalse(Arrays.equals(a, c));
    }

    private static byte[] expectedV2(final long chainId, final Address contract, final byte[] json)
    {
        final ByteArrayOutputStream preimage = new ByteArrayOutputStream();
        preimage.writeBytes("SERVICE/ACTION_PAYLOAD/v2".getBytes(StandardCharsets.US_ASCII));
        preimage.writeBytes(ByteBuffer.allocate(8).putLong(chainId).array());
        preimage.writeBytes(contract.toBytes());
        preimage.writeBytes(json);
        return Blake3Test.bouncyCastle(preimage.toByteArray());
    }

    private static byte[] expectedV1(final byte[] json)
    {
        final ByteArrayOutputStream preimage = new ByteArrayOutputStream();
        preimage.writeBytes("SERVICE/ACTION_PAYLOAD/v1".getBytes(StandardCharsets.US_ASCII));
        preimage.writeBytes(json);
        return Blake3Test.bouncyCastle(preimage.toByteArray());
    }
}
