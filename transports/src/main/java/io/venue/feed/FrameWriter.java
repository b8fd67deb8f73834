package io.venue.feed;

/**
 * Writes frames into one reusable builder: the common head ({@code ch}, {@code type}, {@code epoch}, {@code seq},
 * {@code engineSeq}, {@code ts}), the caller's fields, then {@link #finish} copies out the frame's only array.
 */
final class FrameWriter
{
    static final String SNAPSHOT = "snapshot";
    static final String DELTA = "delta";
    static final String EVENT = "event";

    private final JsonBytes out = new JsonBytes(4096);
    private String epoch = "";

    void epoch(final String epoch)
    {
        this.epoch = epoch;
    }

    String epoch()
    {
        return epoch;
    }

    /** Starts a data frame; the caller adds its fields with {@link JsonBytes#key}. */
    JsonBytes begin(final String channel, final String type, final long seq, final long engineSeq, final long ts,
        final boolean resent)
    {
        out.reset().ch('{');
        out.key("ch").quoted(channel);
        out.key("type").ch('"').ascii(type).ch('"');
        out.key("epoch").quoted(epoch);
        out.key("seq").num(seq);
        out.key("engineSeq").num(engineSeq);
        out.key("ts").num(ts);
        if (resent)
        {
            out.key("resent").ascii("true");
        }
        return out;
    }

    /** Starts a notice or an answer: {@code {"type":"…"}}. */
    JsonBytes notice(final String type)
    {
        out.reset().ch('{');
        out.key("type").ch('"').ascii(type).ch('"');
        return out;
    }

    byte[] finish()
    {
        return out.ch('}').toByteArray();
    }
}
