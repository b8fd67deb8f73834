package io.venue.feed;

/** Where derived frames go: published live, or collected for a resend. */
interface FrameSink
{
    void onPublic(PublicChannel channel, FeedFrame frame, long engineSeq, long ts);

    /** @param kind the private kind's index ({@link ChannelName.Kind#privateIndex}). */
    void onPrivate(AccountState account, int kind, FeedFrame frame, long engineSeq);
}
