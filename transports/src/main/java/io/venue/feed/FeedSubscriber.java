package io.venue.feed;

/**
 * One client connection as the feed sees it. Every call comes on the feed's own thread, in order (the answer to a
 * request before the frames it announces, and each channel's frames in {@code seq} order with none missing), except a
 * private resend's frames: they come, after the resend's ack and in order, from the feed's resends thread, and may
 * fall between live frames. An implementation must therefore take calls from two threads, and must not block (it
 * queues the bytes for its connection and returns).
 */
public interface FeedSubscriber
{
    /** A data frame, a {@code gap_fill} or a {@code resume_required} notice of one of its channels. */
    void onFrame(FeedFrame frame);

    /** The answer to one of its requests: an {@code ack} or an {@code error} frame's whole JSON text. */
    void onAnswer(byte[] json);

    /**
     * The frames handed over since the last call are a batch: the feed's thread calls it at the end of each of its
     * duty cycles (every command read and every request answered then) for each subscriber it gave a frame (it may
     * tell one subscriber more than once: the later calls find nothing new), and a resend's thread after each frame
     * it resends; only when {@link Feed#endsBatches} says so. A subscriber may hold its frames until then and write
     * them together, one write for the whole batch.
     */
    default void onBatchEnd()
    {
    }
}
