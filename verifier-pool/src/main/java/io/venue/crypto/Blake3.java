package io.venue.crypto;

import java.util.Arrays;

/**
 * BLAKE3 in hash mode (no key, no derive-key) with a 32-byte output, reusable and allocation free
 * after construction.
 * <p>
 * Input is split into 1024-byte chunks of 64-byte blocks. Each chunk yields a chaining value; the
 * chaining values are merged pairwise into a binary tree whose right edge is kept on a stack, so the
 * state is bounded whatever the input length. The last block of a chunk, and the last chunk, are held
 * back until more input arrives or {@link #digest(byte[], int)} is called, because only then is it
 * known which flags (CHUNK_END, ROOT) they take.
 * <p>
 * Not thread safe: one instance per thread.
 */
public final class Blake3
{
    public static final int DIGEST_LENGTH = 32;

    static final int BLOCK_LENGTH = 64;
    static final int CHUNK_LENGTH = 1024;

    private static final int CHUNK_START = 1;
    private static final int CHUNK_END = 1 << 1;
    private static final int PARENT = 1 << 2;
    private static final int ROOT = 1 << 3;

    // 2^64 bytes of input make at most 2^54 chunks, so the tree's right edge never exceeds 54 nodes.
    private static final int MAX_DEPTH = 54;

    private static final int IV0 = 0x6A09E667;
    private static final int IV1 = 0xBB67AE85;
    private static final int IV2 = 0x3C6EF372;
    private static final int IV3 = 0xA54FF53A;
    private static final int IV4 = 0x510E527F;
    private static final int IV5 = 0x9B05688C;
    private static final int IV6 = 0x1F83D9AB;
    private static final int IV7 = 0x5BE0CD19;

    private static final int[] IV = { IV0, IV1, IV2, IV3, IV4, IV5, IV6, IV7 };

    private final int[] chunkCv = new int[8];
    private final int[] nodeCv = new int[8];
    private final int[] words = new int[16];
    private final int[] cvStack = new int[MAX_DEPTH * 8];
    private final byte[] block = new byte[BLOCK_LENGTH];

    private int blockLength;
    private int blocksCompressed;
    private long chunkCounter;
    private int cvStackDepth;

    public Blake3()
    {
        reset();
    }

    /**
     * Forgets all input, ready for a new message.
     */
    public void reset()
    {
        System.arraycopy(IV, 0, chunkCv, 0, 8);
        blockLength = 0;
        blocksCompressed = 0;
        chunkCounter = 0;
        cvStackDepth = 0;
    }

    public void update(final byte b)
    {
        if (chunkLength() == CHUNK_LENGTH)
        {
            finishChunk();
        }
        if (blockLength == BLOCK_LENGTH)
        {
            compressBufferedBlock();
        }
        block[blockLength++] = b;
    }

    public void update(final byte[] src, final int offset, final int length)
    {
        int position = offset;
        int remaining = length;
        while (remaining > 0)
        {
            if (chunkLength() == CHUNK_LENGTH)
            {
                finishChunk();
            }
            final int take = Math.min(CHUNK_LENGTH - chunkLength(), remaining);
            updateChunk(src, position, take);
            position += take;
            remaining -= take;
        }
    }

    /**
     * Writes the 32-byte hash of all input since the last reset into {@code out} at {@code offset},
     * then resets.
     */
    public void digest(final byte[] out, final int offset)
    {
        if (out.length - offset < DIGEST_LENGTH || offset < 0)
        {
            throw new IndexOutOfBoundsException("need " + DIGEST_LENGTH + " bytes at offset " + offset);
        }

        Arrays.fill(block, blockLength, BLOCK_LENGTH, (byte)0);
        loadWords(block, 0);
        final int chunkFlags = CHUNK_END | startFlag();

        if (cvStackDepth == 0)
        {
            compress(chunkCv, chunkCounter, blockLength, chunkFlags | ROOT, nodeCv);
        }
        else
        {
            compress(chunkCv, chunkCounter, blockLength, chunkFlags, nodeCv);
            for (int depth = cvStackDepth - 1; depth >= 0; depth--)
            {
                loadParentWords(depth);
                compress(IV, 0, BLOCK_LENGTH, depth == 0 ? PARENT | ROOT : PARENT, nodeCv);
            }
        }

        for (int i = 0; i < 8; i++)
        {
            final int w = nodeCv[i];
            final int o = offset + (i << 2);
            out[o] = (byte)w;
            out[o + 1] = (byte)(w >>> 8);
            out[o + 2] = (byte)(w >>> 16);
            out[o + 3] = (byte)(w >>> 24);
        }
        reset();
    }

