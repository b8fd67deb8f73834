package io.venue.entry.lane;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One section of the connectivity bundle: its name and its fields in the order they are written. A value is a
 * {@link String}, a {@link Boolean} or a {@link Long}; the node renders the bundle (this package writes no JSON).
 */
public record ConnectivityEntry(String name, Map<String, Object> fields)
{
    public ConnectivityEntry
    {
        Objects.requireNonNull(name, "name");
        final Map<String, Object> copy = new LinkedHashMap<>();
        fields.forEach((field, value) ->
        {
            if (!(value instanceof String || value instanceof Boolean || value instanceof Long))
            {
                throw new IllegalArgumentException("connectivity field " + name + "." + field + " is a " +
                    (value == null ? "null" : value.getClass().getSimpleName()) +
                    "; a String, Boolean or Long is written");
            }
            copy.put(field, value);
        });
        fields = Collections.unmodifiableMap(copy);
    }

    /** Starts a section named {@code name}. */
    public static Builder of(final String name)
    {
        return new Builder(name);
    }

    /** Fields in the order they are added. */
    public static final class Builder
    {
        private final String name;
        private final Map<String, Object> fields = new LinkedHashMap<>();

        private Builder(final String name)
        {
            this.name = name;
        }

        public Builder field(final String field, final String value)
        {
            fields.put(field, value);
            return this;
        }

        public Builder field(final String field, final long value)
        {
            fields.put(field, value);
            return this;
        }

        public Builder field(final String field, final boolean value)
        {
            fields.put(field, value);
            return this;
        }

        public ConnectivityEntry build()
        {
            return new ConnectivityEntry(name, fields);
        }
    }
}
