package io.venue.feed;

/** Where derived frames go: published live, or collected for a resend. */
interface FrameSink
{
    void onPublic(PublicChannel channel, FeedFrame frame, long engineSeq, long ts);

    /** @param kind the private kind's index ({@link ChannelName.Kind#privateIndex}). */
    void onPrivate(AccountState account, int kind, FeedFrame frame, long engineSeq);

    /**
     * A private frame numbered but not written out (nobody subscribes to the account): only where it is in the journal
     * is kept, for a resend to derive it again. A sink that keeps no index has nothing to do.
     */
    default void onPrivateNumbered(final AccountState account, final int kind, final long seq, final long engineSeq)
    {
    }
}
