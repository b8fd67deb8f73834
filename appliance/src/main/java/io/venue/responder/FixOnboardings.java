package io.venue.responder;

import io.venue.codec.Hex;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.FixOnboardingChangedDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.entry.credential.FixOnboarding;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every credential's FIX onboarding record as the event journal tells it (FixOnboardingChanged, journal version 16),
 * for the FIX lane's Logon and the operator's read route. The event is the engine's decision, so a record is here
 * exactly when the engine applied it. Bounded by the engine's table (one entry per credential it holds a record for,
 * {@code fix.onboarding.capacity}). Written by one thread at a time (the start-up scan, then the responder), read by
 * the I/O threads.
 */
public final class FixOnboardings
{
    private final FixOnboardingChangedDecoder changed = new FixOnboardingChangedDecoder();
    private final Map<String, FixOnboarding> records = new ConcurrentHashMap<>();
    private final byte[] account = new byte[20];

    /** The credential's record, or null. */
    public FixOnboarding find(final String apiKeyId)
    {
        return apiKeyId == null ? null : records.get(apiKeyId);
    }

    public int size()
    {
        return records.size();
    }

    /** Applies a FixOnboardingChanged event; others are ignored. {@code header} is wrapped at {@code offset}. */
    void onEvent(final DirectBuffer buffer, final int offset, final MessageHeaderDecoder header)
    {
        if (header.templateId() != FixOnboardingChangedDecoder.TEMPLATE_ID)
        {
            return;
        }
        changed.wrapAndApplyHeader(buffer, offset, header);
        final long credential = buffer.getLong(changed.offset() +
            FixOnboardingChangedDecoder.credentialIdEncodingOffset(), ByteOrder.BIG_ENDIAN);
        final String id = String.format("spk_%016x", credential);
        changed.getAccount(account, 0, 20);
        List<Long> markets = null;
        if (changed.allMarkets() != BooleanType.TRUE)
        {
            markets = new ArrayList<>();
            final int at = changed.offset() + FixOnboardingChangedDecoder.marketsEncodingOffset();
            for (int i = 0; i < Math.min(changed.marketCount(), FixOnboardingChangedDecoder.marketsLength() / 4); i++)
            {
                markets.add(buffer.getInt(at + 4 * i, ByteOrder.LITTLE_ENDIAN) & 0xFFFF_FFFFL);
            }
        }
        records.put(id, new FixOnboarding(id, Hex.to0x(account), changed.fixEnabled() == BooleanType.TRUE,
            changed.dropCopy() == BooleanType.TRUE, markets, changed.rateTierRaw(),
            changed.cancelOnDisconnect() == BooleanType.TRUE, changed.codGraceMs(), changed.sequence()));
    }
}
