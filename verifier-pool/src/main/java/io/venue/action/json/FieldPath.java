package io.venue.action.json;

/**
 * The path of the field being parsed, kept as a stack of references so that tracking it costs no
 * allocation; it is only turned into text when a request is refused.
 */
final class FieldPath
{
    private static final int MAX_DEPTH = 16;

    private final String[] names = new String[MAX_DEPTH];
    private final int[] indexes = new int[MAX_DEPTH];
    private int depth;

    void clear()
    {
        depth = 0;
    }

    void push(final String name)
    {
        names[depth] = name;
        indexes[depth] = -1;
        depth++;
    }

    void pushIndex(final int index)
    {
        names[depth] = null;
        indexes[depth] = index;
        depth++;
    }

    void pop()
    {
        depth--;
    }

    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < depth; i++)
        {
            if (names[i] == null)
            {
                text.append('[').append(indexes[i]).append(']');
            }
            else
            {
                text.append(text.length() == 0 ? "" : ".").append(names[i]);
            }
        }
        return text.toString();
    }
}
