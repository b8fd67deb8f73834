package io.venue.engine;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.ClientOrderId;
import io.venue.action.json.CanonicalJson;
import io.venue.crypto.ActionDigest;
import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateUnusableException;
import io.venue.journal.JournalRecords;
import io.venue.journal.queue.JournalAppender;
import io.venue.journal.sbe.LimitClass;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.SignerMatch;
import io.venue.sequencer.ActionCommandEncoder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Drives an engine the way the sequencer will: actions become journal commands with a stamped sequence
 * and time and the verifier's findings, and the events each command produced are returned as JSON lines.
 */
final class EngineHarness
{
    static final Address OPERATOR = Address.of("0x00000000000000000000000000000000000000ff");
    static final long T0 = 1_763_000_000_000L;

    final Engine engine;
    final EventLog log;
    final ExpandableArrayBuffer commands = new ExpandableArrayBuffer(1 << 16);
    private final ActionCommandEncoder encoder = new ActionCommandEncoder();
    private final ActionDigest digest = new ActionDigest(8453, Address.of("0x" + "5e".repeat(20)));
    private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(1 << 16);
    private final Map<Address, Long> nextNonce = new HashMap<>();
    private int commandsLength;
    private long sequence;
    long now = T0;
    byte[] lastDigest;
    /**
     * The schema version the commands are journaled in: this build's, or an older one it reads (JOURNAL-SCHEMA.md,
     * section 9).
     */
    int version = JournalRecords.SCHEMA_VERSION;

    EngineHarness(final EngineConfig config, final boolean keepLines)
    {
        this(config, new EventLog(keepLines));
    }

    EngineHarness(final EngineConfig config, final EventLog log)
    {
        this.log = log;
        engine = new Engine(config.operator(OPERATOR), log);
    }

    /**
     * A harness whose engine writes through to (and first rebuilds from) a stored state: see
     * {@link Engine#open}. Sequences continue after the stored one.
     */
    EngineHarness(final EngineConfig config, final boolean keepLines, final EngineState stored)
        throws StateUnusableException
    {
        log = new EventLog(keepLines);
        engine = Engine.open(config.operator(OPERATOR), log, stored);
        sequence = engine.lastSequence();
    }

    EngineHarness()
    {
        this(new EngineConfig(), true);
    }

    long nonce(final Address account)
    {
        return nextNonce.getOrDefault(account, 0L);
    }

    /** Hands out the account's next nonce, as {@link #act} does. */
    long takeNonce(final Address account)
    {
        final long nonce = nonce(account);
        nextNonce.put(account, nonce + 1);
        return nonce;
    }

    /** An action signed by the account itself, with the next nonce. */
    List<String> act(final Address account, final Action action)
    {
        final long nonce = nonce(account);
        nextNonce.put(account, nonce + 1);
        return send(new ActionPayload(account, nonce, null, now, action), SignerMatch.ACCOUNT_RAW, account, null);
    }

    List<String> act(final Address account, final ClientOrderId clientOrderId, final Action action)
    {
        final long nonce = nonce(account);
        nextNonce.put(account, nonce + 1);
        return send(new ActionPayload(account, nonce, clientOrderId, now, action), SignerMatch.ACCOUNT_RAW,
            account, null);
    }

    List<String> admin(final Action action)
    {
        return act(OPERATOR, action);
    }

    /** Any payload with any verifier result: for nonce, signer and agent tests. */
    List<String> send(final ActionPayload payload, final SignerMatch match, final Address rawSigner,
        final Address personalSigner)
    {
        return send(payload, match, rawSigner, personalSigner, LimitClass.TRADING);
    }

    /** The account's next action as the MM/BSL compact routes journal it: of limit class MM. */
    List<String> actInMmLimitClass(final Address account, final Action action)
    {
        return actInMmLimitClass(account, null, action);
    }

