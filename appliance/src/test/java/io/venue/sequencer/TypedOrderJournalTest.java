package io.venue.sequencer;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.Book;
import io.venue.action.Cancel;
import io.venue.action.CancelByClientOrderId;
import io.venue.action.ClientOrderId;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.action.typed.TypedOrder;
import io.venue.crypto.ActionDigest;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.journal.RecordPrinter;
import io.venue.journal.queue.Journal;
import io.venue.testing.JournalFolders;
import io.venue.verifier.VerifierPool;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the sequencer journals for a typed order is what it journals for the same order's JSON body on the MM lane, byte
 * for byte, the typed order's written by the verifier from its fields and only stamped by the sequencer, the JSON
 * body's written by the sequencer from the canonical JSON: random orders of the four kinds, signed by the account, its
 * agent or a stranger, in either mode, some with a
 * signature that cannot be one, some with a ts the model refuses, through two real pools (one offered the typed orders,
 * one the JSON bodies) and two sequencers on the same clock, each writing its own command journal.
 */
class TypedOrderJournalTest
{
    private static final long CHAIN_ID = 8453;
    private static final Address CONTRACT = Address.of("0x" + "5e".repeat(20));
    private static final int ORDERS = 300;
    private static final long SEED = 20261128L;

    @TempDir
    Path folder;

    @Test
    void aTypedOrderIsJournaledAsItsJsonBodyIs() throws Exception
    {
        final Random random = new Random(SEED);
        final Secp256k1KeyPair trader = key(random);
        final Secp256k1KeyPair agent = key(random);
        final Secp256k1KeyPair stranger = key(random);
        final byte[] traderAddress = trader.address().toBytes();
        final byte[] agentAddress = agent.address().toBytes();
        final ActionDigest digests = new ActionDigest(CHAIN_ID, CONTRACT);

        final UnsafeBuffer[] records = new UnsafeBuffer[ORDERS];
        final byte[][] bodies = new byte[ORDERS][];
        for (int i = 0; i < ORDERS; i++)
        {
            final ActionPayload payload = new ActionPayload(
                random.nextInt(10) == 0 ? new Address(bytes(random, 20)) : trader.address(),
                i, random.nextBoolean() ? null : new ClientOrderId(bytes(random, 16)), 1_763_000_000_000L + i,
                action(random));
            final byte[] json = CanonicalJson.toBytes(payload);
            final byte[] digest = new byte[32];
            digests.v2(json, 0, json.length, digest, 0);
            final Secp256k1KeyPair signer = switch (random.nextInt(4))
            {
                case 0 -> agent;
                case 1 -> stranger;
                default -> trader;
            };
            final PreimageMode mode = random.nextInt(3) == 0 ? PreimageMode.PERSONAL : PreimageMode.RAW;
            final byte[] signature = new Secp256k1Signer(signer).sign(digest, mode);
            if (random.nextInt(10) == 0)
            {
                signature[64] = (byte)random.nextInt(256); // mostly not a v at all
            }
            final SignedAction order = new SignedAction(payload, new Signature65(signature));
            records[i] = new UnsafeBuffer(new byte[TypedOrder.LENGTH]);
            TypedOrder.encode(order, records[i], 0);
            String body = new String(CanonicalJson.signedActionBody(order), StandardCharsets.US_ASCII);
            if (random.nextInt(15) == 0)
            {
                // a ts above 2^63-1: refused before any hashing, the same way
                final long ts = Long.MIN_VALUE + (random.nextLong() & Long.MAX_VALUE);
                records[i].putLong(TypedOrder.TS, ts, ByteOrder.LITTLE_ENDIAN);
                body = body.replaceFirst("\"ts\":\\d+", "\"ts\":" + Long.toUnsignedString(ts));
            }
            bodies[i] = body.getBytes(StandardCharsets.US_ASCII);
        }

        final SequencerListener quiet = new SequencerListener()
        {
            public void onSequenced(final long c, final long k, final long s, final long i) { }

            public void onRejected(final long c, final long k, final long s, final long i) { }
        };
        final Path typedJournal = folder.resolve("typed");
        final Path jsonJournal = folder.resolve("json");
        try (Journal typedCommands = Journal.open(typedJournal);
            Journal jsonCommands = Journal.open(jsonJournal);
            VerifierPool typedPool = VerifierPool.start(context(traderAddress, agentAddress)
                .commandWriters(ActionCommandEncoder::new));
            VerifierPool jsonPool = VerifierPool.start(context(traderAddress, agentAddress)))
        {
            final Sequencer typed = new Sequencer(typedPool, typedCommands.appender(), () -> 1_763_000_000_000L, quiet,
                1, 0, 64);
            final Sequencer json = new Sequencer(jsonPool, jsonCommands.appender(), () -> 1_763_000_000_000L, quiet, 1,
                0, 64);
            int typedOffered = 0;
            int jsonOffered = 0;
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while ((typed.sequence() < ORDERS || json.sequence() < ORDERS) && System.nanoTime() < deadline)
            {
                // one connection, its later orders pre-batched, as the gateway sends them behind a batch
                while (typedOffered < ORDERS && typedPool.offerTypedMm(typedOffered >= ORDERS / 2, 9, typedOffered,
                    records[typedOffered], 0, TypedOrder.market(records[typedOffered], 0)))
                {
                    typedOffered++;
                }
                while (jsonOffered < ORDERS &&
                    jsonPool.offerMm(jsonOffered >= ORDERS / 2, 9, jsonOffered, bodies[jsonOffered], 0,
                    bodies[jsonOffered].length))
                {
                    jsonOffered++;
                }
                typed.doWork();
                json.doWork();
            }
            assertEquals(ORDERS, typed.sequence());
            assertEquals(ORDERS, json.sequence());
        }

        final List<byte[]> typedRecords = JournalFolders.records(typedJournal);
        final List<byte[]> jsonRecords = JournalFolders.records(jsonJournal);
        final RecordPrinter printer = new RecordPrinter();
        assertEquals(ORDERS, typedRecords.size());
        assertEquals(ORDERS, jsonRecords.size());
        int rejected = 0;
        int mmPlaces = 0;
        for (int i = 0; i < ORDERS; i++)
        {
            final String line = print(printer, typedRecords.get(i));
            assertArrayEquals(jsonRecords.get(i), typedRecords.get(i), "record " + (i + 1) + "\nJSON:  " +
                print(printer, jsonRecords.get(i)) + "\ntyped: " + line);
            rejected += line.contains("\"type\":\"RequestRejected\"") ? 1 : 0;
            mmPlaces += line.contains("\"type\":\"PlaceOrder\"") && line.contains("\"limitClass\":\"MM\"") ? 1 : 0;
        }
        // the mix held what it was made to: refusals of both kinds and accepted places of limit class MM
        assertTrue(rejected > 10 && rejected < ORDERS / 2, rejected + " refused");
        assertTrue(mmPlaces > 30, mmPlaces + " places of limit class MM");
    }

