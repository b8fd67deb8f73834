package io.venue.crypto;

import io.venue.codec.Hex;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Hash;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class Keccak256Test
{
    @Test
    void emptyInputIsEthereumsKeccakNotSha3()
    {
        final byte[] out = new byte[32];
        new Keccak256().hash(new byte[0], 0, 0, out, 0);

        assertEquals(
            "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
            Hex.toHex(out));
    }

    @Property(tries = 200)
    void matchesWeb3jAtAnyOffsetAndStaysReusable(
        @ForAll @Size(max = 600) final byte[] data, @ForAll @IntRange(max = 9) final int outOffset)
    {
        final Keccak256 keccak = new Keccak256();
        final byte[] noise = "unrelated earlier input".getBytes(StandardCharsets.US_ASCII);
        keccak.update(noise, 0, noise.length);

        final byte[] framed = new byte[data.length + 5];
        System.arraycopy(data, 0, framed, 3, data.length);
        final byte[] out = new byte[outOffset + 32];
        keccak.hash(framed, 3, data.length, out, outOffset);

        assertArrayEquals(Hash.sha3(data), Arrays.copyOfRange(out, outOffset, outOffset + 32));
    }

    @Property(tries = 100)
    void streamedEqualsOneShot(@ForAll @Size(max = 400) final byte[] data, @ForAll @IntRange(max = 400) final int cut)
    {
        final int split = Math.min(cut, data.length);
        final Keccak256 keccak = new Keccak256();
        keccak.update(data, 0, split);
        for (int i = split; i < data.length; i++)
        {
            keccak.update(data[i]);
        }
        final byte[] out = new byte[32];
        keccak.digest(out, 0);

        assertArrayEquals(Hash.sha3(data), out);
    }
}