    private int chunkLength()
    {
        return blocksCompressed * BLOCK_LENGTH + blockLength;
    }

    private int startFlag()
    {
        return blocksCompressed == 0 ? CHUNK_START : 0;
    }

    // length never goes past the end of the current chunk.
    private void updateChunk(final byte[] src, final int offset, final int length)
    {
        int position = offset;
        int remaining = length;
        while (remaining > 0)
        {
            if (blockLength == BLOCK_LENGTH)
            {
                compressBufferedBlock();
            }
            if (blockLength == 0)
            {
                // Whole blocks with more input behind them cannot be a chunk's last block: compress
                // them straight from the caller's array, no copy.
                while (remaining > BLOCK_LENGTH)
                {
                    loadWords(src, position);
                    compress(chunkCv, chunkCounter, BLOCK_LENGTH, startFlag(), chunkCv);
                    blocksCompressed++;
                    position += BLOCK_LENGTH;
                    remaining -= BLOCK_LENGTH;
                }
            }
            final int take = Math.min(BLOCK_LENGTH - blockLength, remaining);
            System.arraycopy(src, position, block, blockLength, take);
            blockLength += take;
            position += take;
            remaining -= take;
        }
    }

    private void compressBufferedBlock()
    {
        loadWords(block, 0);
        compress(chunkCv, chunkCounter, BLOCK_LENGTH, startFlag(), chunkCv);
        blocksCompressed++;
        blockLength = 0;
    }

    // Called only when more input follows, so this chunk is neither the last one nor the root.
    private void finishChunk()
    {
        loadWords(block, 0);
        compress(chunkCv, chunkCounter, BLOCK_LENGTH, CHUNK_END | startFlag(), nodeCv);
        chunkCounter++;

        // After n chunks, merge one parent per trailing zero bit of n: the completed subtrees.
        long totalChunks = chunkCounter;
        while ((totalChunks & 1) == 0)
        {
            cvStackDepth--;
            loadParentWords(cvStackDepth);
            compress(IV, 0, BLOCK_LENGTH, PARENT, nodeCv);
            totalChunks >>>= 1;
        }
        System.arraycopy(nodeCv, 0, cvStack, cvStackDepth * 8, 8);
        cvStackDepth++;

        System.arraycopy(IV, 0, chunkCv, 0, 8);
        blockLength = 0;
        blocksCompressed = 0;
    }

    // Parent message: left child from the stack, right child in nodeCv.
    private void loadParentWords(final int depth)
    {
        System.arraycopy(cvStack, depth * 8, words, 0, 8);
        System.arraycopy(nodeCv, 0, words, 8, 8);
    }

    private void loadWords(final byte[] src, final int offset)
    {
        for (int i = 0, o = offset; i < 16; i++, o += 4)
        {
            words[i] = (src[o] & 0xFF) | (src[o + 1] & 0xFF) << 8 | (src[o + 2] & 0xFF) << 16 | src[o + 3] << 24;
        }
    }

