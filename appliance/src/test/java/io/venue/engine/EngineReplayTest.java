package io.venue.engine;

import org.agrona.MutableDirectBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One long random stream of every command kind (rejects included) replayed into a fresh engine: the same
 * event bytes and the same state hash.
 */
class EngineReplayTest
{
    private static final int COMMANDS = 200_000;

    @Test
    void aLongRandomStreamReplaysToTheSameBytesAndState()
    {
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        new RandomStream(h, 20261122L).setUp().run(COMMANDS);
        final Engine[] replayed = new Engine[1];
        final byte[] events = EngineHarness.replay(RandomStream.config(), h.commands, h.commandsLength(), replayed);
        assertEquals(h.engine.commandCount(), replayed[0].commandCount());
        assertArrayEquals(h.log.bytes(), events);
        assertArrayEquals(h.engine.stateHash(), replayed[0].stateHash());

        // the index seed moves entries inside the hash indexes and nothing else
        final Engine[] seeded = new Engine[1];
        final byte[] seededEvents = EngineHarness.replay(RandomStream.config().indexSeed(0x5eed_5eed_5eedL), h.commands,
            h.commandsLength(), seeded);
        assertArrayEquals(events, seededEvents);
        assertArrayEquals(h.engine.stateHash(), seeded[0].stateHash());
    }

    /**
     * Every event sets every field it carries: a sink that scribbles over the engine's scratch buffer after each event
     * gets the same bytes as one that does not, so no field of an event carries over from an earlier one.
     */
    @Test
    void noEventCarriesBytesOfAnEarlierOne()
    {
        final EngineHarness h = new EngineHarness(RandomStream.config(), false);
        new RandomStream(h, 7L).setUp().run(50_000);
        final EventLog scribbled = new EventLog(false);
        final Engine engine = new Engine(RandomStream.config().operator(EngineHarness.OPERATOR),
            (buffer, offset, length) ->
        {
            scribbled.onEvent(buffer, offset, length);
            final MutableDirectBuffer scratch = (MutableDirectBuffer)buffer;
            scratch.setMemory(0, scratch.capacity(), (byte)0xA5);
        });
        int position = 0;
        while (position < h.commandsLength())
        {
            final int recordLength = h.commands.getInt(position);
            engine.onCommand(h.commands, position + 4, recordLength);
            position += 4 + recordLength;
        }
        assertArrayEquals(h.log.bytes(), scribbled.bytes());
    }
}