    private static VerifierPool.Context context(final byte[] trader, final byte[] agent)
    {
        return new VerifierPool.Context().threads(1).chainId(CHAIN_ID).verifyingContract(CONTRACT)
            .delegates((account, signer) -> Arrays.equals(account, trader) && Arrays.equals(signer, agent));
    }

    private static Action action(final Random random)
    {
        return switch (random.nextInt(4))
        {
            case 0 -> new SpotPlaceOrder(random.nextInt(100),
                random.nextInt(3) == 0 ? null : random.nextBoolean() ? Book.YES : Book.NO,
                random.nextBoolean() ? Side.BID : Side.ASK, random.nextLong(), random.nextLong(),
                random.nextBoolean() ? null : StpMode.values()[random.nextInt(4)],
                TimeInForce.values()[random.nextInt(4)],
                random.nextBoolean(), random.nextBoolean(),
                random.nextBoolean() ? SpotPlaceOrder.NO_EXPIRY : random.nextLong() >>> 1);
            case 1 -> new Cancel(new OrderId(bytes(random, 32)));
            case 2 -> new Amend(new OrderId(bytes(random, 32)), random.nextLong(), random.nextLong());
            default -> new CancelByClientOrderId(new ClientOrderId(bytes(random, 16)));
        };
    }

    private static Secp256k1KeyPair key(final Random random)
    {
        final byte[] key = bytes(random, 32);
        key[0] &= 0x7F; // below the curve's order
        key[31] |= 1;
        return Secp256k1KeyPair.fromPrivateKey(key);
    }

    private static byte[] bytes(final Random random, final int length)
    {
        final byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static String print(final RecordPrinter printer, final byte[] record)
    {
        return printer.print(new UnsafeBuffer(record), 0, record.length);
    }
}
