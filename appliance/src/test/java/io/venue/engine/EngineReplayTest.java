package io.venue.engine;

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
}