    List<String> actInMmLimitClass(final Address account, final ClientOrderId clientOrderId, final Action action)
    {
        final long nonce = nonce(account);
        nextNonce.put(account, nonce + 1);
        return send(new ActionPayload(account, nonce, clientOrderId, now, action), SignerMatch.ACCOUNT_RAW, account,
            null, LimitClass.MM);
    }

    List<String> send(final ActionPayload payload, final SignerMatch match, final Address rawSigner,
        final Address personalSigner, final LimitClass limitClass)
    {
        final byte[] json = CanonicalJson.toBytes(payload);
        lastDigest = new byte[32];
        digest.v2(json, 0, json.length, lastDigest, 0);
        final int length = encoder.encode(++sequence, now, 1, payload, lastDigest, match,
            rawSigner == null ? new byte[20] : rawSigner.toBytes(),
            personalSigner == null ? new byte[20] : personalSigner.toBytes(),
            null, limitClass == LimitClass.MM, buffer, 0);
        if (version != JournalRecords.SCHEMA_VERSION)
        {
            new MessageHeaderEncoder().wrap(buffer, 0).version(version);
        }
        return apply(buffer, length);
    }

    /** Applies a command record already encoded into {@code source[0, length)}. */
    List<String> apply(final DirectBuffer source, final int length)
    {
        commands.putInt(commandsLength, length);
        commands.putBytes(commandsLength + 4, source, 0, length);
        commandsLength += 4 + length;
        final int mark = log.mark();
        if (!engine.onCommand(source, 0, length))
        {
            throw new IllegalStateException("engine refused the record");
        }
        // with several shards the command's events come when it is settled
        engine.drain();
        return log.since(mark);
    }

    /**
     * A protection command written by {@code write} into a buffer at 0 (sequence, time and epoch zero, as the lanes
     * write it), stamped here with the next sequence and {@link #now}, then applied.
     */
    List<String> protection(final ToIntFunction<ExpandableArrayBuffer> write)
    {
        final int length = write.applyAsInt(buffer);
        final int body = MessageHeaderEncoder.ENCODED_LENGTH;
        buffer.putLong(body, ++sequence, ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(body + 8, now, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(body + 16, 1, ByteOrder.LITTLE_ENDIAN);
        if (version != JournalRecords.SCHEMA_VERSION)
        {
            new MessageHeaderEncoder().wrap(buffer, 0).version(version);
        }
        return apply(buffer, length);
    }

    long nextSequence()
    {
        return ++sequence;
    }

    /** The sequence last given out. */
    long lastSequence()
    {
        return sequence;
    }

    /** Replays every command sent so far into a fresh engine; returns its event bytes. */
    static byte[] replay(final EngineConfig config, final ExpandableArrayBuffer commands, final int length,
        final Engine[] out)
    {
        final EventLog log = new EventLog(false);
        final Engine engine = new Engine(config.operator(OPERATOR), log);
        int position = 0;
        while (position < length)
        {
            final int recordLength = commands.getInt(position);
            engine.onCommand(commands, position + 4, recordLength);
            position += 4 + recordLength;
        }
        out[0] = engine;
        return log.bytes();
    }

    int commandsLength()
    {
        return commandsLength;
    }

    /** The command records sent so far (since the last drain), one array each. */
    List<byte[]> records()
    {
        final List<byte[]> records = new ArrayList<>();
        int position = 0;
        while (position < commandsLength)
        {
            final int length = commands.getInt(position);
            final byte[] record = new byte[length];
            commands.getBytes(position + 4, record);
            records.add(record);
            position += 4 + length;
        }
        return records;
    }

    /** Appends the commands sent since the last drain to a journal and forgets them. */
    void drainCommandsTo(final JournalAppender journal)
    {
        int position = 0;
        while (position < commandsLength)
        {
            final int length = commands.getInt(position);
            journal.append(commands, position + 4, length);
            position += 4 + length;
        }
        commandsLength = 0;
    }
}
