package io.venue.responder;

import io.venue.codec.Hex;
import io.venue.journal.sbe.ActionAcceptedDecoder;
import io.venue.journal.sbe.ActionRejectedDecoder;
import io.venue.journal.sbe.MessageHeaderDecoder;
import io.venue.codec.JsonWriter;
import org.agrona.DirectBuffer;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Each account's nonce window as the events last reported it (ActionAccepted after the nonce was consumed, or an
 * ActionRejected of the whole action), for the nonce status query of a client that lost count. Written by one
 * thread at a time (the start-up scan, then the responder), read by the HTTP threads.
 */
public final class AccountNonces
{
    private record View(long floor, long nextUsable, long sequence)
    {
    }

    private final ActionAcceptedDecoder accepted = new ActionAcceptedDecoder();
    private final ActionRejectedDecoder rejected = new ActionRejectedDecoder();
    private final byte[] account = new byte[20];
    private final ConcurrentHashMap<String, View> byAccount = new ConcurrentHashMap<>();

    void onEvent(final DirectBuffer buffer, final int offset, final MessageHeaderDecoder header)
    {
        switch (header.templateId())
        {
            case ActionAcceptedDecoder.TEMPLATE_ID ->
            {
                accepted.wrapAndApplyHeader(buffer, offset, header);
                accepted.getAccount(account, 0, 20);
                byAccount.put(Hex.to0x(account),
                    new View(accepted.nonceFloor(), accepted.nextUsableNonce(), accepted.sequence()));
            }
            case ActionRejectedDecoder.TEMPLATE_ID ->
            {
                rejected.wrapAndApplyHeader(buffer, offset, header);
                if (rejected.legIndex() == ActionRejectedDecoder.legIndexNullValue() &&
                    (rejected.nonceFloor() != 0 || rejected.nextUsableNonce() != 0))
                {
                    rejected.getAccount(account, 0, 20);
                    byAccount.put(Hex.to0x(account),
                        new View(rejected.nonceFloor(), rejected.nextUsableNonce(), rejected.sequence()));
                }
            }
            default ->
            {
                // not about a nonce window
            }
        }
    }

    /** One above the account's highest consumed nonce, 0 for an account that consumed none. */
    public long nextUsable(final String account)
    {
        final View view = byAccount.get(account);
        return view == null ? 0 : view.nextUsable();
    }

    /**
     * The body of GET /api/v1/trading/accounts/{account}/nonce. An account no event names has consumed no nonce:
     * its window starts at 0.
     */
    public String json(final String account, final int window)
    {
        final View view = byAccount.get(account);
        final JsonWriter w = new JsonWriter().field("ok", true).field("account", account)
            .unsigned("nonceFloor", view == null ? 0 : view.floor()).field("nonceWindow", window)
            .unsigned("nextUsableNonce", view == null ? 0 : view.nextUsable());
        return (view == null ? w.field("seen", false) : w.field("seen", true).field("asOfSequence", view.sequence()))
            .toJson();
    }
}
