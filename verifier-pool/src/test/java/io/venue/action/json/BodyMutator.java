package io.venue.action.json;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Mutates request bodies the way a broken or hostile client would: truncation, byte flips, deleted
 * spans and stray JSON tokens.
 */
public final class BodyMutator
{
    private BodyMutator()
    {
    }

    private static final List<byte[]> TOKENS = List.of(
        "\"".getBytes(), "{".getBytes(), "}".getBytes(), "[".getBytes(), "]".getBytes(), ",".getBytes(), ":".getBytes(),
        "null".getBytes(), "true".getBytes(), "-".getBytes(), "99999999999999999999".getBytes(), "\\".getBytes(),
        "\"Batch\"".getBytes(), "0x".getBytes(), " ".getBytes(), "1e5".getBytes(), "\u0000".getBytes());

    public static byte[] mutate(final byte[] body, final int rounds, final SplittableRandom random)
    {
        byte[] out = body;
        for (int r = 0; r < rounds; r++)
        {
            final int at = random.nextInt(out.length + 1);
            switch (random.nextInt(5))
            {
                case 0 -> out = Arrays.copyOf(out, Math.max(1, at)); // truncate
                case 1 ->
                { // flip a byte
                    if (at < out.length)
                    {
                        out = out.clone();
                        out[at] = (byte)random.nextInt(256);
                    }
                }
                case 2 ->
                { // delete a span
                    final int to = Math.min(out.length, at + 1 + random.nextInt(8));
                    final byte[] cut = new byte[out.length - (to - at)];
                    System.arraycopy(out, 0, cut, 0, at);
                    System.arraycopy(out, to, cut, at, out.length - to);
                    out = cut.length == 0 ? new byte[]{'{'} : cut;
                }
                default ->
                { // insert a JSON token
                    final byte[] token = TOKENS.get(random.nextInt(TOKENS.size()));
                    final byte[] grown = new byte[out.length + token.length];
                    System.arraycopy(out, 0, grown, 0, at);
                    System.arraycopy(token, 0, grown, at, token.length);
                    System.arraycopy(out, at, grown, at + token.length, out.length - at);
                    out = grown;
                }
            }
        }
        return out;
    }

}
