package io.venue.engine;

import io.venue.engine.state.EngineState;
import io.venue.engine.state.StateUnusableException;

/**
 * An {@link Engine} together with the Chronicle Map state folder it writes through to: opens the folder,
 * rebuilds the engine from it, and closes both. The journal's recovery uses it as
 * <pre>
 *   try (PersistedEngine persisted = PersistedEngine.open(config, sink, context))
 *   {
 *       replay commands from persisted.engine().lastSequence() + 1 ...
 *   }
 *   catch (StateUnusableException ex)   // ex.status() names what was found
 *   {
 *       EngineState.openEmpty(context), then replay from the start
 *   }
 * </pre>
 */
public final class PersistedEngine implements AutoCloseable
{
    private final Engine engine;
    private final EngineState state;

    private PersistedEngine(final Engine engine, final EngineState state)
    {
        this.engine = engine;
        this.state = state;
    }

    /**
     * Opens the state folder of {@code context} and an engine on it: fresh when the folder is empty, rebuilt
     * when it is consistent.
     *
     * @throws StateUnusableException naming the {@link io.venue.engine.state.StateStatus} when the folder must
     *                                not be used (missing or damaged files, a command cut short, another format
     *                                or capacity, in use) or its entries contradict each other. Nothing is
     *                                changed on disk and nothing is left open.
     */
    public static PersistedEngine open(final EngineConfig config, final EventSink sink,
        final EngineState.Context context) throws StateUnusableException
    {
        final EngineState state = EngineState.open(context);
        try
        {
            return new PersistedEngine(Engine.open(config, sink, state), state);
        }
        catch (final StateUnusableException | RuntimeException ex)
        {
            state.close();
            throw ex;
        }
    }

    public Engine engine()
    {
        return engine;
    }

    public EngineState state()
    {
        return state;
    }

    /**
     * Writes what is pending, then closes the state cleanly (flushes the files, marks the meta closed) and stops the
     * engine's shard threads, if any; call between commands.
     */
    @Override
    public void close()
    {
        try
        {
            engine.flushState();
        }
        finally
        {
            engine.close();
            state.close();
        }
    }
}
