package io.venue.feed;

/** The codes of the feed's error answers (docs/WEBSOCKET.md, "Errors"). */
public enum FeedError
{
    /** The request lacks what it needs: no channels, a channel list or range that is not one. */
    INVALID_REQUEST,
    /** A name that is not a channel (docs/WEBSOCKET.md, "Channels"). */
    UNKNOWN_CHANNEL,
    /** A book, trades or bbo channel of a market not listed (or of a book the market does not have). */
    UNKNOWN_MARKET,
    /** A private channel on a connection without an account. */
    AUTH_REQUIRED,
    /** The account is not {@code 0x} and 40 lowercase hex digits. */
    INVALID_ACCOUNT,
    /** Private channels of a second account on the same connection. */
    ACCOUNT_MISMATCH,
    /** A resend of a public channel (public channels resume instead). */
    NOT_PRIVATE_CHANNEL,
    /** A resend range that is not {@code 1 <= fromSeq <= toSeq}. */
    INVALID_RANGE,
    /** A resend of more than {@link Feed#MAX_RESEND_FRAMES} frames. */
    RANGE_TOO_LARGE,
    /** A resend range past the channel's last frame, or older than the frames the feed can rebuild. */
    RANGE_NOT_AVAILABLE,
    /** As many resends as the feed serves at once are waiting or running: nothing was done; ask again. */
    RESEND_BUSY
}
