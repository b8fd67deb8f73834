package io.venue.journal;

import io.venue.journal.sbe.AgentCreateDecoder;
import io.venue.journal.sbe.SessionOpenedDecoder;
import io.venue.journal.sbe.SessionsResetDecoder;
import io.venue.journal.sbe.GroupSizeEncodingDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.journal.sbe.OwnerRevokeDecoder;
import io.venue.journal.sbe.RequestRejectedDecoder;
import io.venue.journal.sbe.RequestsRejectedSummaryDecoder;
import io.venue.journal.sbe.FixSessionMarkDecoder;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Reads the message header of a journal record, names its {@link RecordType} and checks, before any decoder
 * touches it, that every byte a decoder would read lies inside the record. A reusable flyweight: one per
 * thread, no allocation, and nothing it is given makes it throw.
 *
 * <pre>{@code
 * if (records.wrap(buffer, offset, length) == RecordError.NONE)
 * {
 *     switch (records.type())
 *     {
 *         case PLACE_ORDER -> placeOrder.wrap(buffer, records.bodyOffset(), records.blockLength(), records.version());
 *         ...
 *     }
 * }
 * }</pre>
 *
 * Every command starts with {@code sequence}, {@code timestampMs} and {@code epoch}, every event with
 * {@code sequence} and {@code eventIndex}, at the fixed offsets below, so a reader can take them without
 * knowing the message.
 */
public final class JournalRecords
{
    public static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;
    public static final int SCHEMA_ID = MessageHeaderDecoder.SCHEMA_ID;
    /** The version this build writes. */
    public static final int SCHEMA_VERSION = MessageHeaderDecoder.SCHEMA_VERSION;
    /**
     * The oldest version this build reads. Version 5 renamed version 4's {@code Lane} and its fields {@code lane} to
     * {@code LimitClass} and {@code limitClass} and changed no byte, and version 6 changed the meaning of values, not
     * the layout ({@link #FILLED_KEPT_ON_REENTRY_VERSION}), nor did version 7 ({@link #UNFUNDED_REFUSED_VERSION},
     * which also added a value of {@code SignerMatch}); version 8 only added the audit record
     * {@code RequestsRejectedSummary}, and version 9 ({@link #KEY_VERSION_IN_ID_VERSION}) changed a meaning, not the
     * layout; version 10 ({@link #ADDRESS_SOURCE_VERSION}) added a field at the end of that summary, which an older
     * summary's shorter block reads as zeros, and version 11 only added the audit record {@code FixSessionMark}: every
     * version 4 to 10 record is read as the same record of version 11
     * (JOURNAL-SCHEMA.md, section 9). Only a version whose every record is laid out as this version's may be read
     * this way.
     */
    public static final int OLDEST_READ_VERSION = 4;
    /**
     * The first version whose amends keep what an order filled when they take it out of the book and enter it again (a
     * new price or more quantity): the engine applies an {@code Amend} (or a batch's amend leg) of this version or
     * later with the order's fills counted in its size, so {@code qty} of the {@code OrderAccepted},
     * {@code OrderRested} and {@code OrderAmended} it causes, less {@code remaining}, is what the id filled before and
     * since. An amend of an older version enters the order again as its own build did, its size the new quantity alone,
     * so a replay of an older journal writes the events its run wrote (JOURNAL-SCHEMA.md, section 9).
     */
    public static final int FILLED_KEPT_ON_REENTRY_VERSION = 6;
    /**
     * The first version whose signed actions from an account the engine does not know are refused
     * {@code ACCOUNT_NOT_FUNDED} without numbering the account or giving it a nonce window: an account is made by the
     * operator (a deposit), never by a stranger's fresh key. An action of an older version numbers the account once
     * its nonce passes, as its own build did, so a replay of an older journal makes the same accounts
     * (JOURNAL-SCHEMA.md, section 9).
     */
    public static final int UNFUNDED_REFUSED_VERSION = 7;
    /**
     * The first version whose new HMAC credential ids (an {@code AgentCreate}'s {@code agentId}, an
     * {@code AgentRotate}'s {@code newCredentialId}, and the {@code AgentChanged} events they cause) carry in their
     * first byte the credential key version their secret derives from; a credential of an older record was issued
     * under key version 1 (JOURNAL-SCHEMA.md, section 9). The engine writes the same events as before.
     */
    public static final int KEY_VERSION_IN_ID_VERSION = 9;
    /**
     * The first version whose {@code RequestsRejectedSummary} counts the refusals of a client address, over all of its
     * connections, when the lane knew the address ({@code sourceAddress} not zero), its {@code connectionId} then the
     * last one's; an older summary counts one connection's (JOURNAL-SCHEMA.md, section 9). Audit only: the engine
     * reads past it either way.
     */
    public static final int ADDRESS_SOURCE_VERSION = 10;
    /**
     * The version that added the protection commands (SessionOpened to SessionsReset, ids 70 to 75), their event
     * ProtectionChanged and the OrderDoneReason values CANCELLED_DISCONNECT, CANCELLED_DEAD_MAN and CANCELLED_ALL; a
     * CancelAll of this version or later reports its cancels as CANCELLED_ALL, an older one as CANCELLED.
     */
    public static final int PROTECTIONS_VERSION = 12;
    /**
     * The version that added the SignerMatch value SESSION_CREDENTIAL: an order command (PlaceOrder, Cancel, Amend,
     * CancelByClientOrderId, CancelAll) a session lane (FIX) entered for its authenticated session, not client-signed;
     * the envelope's {@code rawSigner} holds the session's credential id (8 bytes, as an AgentId) then 12 zero bytes.
     * The engine authorizes it by that credential and applies no nonce step; in an older record the value is refused.
     */
    public static final int SESSION_CREDENTIAL_VERSION = 13;
    /**
     * The version that added the {@code FixMarkKind} value ADMIN and {@code reportKey} at the end of
     * {@code FixSessionMark} (the FIX lane's outbound numbering rebuilt from the journal, FIX.md); an older mark reads
     * its reportKey as 0.
     */
    public static final int FIX_REPORT_KEY_VERSION = 14;
    /**
     * The version from which a session-key session that closes while another session of its credential is open (the
     * reconnect reached the journal first) keeps its orders, as a reconnect after the close does; an older close arms
     * the sweep all the same. Only the engine's meaning changed, not the layout.
     */
    public static final int RECONNECT_BEFORE_CLOSE_VERSION = 15;
    /**
     * The version from which a session order command (SESSION_CREDENTIAL) passes its credential's FIX onboarding
     * record (SetFixOnboarding, also of this version): FIX permission and allowed markets. An older one does not, as
     * its build did not.
     */
    public static final int FIX_ONBOARDING_VERSION = 16;
    public static final ByteOrder BYTE_ORDER = MessageHeaderDecoder.BYTE_ORDER;

