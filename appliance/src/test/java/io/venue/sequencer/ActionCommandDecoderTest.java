package io.venue.sequencer;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.CancelByClientOrderId;
import io.venue.action.ClientOrderId;
import io.venue.engine.RandomCommands;
import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.SignerMatch;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Decoding a command record back to its signed action loses nothing: for a long random stream of every
 * action kind (orders of every time in force and STP mode, amends, batches of every leg kind, cancels by id,
 * client id and market, splits and merges, every operator action), the decoded payload encodes to the
 * record's exact bytes again.
 */
class ActionCommandDecoderTest
{
    @Test
    void aRecordCutShortIsRefusedAndTheAuditCallsItAFailure()
    {
        final byte[] record = RandomCommands.generate(4, 10).get(3);
        final UnsafeBuffer cut = new UnsafeBuffer(Arrays.copyOf(record, record.length - 7));
        Assertions.assertThrows(IllegalArgumentException.class,
            () -> new ActionCommandDecoder().decode(cut, 0, cut.capacity()));
        final SignatureAudit audit = new SignatureAudit(8453, Address.of("0x" + "5e".repeat(20)), false);
        Assertions.assertEquals(SignatureAudit.Verdict.FAILED, audit.check(cut, 0, cut.capacity()));
        assertTrue(audit.failure().contains("unreadable"), audit.failure());
    }

    @Test
    void everyRecordDecodesToThePayloadThatEncodesToItAgain()
    {
        final ActionCommandDecoder decoder = new ActionCommandDecoder();
        final ActionCommandEncoder encoder = new ActionCommandEncoder();
        final ExpandableArrayBuffer again = new ExpandableArrayBuffer(1 << 16);
        final byte[] digest = new byte[32];
        final byte[] raw = new byte[20];
        final byte[] personal = new byte[20];
        final byte[] signature = new byte[65];
        final Set<String> kinds = new HashSet<>();
        int decoded = 0;
        // the random stream sends cancels by client order id only inside batches: one on its own
        final ExpandableArrayBuffer single = new ExpandableArrayBuffer(512);
        final int singleLength = encoder.encode(1, 1, 1, new ActionPayload(Address.of("0x" + "a1".repeat(20)), 3,
            ClientOrderId.of("0x" + "0c".repeat(16)), 1_763_000_000_000L,
            new CancelByClientOrderId(ClientOrderId.of("0x" + "7e".repeat(16)))),
            new byte[32], SignerMatch.ACCOUNT_PERSONAL, new byte[20], new byte[20], new byte[65], true, single, 0);
        final byte[] singleRecord = new byte[singleLength];
        single.getBytes(0, singleRecord);
        for (final long seed : new long[]{1, 2, 3})
        {
            final List<byte[]> records = new ArrayList<>(RandomCommands.generate(seed, 4_000));
            records.add(singleRecord);
            for (final byte[] record : records)
            {
                final UnsafeBuffer buffer = new UnsafeBuffer(record);
                final ActionPayload payload = decoder.decode(buffer, 0, record.length);
                if (payload == null)
                {
                    continue;
                }
                final ActionEnvelopeDecoder envelope = decoder.envelope();
                envelope.getDigest(digest, 0, 32);
                envelope.getRawSigner(raw, 0, 20);
                envelope.getPersonalSigner(personal, 0, 20);
                envelope.getSignature(signature, 0, 65);
                final SignerMatch match = envelope.signerMatch();
                final int length = encoder.encode(JournalRecords.sequence(buffer, 0),
                    JournalRecords.timestampMs(buffer, 0), JournalRecords.epoch(buffer, 0), payload, digest, match, raw,
                    personal, signature, decoder.mmLimitClass(), again, 0);
                final byte[] bytes = new byte[length];
                again.getBytes(0, bytes);
                assertArrayEquals(record, bytes, () -> "record of " + payload);
                kinds.add(payload.action().getClass().getSimpleName());
                decoded++;
            }
        }
        assertTrue(decoded > 10_000, "decoded " + decoded);
        assertTrue(
            kinds.containsAll(Set.of("SpotPlaceOrder", "Cancel", "Amend", "CancelByClientOrderId", "CancelAll", "Batch",
            "Split", "Merge", "CreateAsset", "CreateSpotMarket", "CreateOutcomeMarket", "HaltMarket", "ResumeMarket",
            "SetKillSwitch", "Deposit", "Withdraw", "SetVaultOwner")), kinds.toString());
    }
}
