package io.venue.responder;

import io.venue.journal.sbe.ActionAcceptedDecoder;
import io.venue.journal.sbe.ActionRejectedDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.codec.JsonWriter;
import org.agrona.DirectBuffer;

import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each account's nonce window as the events last reported it (ActionAccepted after the nonce was consumed, or an
 * ActionRejected of the whole action), for the nonce status query of a client that lost count. Written by one
 * thread at a time (the start-up scan, then the responder), read by the HTTP threads.
 * <p>
 * Keyed by the account's 20 bytes and probed with one reused key; an account's window is updated in place under a
 * sequence lock, so an event of an account already known allocates nothing (the responder writes one per signed
 * action) and a reader never sees a floor from one event beside a sequence from another.
 */
public final class AccountNonces
{
    /** One account's window: written by the one writer thread, read by any under {@link #version} (odd: mid-write). */
    private static final class Window
    {
        private volatile long version;
        private long floor;
        private long nextUsable;
        private long sequence;

        void set(final long floor, final long nextUsable, final long sequence)
        {
            final long odd = version + 1;
            version = odd;
            // the fields' writes stay after the odd version, as the reader's loads stay before its second look
            VarHandle.storeStoreFence();
            this.floor = floor;
            this.nextUsable = nextUsable;
            this.sequence = sequence;
            version = odd + 1;
        }
    }

    private final ActionAcceptedDecoder accepted = new ActionAcceptedDecoder();
    private final ActionRejectedDecoder rejected = new ActionRejectedDecoder();
    private final byte[] account = new byte[BytesKey.ACCOUNT];
    private final BytesKey probe = new BytesKey(BytesKey.ACCOUNT);
    private final ConcurrentHashMap<BytesKey, Window> byAccount = new ConcurrentHashMap<>();

    void onEvent(final DirectBuffer buffer, final int offset, final MessageHeaderDecoder header)
    {
        switch (header.templateId())
        {
            case ActionAcceptedDecoder.TEMPLATE_ID ->
            {
                accepted.wrapAndApplyHeader(buffer, offset, header);
                accepted.getAccount(account, 0, BytesKey.ACCOUNT);
                window(accepted.nonceFloor(), accepted.nextUsableNonce(), accepted.sequence());
            }
            case ActionRejectedDecoder.TEMPLATE_ID ->
            {
                rejected.wrapAndApplyHeader(buffer, offset, header);
                if (rejected.legIndex() == ActionRejectedDecoder.legIndexNullValue() &&
                    (rejected.nonceFloor() != 0 || rejected.nextUsableNonce() != 0))
                {
                    rejected.getAccount(account, 0, BytesKey.ACCOUNT);
                    window(rejected.nonceFloor(), rejected.nextUsableNonce(), rejected.sequence());
                }
            }
            default ->
            {
                // not about a nonce window
            }
        }
    }

    /**
     * Sets the window of the account in {@link #account}: in place, or a new one (and a copy of its key) the first
     * time, filled before a reader can find it.
     */
    private void window(final long floor, final long nextUsable, final long sequence)
    {
        Window window = byAccount.get(probe.set(account));
        if (window == null)
        {
            window = new Window();
            window.set(floor, nextUsable, sequence);
            byAccount.put(probe.copy(), window);
            return;
        }
        window.set(floor, nextUsable, sequence);
    }

    /**
     * The account's window as {floor, nextUsable, sequence}, read consistently, or null for an account no event names
     * (or text that is not an account).
     */
    private long[] read(final String account)
    {
        final BytesKey key = BytesKey.parse(account, BytesKey.ACCOUNT);
        final Window window = key == null ? null : byAccount.get(key);
        if (window == null)
        {
            return null;
        }
        while (true)
        {
            final long before = window.version;
            final long floor = window.floor;
            final long nextUsable = window.nextUsable;
            final long sequence = window.sequence;
            VarHandle.loadLoadFence();
            if ((before & 1) == 0 && window.version == before)
            {
                return new long[]{floor, nextUsable, sequence};
            }
            Thread.onSpinWait();
        }
    }

    /** One above the account's highest consumed nonce, 0 for an account that consumed none. */
    public long nextUsable(final String account)
    {
        final long[] window = read(account);
        return window == null ? 0 : window[1];
    }

    /**
     * The body of GET /api/v1/trading/accounts/{account}/nonce. An account no event names has consumed no nonce:
     * its window starts at 0.
     */
    public String json(final String account, final int window)
    {
        final long[] view = read(account);
        final JsonWriter w = new JsonWriter().field("ok", true).field("account", account)
            .unsigned("nonceFloor", view == null ? 0 : view[0]).field("nonceWindow", window)
            .unsigned("nextUsableNonce", view == null ? 0 : view[1]);
        return (view == null ? w.field("seen", false) : w.field("seen", true).field("asOfSequence", view[2]))
            .toJson();
    }
}
