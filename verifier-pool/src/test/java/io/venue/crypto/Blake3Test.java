package io.venue.crypto;

import io.venue.codec.Hex;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import org.bouncycastle.crypto.digests.Blake3Digest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class Blake3Test
{
    // Input lengths of the official BLAKE3 test vectors, chosen around block, chunk and tree boundaries.
    @ParameterizedTest
    @ValueSource(ints = {
        0, 1, 1023, 1024, 1025, 2048, 2049, 3072, 3073, 4096, 4097, 5120, 5121, 6144, 6145, 7168, 7169, 8192,
        8193, 16384, 31744, 102400 })
    void matchesBouncyCastleAndRctcwyvrnOnOfficialVectorInputs(final int length)
    {
        final byte[] input = officialInput(length);

        final byte[] ours = new byte[Blake3.DIGEST_LENGTH];
        final Blake3 blake3 = new Blake3();
        blake3.update(input, 0, input.length);
        blake3.digest(ours, 0);

        // FQN-CLASH: the reference library's Blake3 (Blake3 here is ours)
        final io.github.rctcwyvrn.blake3.Blake3 reference = io.github.rctcwyvrn.blake3.Blake3.newInstance();
        reference.update(input);

        assertArrayEquals(bouncyCastle(input), ours);
        assertArrayEquals(reference.digest(), ours);
    }

    @Test
    void knownDigestsFromTheOfficialVectorFile()
    {
        assertEquals("af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262",
            Hex.toHex(ours(officialInput(0))));
        assertEquals("2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213",
            Hex.toHex(ours(officialInput(1))));
    }

    @ParameterizedTest
    @ValueSource(ints = { 0, 1, 63, 64, 65, 1023, 1024, 1025, 2049, 8193 })
    void byteAtATimeEqualsOneShot(final int length)
    {
        final byte[] input = officialInput(length);
        final Blake3 blake3 = new Blake3();
        for (final byte b : input)
        {
            blake3.update(b);
        }
        final byte[] ours = new byte[Blake3.DIGEST_LENGTH];
        blake3.digest(ours, 0);

        assertArrayEquals(bouncyCastle(input), ours);
    }

    @ParameterizedTest
    @ValueSource(ints = { 0, 7 })
    void digestResetsSoTheInstanceIsReusableAndWritesAtTheOffset(final int offset)
    {
        final Blake3 blake3 = new Blake3();
        final byte[] first = officialInput(5000);
        blake3.update(first, 0, first.length);
        blake3.digest(new byte[32], 0);

        final byte[] second = officialInput(300);
        blake3.update(second, 0, second.length);
        final byte[] out = new byte[offset + 32 + 3];
        blake3.digest(out, offset);

        assertArrayEquals(bouncyCastle(second), Arrays.copyOfRange(out, offset, offset + 32));
    }

    @Property(tries = 300)
    void randomSplitsEqualOneShot(@ForAll("dataWithSplits") final Tuple2<byte[], List<Integer>> sample)
    {
        final byte[] data = sample.get1();
        final int[] cuts = sample.get2().stream().mapToInt(Integer::intValue).sorted().toArray();

        final Blake3 blake3 = new Blake3();
        blake3.update(officialInput(70), 0, 70);
        blake3.reset();

        int from = 0;
        for (final int cut : cuts)
        {
            blake3.update(data, from, cut - from);
            from = cut;
        }
        blake3.update(data, from, data.length - from);
        final byte[] ours = new byte[Blake3.DIGEST_LENGTH];
        blake3.digest(ours, 0);

        assertArrayEquals(bouncyCastle(data), ours);
    }

    @Provide
    Arbitrary<Tuple2<byte[], List<Integer>>> dataWithSplits()
    {
        final Arbitrary<Integer> lengths = Arbitraries.oneOf(
            Arbitraries.integers().between(0, 200),
            Arbitraries.integers().between(900, 2200),
            Arbitraries.integers().between(0, 20_000));
        return lengths.flatMap(length -> Arbitraries.bytes().array(byte[].class).ofSize(length).flatMap(
            data -> Arbitraries.integers().between(0, length).list().ofMaxSize(12).map(cuts -> Tuple.of(data, cuts))));
    }

    static byte[] ours(final byte[] input)
    {
        final Blake3 blake3 = new Blake3();
        blake3.update(input, 0, input.length);
        final byte[] out = new byte[Blake3.DIGEST_LENGTH];
        blake3.digest(out, 0);
        return out;
    }

    static byte[] officialInput(final int length)
    {
        final byte[] input = new byte[length];
        for (int i = 0; i < length; i++)
        {
            input[i] = (byte)(i % 251);
        }
        return input;
    }

    static byte[] bouncyCastle(final byte[] input)
    {
        final Blake3Digest digest = new Blake3Digest(256);
        digest.update(input, 0, input.length);
        final byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return out;
    }
}
