package io.venue.engine.state;

/**
 * What {@link EngineState#check} found in a state folder. Only {@link #EMPTY} and {@link #CONSISTENT} may be
 * opened; every other status means the engine discards the state and rebuilds it by replaying the command
 * journal from the start.
 */
public enum StateStatus
{
    /** No state files at all: a new venue, or a folder that was wiped. Opens as a fresh state. */
    EMPTY(true),
    /** Meta and every map agree: open and replay the journal from {@code appliedSequence + 1}. */
    CONSISTENT(true),
    /** Map files exist but the meta file does not: nothing says which command they reflect. */
    META_MISSING(false),
    /** The meta file has the wrong length or magic. */
    META_CORRUPT(false),
    /** The state was written by another format version or with other record sizes. */
    FORMAT_MISMATCH(false),
    /** The context asks for a different capacity than the files were made with; a rebuild resizes them. */
    CAPACITY_CHANGED(false),
    /** The meta exists but a map file is missing or empty (Chronicle would silently make a new empty map). */
    MAP_FILE_MISSING(false),
    /** A map file is shorter or otherwise different from what the meta recorded, or Chronicle refused it. */
    MAP_FILE_CORRUPT(false),
    /** The process stopped in the middle of applying a command: the maps hold part of its effects. */
    APPLY_INCOMPLETE(false),
    /** The state was not closed and the host has restarted since, so mapped pages may never have reached disk. */
    UNCLEAN_AFTER_RESTART(false),
    /** Another process holds the state folder's lock. */
    IN_USE(false);

    private final boolean usable;

    StateStatus(final boolean usable)
    {
        this.usable = usable;
    }

    public boolean isUsable()
    {
        return usable;
    }
}
