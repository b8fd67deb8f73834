package io.venue.journal.queue;

/**
 * When a journal's written bytes are forced to stable storage ({@code journal.force} of the appliance). Chronicle Queue
 * writes through a shared memory mapping: a written excerpt survives the process being killed (the pages are the
 * kernel's), but not the host going down before the kernel wrote them back, unless they were forced.
 */
public enum JournalForce
{
    /** Never forced by the venue: the kernel writes the pages back when it chooses (about 30 s on Linux by default). */
    NONE,
    /**
     * The command journal's sequencer forces each excerpt (the commands of one duty cycle, a group) before it tells
     * anyone they are journaled: one {@code fdatasync} per group, and requests that arrive during a force make the next
     * group.
     */
    GROUP;

    /** {@code none} or {@code group}. */
    public static JournalForce of(final String value)
    {
        return switch (value)
        {
            case "none" -> NONE;
            case "group" -> GROUP;
            default -> throw new IllegalArgumentException("none or group");
        };
    }
}