    /**
     * The compression function over {@link #words}, keeping only the 8-word chaining value, which is
     * all of the output a 32-byte hash needs. {@code out} may be {@code cv}.
     */
    private void compress(final int[] cv, final long counter, final int length, final int flags, final int[] out)
    {
        int v0 = cv[0];
        int v1 = cv[1];
        int v2 = cv[2];
        int v3 = cv[3];
        int v4 = cv[4];
        int v5 = cv[5];
        int v6 = cv[6];
        int v7 = cv[7];
        int v8 = IV0;
        int v9 = IV1;
        int v10 = IV2;
        int v11 = IV3;
        int v12 = (int)counter;
        int v13 = (int)(counter >>> 32);
        int v14 = length;
        int v15 = flags;

        final int[] w = words;
        int m0 = w[0];
        int m1 = w[1];
        int m2 = w[2];
        int m3 = w[3];
        int m4 = w[4];
        int m5 = w[5];
        int m6 = w[6];
        int m7 = w[7];
        int m8 = w[8];
        int m9 = w[9];
        int m10 = w[10];
        int m11 = w[11];
        int m12 = w[12];
        int m13 = w[13];
        int m14 = w[14];
        int m15 = w[15];

        for (int round = 0; round < 7; round++)
        {
            // Columns.
            v0 += v4 + m0;
            v12 = Integer.rotateRight(v12 ^ v0, 16);
            v8 += v12;
            v4 = Integer.rotateRight(v4 ^ v8, 12);
            v0 += v4 + m1;
            v12 = Integer.rotateRight(v12 ^ v0, 8);
            v8 += v12;
            v4 = Integer.rotateRight(v4 ^ v8, 7);

            v1 += v5 + m2;
            v13 = Integer.rotateRight(v13 ^ v1, 16);
            v9 += v13;
            v5 = Integer.rotateRight(v5 ^ v9, 12);
            v1 += v5 + m3;
            v13 = Integer.rotateRight(v13 ^ v1, 8);
            v9 += v13;
            v5 = Integer.rotateRight(v5 ^ v9, 7);

            v2 += v6 + m4;
            v14 = Integer.rotateRight(v14 ^ v2, 16);
            v10 += v14;
            v6 = Integer.rotateRight(v6 ^ v10, 12);
            v2 += v6 + m5;
            v14 = Integer.rotateRight(v14 ^ v2, 8);
            v10 += v14;
            v6 = Integer.rotateRight(v6 ^ v10, 7);

            v3 += v7 + m6;
            v15 = Integer.rotateRight(v15 ^ v3, 16);
            v11 += v15;
            v7 = Integer.rotateRight(v7 ^ v11, 12);
            v3 += v7 + m7;
            v15 = Integer.rotateRight(v15 ^ v3, 8);
            v11 += v15;
            v7 = Integer.rotateRight(v7 ^ v11, 7);

            // Diagonals.
            v0 += v5 + m8;
            v15 = Integer.rotateRight(v15 ^ v0, 16);
            v10 += v15;
            v5 = Integer.rotateRight(v5 ^ v10, 12);
            v0 += v5 + m9;
            v15 = Integer.rotateRight(v15 ^ v0, 8);
            v10 += v15;
            v5 = Integer.rotateRight(v5 ^ v10, 7);

            v1 += v6 + m10;
            v12 = Integer.rotateRight(v12 ^ v1, 16);
            v11 += v12;
            v6 = Integer.rotateRight(v6 ^ v11, 12);
            v1 += v6 + m11;
            v12 = Integer.rotateRight(v12 ^ v1, 8);
            v11 += v12;
            v6 = Integer.rotateRight(v6 ^ v11, 7);

            v2 += v7 + m12;
            v13 = Integer.rotateRight(v13 ^ v2, 16);
            v8 += v13;
            v7 = Integer.rotateRight(v7 ^ v8, 12);
            v2 += v7 + m13;
            v13 = Integer.rotateRight(v13 ^ v2, 8);
            v8 += v13;
            v7 = Integer.rotateRight(v7 ^ v8, 7);

            v3 += v4 + m14;
            v14 = Integer.rotateRight(v14 ^ v3, 16);
            v9 += v14;
            v4 = Integer.rotateRight(v4 ^ v9, 12);
            v3 += v4 + m15;
            v14 = Integer.rotateRight(v14 ^ v3, 8);
            v9 += v14;
            v4 = Integer.rotateRight(v4 ^ v9, 7);

            // The message permutation {2,6,3,10,7,0,4,13,1,11,12,5,9,14,15,8} is two 8-cycles; as
            // local renames it costs the JIT nothing.
            int t = m0;
            m0 = m2;
            m2 = m3;
            m3 = m10;
            m10 = m12;
            m12 = m9;
            m9 = m11;
            m11 = m5;
            m5 = t;
            t = m1;
            m1 = m6;
            m6 = m4;
            m4 = m7;
            m7 = m13;
            m13 = m14;
            m14 = m15;
            m15 = m8;
            m8 = t;
        }

        out[0] = v0 ^ v8;
        out[1] = v1 ^ v9;
        out[2] = v2 ^ v10;
        out[3] = v3 ^ v11;
        out[4] = v4 ^ v12;
        out[5] = v5 ^ v13;
        out[6] = v6 ^ v14;
        out[7] = v7 ^ v15;
    }
}