    /** Offset from the record's start of {@code sequence} (uint64), in commands and events alike. */
    public static final int SEQUENCE_OFFSET = HEADER_LENGTH;
    /** Offset from the record's start of a command's {@code timestampMs} (uint64). */
    public static final int TIMESTAMP_MS_OFFSET = HEADER_LENGTH + 8;
    /** Offset from the record's start of a command's {@code epoch} (uint32). */
    public static final int EPOCH_OFFSET = HEADER_LENGTH + 16;
    /** Offset from the record's start of an event's {@code eventIndex} (uint32). */
    public static final int EVENT_INDEX_OFFSET = HEADER_LENGTH + 8;

    private static final int VAR_DATA_HEADER_LENGTH = 2;

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final GroupSizeEncodingDecoder groupHeader = new GroupSizeEncodingDecoder();

    private DirectBuffer buffer;
    private int offset;
    private RecordError error = RecordError.OUT_OF_BOUNDS;
    private RecordType type;
    private int templateId;
    private int schemaId;
    private int version;
    private int blockLength;
    private int encodedLength;

    /**
     * Points at the record of at most {@code length} bytes at {@code offset} and checks it. Bytes after the
     * record's {@link #encodedLength()} are allowed (a slot may be larger than its record).
     *
     * @return {@link RecordError#NONE} when the record may be decoded, otherwise the first problem found.
     */
    public RecordError wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        this.buffer = buffer;
        this.offset = offset;
        type = null;
        templateId = -1;
        schemaId = -1;
        version = -1;
        blockLength = -1;
        encodedLength = 0;
        error = check(length);
        return error;
    }

    /** The type of the record, or null when {@link #wrap} found it malformed; {@link #error()} says why. */
    public RecordType typeOf(final DirectBuffer buffer, final int offset, final int length)
    {
        return wrap(buffer, offset, length) == RecordError.NONE ? type : null;
    }

    /** The result of the last {@link #wrap}. */
    public RecordError error()
    {
        return error;
    }

    /** The record's type; null unless the last {@link #wrap} returned {@link RecordError#NONE}. */
    public RecordType type()
    {
        return type;
    }

    /** The header's template id, or -1 when there was no whole header. */
    public int templateId()
    {
        return templateId;
    }

    /** The header's schema id, or -1 when there was no whole header. */
    public int schemaId()
    {
        return schemaId;
    }

    /** The header's version, or -1 when there was no whole header. Pass it to a decoder's wrap. */
    public int version()
    {
        return version;
    }

    /** The header's block length, or -1 when there was no whole header. Pass it to a decoder's wrap. */
    public int blockLength()
    {
        return blockLength;
    }

    /** Where the message body (the fixed block) starts: the record's offset plus the header. */
    public int bodyOffset()
    {
        return offset + HEADER_LENGTH;
    }

    /** Bytes of the whole record (header, block, group, variable data); 0 unless it is well formed. */
    public int encodedLength()
    {
        return encodedLength;
    }

    /** The {@code sequence} of the well-formed record at {@code offset}: a command's or its cause's. */
    public static long sequence(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + SEQUENCE_OFFSET, BYTE_ORDER);
    }

    /**
     * The {@code sequence} of the record at {@code offset}, read whatever the rest of it holds, or -1 when its
     * {@code length} bytes are too few to hold one (a damaged record still names its place this way).
     */
    public static long sequenceOrNone(final DirectBuffer buffer, final int offset, final int length)
    {
        return length >= SEQUENCE_OFFSET + 8 ? sequence(buffer, offset) : -1;
    }

    /** The sequencer's stamped time of the well-formed command at {@code offset}. */
    public static long timestampMs(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + TIMESTAMP_MS_OFFSET, BYTE_ORDER);
    }

    /** The epoch of the well-formed command at {@code offset}. */
    public static long epoch(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + EPOCH_OFFSET, BYTE_ORDER) & 0xFFFF_FFFFL;
    }

    /** The index within its command of the well-formed event at {@code offset}. */
    public static long eventIndex(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + EVENT_INDEX_OFFSET, BYTE_ORDER) & 0xFFFF_FFFFL;
    }

    /**
     * Whether this build reads records of {@code version}: {@link #OLDEST_READ_VERSION} to {@link #SCHEMA_VERSION}.
     * A record of any other version is refused whole, never half read.
     */
    public static boolean readsVersion(final int version)
    {
        return version >= OLDEST_READ_VERSION && version <= SCHEMA_VERSION;
    }

    /**
     * Whether an amend command of {@code version} keeps the order's filled quantity when it enters the order again
     * ({@link #FILLED_KEPT_ON_REENTRY_VERSION}); and so whether the order events of such a command count it in
     * {@code qty}.
     */
    public static boolean keepsFilledOnReentry(final int version)
    {
        return version >= FILLED_KEPT_ON_REENTRY_VERSION;
    }

    /**
     * Whether a signed action of {@code version} from an account the engine does not know is refused without making
     * the account ({@link #UNFUNDED_REFUSED_VERSION}).
     */
    public static boolean refusesUnfundedAccounts(final int version)
    {
        return version >= UNFUNDED_REFUSED_VERSION;
    }

    /**
     * Whether a command template is an audit record of refusals before the engine ({@code RequestRejected}, and
     * {@code RequestsRejectedSummary} since version 8), or a lane's audit record ({@code FixSessionMark} since version
     * 11): the engine reads past it and writes no event for it.
     */
    public static boolean isRefusalAudit(final int templateId)
    {
        return templateId == RequestRejectedDecoder.TEMPLATE_ID ||
            templateId == RequestsRejectedSummaryDecoder.TEMPLATE_ID || templateId == FixSessionMarkDecoder.TEMPLATE_ID;
    }

    /**
     * The credential key version of an HMAC credential whose id begins with {@code firstIdByte}, in a record of
     * {@code version}: that byte from {@link #KEY_VERSION_IN_ID_VERSION} on, 1 before.
     */
    public static int credentialKeyVersion(final int version, final byte firstIdByte)
    {
        return version >= KEY_VERSION_IN_ID_VERSION ? firstIdByte & 0xFF : 1;
    }

    /**
     * Whether a session close of {@code version} keeps the orders when another session of its credential is open
     * ({@link #RECONNECT_BEFORE_CLOSE_VERSION}).
     */
    public static boolean keepsOrdersOnOpenReconnect(final int version)
    {
        return version >= RECONNECT_BEFORE_CLOSE_VERSION;
    }

    /**
     * Whether a session order command of {@code version} passes the FIX onboarding record
     * ({@link #FIX_ONBOARDING_VERSION}).
     */
    public static boolean checksFixOnboarding(final int version)
    {
        return version >= FIX_ONBOARDING_VERSION;
    }

    /** Whether a CancelAll of {@code version} reports its cancels as CANCELLED_ALL ({@link #PROTECTIONS_VERSION}). */
    public static boolean reportsCancelAll(final int version)
    {
        return version >= PROTECTIONS_VERSION;
    }

    /**
     * Whether a command template is a protection command (since version 12: sessions, dead-man timers, the explicit
     * cancel-on-disconnect, the tick and the reset), journaled by the sequencer for a lane, signed by nobody.
     */
    public static boolean isProtection(final int templateId)
    {
        return templateId >= SessionOpenedDecoder.TEMPLATE_ID && templateId <= SessionsResetDecoder.TEMPLATE_ID;
    }

    /**
     * Whether a command template is one a session lane may hand the sequencer as a SESSION_CREDENTIAL order command
     * (since version 13): PlaceOrder, Cancel, Amend, CancelByClientOrderId or CancelAll.
     */
    public static boolean isSessionOrder(final int templateId)
    {
        return templateId >= 1 && templateId <= 5;
    }

    /** Whether a command template is an owner's intent (agent create, rotate, revoke, owner-revoke). */
    public static boolean isOwnerIntent(final int templateId)
    {
        return templateId >= AgentCreateDecoder.TEMPLATE_ID &&
            templateId <= OwnerRevokeDecoder.TEMPLATE_ID;
    }

    /** True when the two ranges hold the same bytes: how a replay is compared with what was recorded. */
    public static boolean sameBytes(final DirectBuffer a, final int aOffset, final DirectBuffer b, final int bOffset,
        final int length)
    {
        int i = 0;
        for (; i + 8 <= length; i += 8)
        {
            if (a.getLong(aOffset + i) != b.getLong(bOffset + i))
            {
                return false;
            }
        }
        for (; i < length; i++)
        {
            if (a.getByte(aOffset + i) != b.getByte(bOffset + i))
            {
                return false;
            }
        }
        return true;
    }

    private RecordError check(final int length)
    {
        if (buffer == null || offset < 0 || length < 0 || (long)offset + length > buffer.capacity())
        {
            return RecordError.OUT_OF_BOUNDS;
        }
        if (length < HEADER_LENGTH)
        {
            return RecordError.TOO_SHORT_FOR_HEADER;
        }

        header.wrap(buffer, offset);
        templateId = header.templateId();
        schemaId = header.schemaId();
        version = header.version();
        blockLength = header.blockLength();

        if (schemaId != SCHEMA_ID)
        {
            return RecordError.WRONG_SCHEMA;
        }
        // version 2 grew the action envelope in place (a version 1 record does not read as one); version 3 events
        // carry the limiter fields a replay writes, so older event journals cannot be compared with a replay; version 4
        // order commands name their limit class, which a replay of older commands could not know; version 5 only
        // renamed (Lane to LimitClass), version 6 only changed what an amend does (FILLED_KEPT_ON_REENTRY_VERSION) and
        // version 7 what an unknown account's action does (UNFUNDED_REFUSED_VERSION) and added a SignerMatch value
        // (ACCOUNT_ADMIN_TEXT), version 8 only added a record (RequestsRejectedSummary), version 9 changed a meaning,
        // version 10 added a field at the end of that record (an older one is shorter:
        // RecordType.blockLength(version)), and versions 11 and 12 added records and enum values, so version 4 to 11
        // records read as version 12 ones
        if (!readsVersion(version))
        {
            return RecordError.UNSUPPORTED_VERSION;
        }
        final RecordType found = RecordType.ofTemplateId(templateId);
        if (found == null)
        {
            return RecordError.UNKNOWN_TEMPLATE;
        }
        if (blockLength < found.blockLength(version))
        {
            return RecordError.BLOCK_TOO_SHORT;
        }

        // long arithmetic: nothing below can overflow, whatever the header and counts say.
        final long end = (long)offset + length;
        long limit = (long)offset + HEADER_LENGTH + blockLength;
        if (limit > end)
        {
            return RecordError.TRUNCATED_BLOCK;
        }

        if (found.groupEntryLength() > 0)
        {
            if (limit + GroupSizeEncodingDecoder.ENCODED_LENGTH > end)
            {
                return RecordError.BAD_GROUP_HEADER;
            }
            groupHeader.wrap(buffer, (int)limit);
            final int entryLength = groupHeader.blockLength();
            if (entryLength < found.groupEntryLength())
            {
                return RecordError.BAD_GROUP_HEADER;
            }
            limit += GroupSizeEncodingDecoder.ENCODED_LENGTH + (long)entryLength * groupHeader.numInGroup();
            if (limit > end)
            {
                return RecordError.TRUNCATED_GROUP;
            }
        }

        for (int i = 0; i < found.varDataCount(); i++)
        {
            if (limit + VAR_DATA_HEADER_LENGTH > end)
            {
                return RecordError.TRUNCATED_VAR_DATA;
            }
            limit += VAR_DATA_HEADER_LENGTH + (buffer.getShort((int)limit, BYTE_ORDER) & 0xFFFF);
            if (limit > end)
            {
                return RecordError.TRUNCATED_VAR_DATA;
            }
        }

        type = found;
        encodedLength = (int)(limit - offset);
        return RecordError.NONE;
    }
}
