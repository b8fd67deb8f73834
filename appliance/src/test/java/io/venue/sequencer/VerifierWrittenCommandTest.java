package io.venue.sequencer;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.json.CanonicalJson;
import io.venue.crypto.ActionDigest;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.engine.RandomCommands;
import io.venue.journal.RecordPrinter;
import io.venue.journal.queue.Journal;
import io.venue.testing.JournalFolders;
import io.venue.verifier.VerifierPool;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A command the verifier writes and the sequencer only stamps is the command the sequencer writes from the canonical
 * JSON, byte for byte: every action kind of a random stream (orders, amends, batches of every leg kind, cancels, splits
 * and merges, every operator action), signed raw or personal by the account or by someone else, on the trading route
 * and the MM route, through two real pools (one with command writers, one without) and two sequencers on one clock.
 */
class VerifierWrittenCommandTest
{
    private static final long CHAIN_ID = 8453;
    private static final Address CONTRACT = Address.of("0x" + "5e".repeat(20));
    private static final long SEED = 20261129L;

    @TempDir
    Path folder;

    @Test
    void theVerifiersCommandIsTheSequencersByteForByte() throws Exception
    {
        final Random random = new Random(SEED);
        final ActionDigest digests = new ActionDigest(CHAIN_ID, CONTRACT);
        final ActionCommandDecoder decoder = new ActionCommandDecoder();
        final List<byte[]> bodies = new ArrayList<>();
        final List<Boolean> mmRoute = new ArrayList<>();
        final Set<String> kinds = new HashSet<>();
        for (final byte[] record : RandomCommands.generate(SEED, 1_500))
        {
            final ActionPayload payload = decoder.decode(new UnsafeBuffer(record), 0, record.length);
            if (payload == null)
            {
                continue;
            }
            final byte[] json = CanonicalJson.toBytes(payload);
            final byte[] digest = new byte[32];
            digests.v2(json, 0, json.length, digest, 0);
            final byte[] key = new byte[32];
            random.nextBytes(key);
            key[0] &= 0x7F;
            key[31] |= 1;
            final PreimageMode mode = random.nextBoolean() ? PreimageMode.PERSONAL : PreimageMode.RAW;
            final byte[] signature = new Secp256k1Signer(Secp256k1KeyPair.fromPrivateKey(key)).sign(digest, mode);
            bodies.add(CanonicalJson.signedActionBody(new SignedAction(payload, new Signature65(signature))));
            mmRoute.add(random.nextInt(4) == 0);
            kinds.add(payload.action().getClass().getSimpleName());
        }
        final int count = bodies.size();

        final SequencerListener quiet = new SequencerListener()
        {
            public void onSequenced(final long c, final long k, final long s, final long i)
            {
            }

            public void onRejected(final long c, final long k, final long s, final long i)
            {
            }
        };
        final Path writtenJournal = folder.resolve("written");
        final Path parsedJournal = folder.resolve("parsed");
        try (Journal writtenCommands = Journal.open(writtenJournal);
            Journal parsedCommands = Journal.open(parsedJournal);
            VerifierPool writtenPool = VerifierPool.start(context().commandWriters(ActionCommandEncoder::new));
            VerifierPool parsedPool = VerifierPool.start(context()))
        {
            final Sequencer written = new Sequencer(writtenPool, writtenCommands.appender(), () -> 1_763_000_000_000L,
                quiet, 1, 0, 64);
            final Sequencer parsed = new Sequencer(parsedPool, parsedCommands.appender(), () -> 1_763_000_000_000L,
                quiet, 1, 0, 64);
            int writtenOffered = 0;
            int parsedOffered = 0;
            final long deadline = System.nanoTime() + 120_000_000_000L;
            while ((written.sequence() < count || parsed.sequence() < count) && System.nanoTime() < deadline)
            {
                while (writtenOffered < count && offer(writtenPool, writtenOffered, bodies, mmRoute))
                {
                    writtenOffered++;
                }
                while (parsedOffered < count && offer(parsedPool, parsedOffered, bodies, mmRoute))
                {
                    parsedOffered++;
                }
                written.doWork();
                parsed.doWork();
            }
            assertEquals(count, written.sequence());
            assertEquals(count, parsed.sequence());
        }

        final List<byte[]> writtenRecords = JournalFolders.records(writtenJournal);
        final List<byte[]> parsedRecords = JournalFolders.records(parsedJournal);
        final RecordPrinter printer = new RecordPrinter();
        assertEquals(count, writtenRecords.size());
        int rejected = 0;
        for (int i = 0; i < count; i++)
        {
            final byte[] expected = parsedRecords.get(i);
            final String line = printer.print(new UnsafeBuffer(expected), 0, expected.length);
            assertArrayEquals(expected, writtenRecords.get(i), "record " + (i + 1) + ": " + line);
            rejected += line.contains("\"type\":\"RequestRejected\"") ? 1 : 0;
        }
        // what the stream was made to hold: every kind, each journaled as a command and not refused
        assertEquals(0, rejected);
        assertTrue(count > 1_000, count + " actions");
        assertTrue(kinds.containsAll(Set.of("SpotPlaceOrder", "Cancel", "Amend", "CancelAll", "Batch", "Split", "Merge",
            "CreateAsset", "CreateSpotMarket", "CreateOutcomeMarket", "HaltMarket", "ResumeMarket", "SetKillSwitch",
            "Deposit", "Withdraw", "SetVaultOwner")), kinds.toString());
    }

    private static boolean offer(final VerifierPool pool, final int i, final List<byte[]> bodies,
        final List<Boolean> mm)
    {
        final byte[] body = bodies.get(i);
        return mm.get(i) ? pool.offerMm(false, 9, i, body, 0, body.length) : pool.offer(9, i, body, 0, body.length);
    }

    private static VerifierPool.Context context()
    {
        return new VerifierPool.Context().threads(1).chainId(CHAIN_ID).verifyingContract(CONTRACT);
    }
}
