package io.venue.feed;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The market data and private streams, derived from the event journal alone, as lanes use them. Every request is
 * thread safe and never blocks: it is queued for the feed's thread, which answers through the subscriber (or the
 * callback) in order. A request that cannot be queued returns false and the lane answers that the feed is busy.
 * <p>
 * Channel names, frames, acks and error codes are those of docs/WEBSOCKET.md.
 */
public interface Feed
{
    /** Where a client says it stopped: the channel's epoch and the last {@code seq} it received. */
    record Cursor(String epoch, long seq)
    {
    }

    /**
     * Subscribes to public channels ({@code account == null}) or the account's private ones. Answers one ack naming,
     * per channel, {@code snapshot}, {@code resumed} or {@code resume_required}, then each channel's first frames,
     * then live frames; or one error frame (an unknown channel, a private channel without an account) and no change.
     *
     * @param account the authenticated account, {@code 0x} and 40 lowercase hex digits, or null on a public connection.
     * @param resume  cursors by channel name; channels without one start from a snapshot (or live, for a channel
     *                without state).
     */
    boolean subscribe(FeedSubscriber subscriber, String account, long requestId, List<String> channels,
        Map<String, Cursor> resume);

    /** Ends the channels' subscriptions (an ack; channels not subscribed are named in it, not an error). */
    boolean unsubscribe(FeedSubscriber subscriber, long requestId, List<String> channels);

    /**
     * Sends again one private channel's frames {@code fromSeq..toSeq} (at most {@link #MAX_RESEND_FRAMES}), rebuilt
     * from the event journal and marked {@code "resent":true}, after an ack; or an error frame.
     */
    boolean resend(FeedSubscriber subscriber, String account, long requestId, String channel, long fromSeq,
        long toSeq);

    /** Forgets a connection that closed (every subscription of it). */
    boolean remove(FeedSubscriber subscriber);

    /**
     * A public read: the JSON body of {@code GET /api/v1/public/markets/{market}/book} (with the book channel's
     * {@code seq} and {@code checksum}, so a REST snapshot and the stream splice exactly) or {@code .../trades};
     * {@code book} is {@code null} for a spot market, {@code YES} or {@code NO}. The callback gets null for an unknown
     * market or book.
     */
    boolean book(long market, String book, int depth, Consumer<String> answer);

    boolean trades(long market, String book, int limit, Consumer<String> answer);

    /** A private read of the account: {@code orders} (open orders), {@code balances} or {@code positions}. */
    boolean account(String account, String what, Consumer<String> answer);

    /**
     * Whether this feed calls {@link FeedSubscriber#onBatchEnd} after each batch of frames it hands a subscriber (so a
     * subscriber may hold its frames until then and write them together); false: every frame must be taken as if it
     * were the last for a while.
     */
    default boolean endsBatches()
    {
        return false;
    }

    int MAX_RESEND_FRAMES = 10_000;
}
