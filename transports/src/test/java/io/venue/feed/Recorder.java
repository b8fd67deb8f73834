package io.venue.feed;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A subscriber that keeps everything it is sent, in order: answers and frames as text. Its calls come from the feed's
 * thread and its resends' (one at a time, as {@link FeedHarness#pump} waits for a resend to end): they are
 * synchronized, so the test's thread sees what either added.
 */
class Recorder implements FeedSubscriber
{
    final List<String> all = new ArrayList<>();
    final List<FeedFrame> frames = new ArrayList<>();
    final List<String> answers = new ArrayList<>();

    @Override
    public synchronized void onFrame(final FeedFrame frame)
    {
        frames.add(frame);
        all.add(text(frame.json()));
    }

    @Override
    public synchronized void onAnswer(final byte[] json)
    {
        answers.add(text(json));
        all.add(text(json));
    }

    static String text(final byte[] json)
    {
        return new String(json, StandardCharsets.UTF_8);
    }

    /** The texts of the data frames (with a seq) of one channel, in order. */
    synchronized List<String> dataFrames(final String channel)
    {
        final List<String> out = new ArrayList<>();
        for (final FeedFrame frame : frames)
        {
            if (frame.channel().equals(channel) && frame.seq() > 0)
            {
                final Map<String, Object> json = TestJson.object(text(frame.json()));
                if (!"snapshot".equals(json.get("type")))
                {
                    out.add(text(frame.json()));
                }
            }
        }
        return out;
    }

    synchronized Map<String, Object> lastAnswer()
    {
        return TestJson.object(answers.get(answers.size() - 1));
    }

    synchronized void clear()
    {
        all.clear();
        frames.clear();
        answers.clear();
    }
}
