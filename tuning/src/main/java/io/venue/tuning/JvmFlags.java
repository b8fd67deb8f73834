package io.venue.tuning;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * The JVM flags the appliance needs on Java 17 (Chronicle, Agrona, Aeron), read from the single
 * source {@code tuning/jvm-flags.properties} that the build copies into this jar. Child JVMs
 * started by tests and the benchmark runner take their flags from here.
 */
public final class JvmFlags
{
    private static final String RESOURCE = "/io/venue/tuning/jvm-flags.properties";
    private static final String KEY = "venue.jvm.flags";
    private static final String PRODUCTION_KEY = "venue.jvm.production.flags";
    /** Replaces the file's production flags when set (empty: none), as in the launch scripts. */
    private static final String PRODUCTION_ENV = "VENUE_JVM_PRODUCTION_FLAGS";

    private JvmFlags()
    {
    }

    public static List<String> flags()
    {
        return read(KEY);
    }

    /**
     * The flags a production run adds (Agrona's bounds checks off): the launch scripts' and the benchmarks', not the
     * tests'. {@code VENUE_JVM_PRODUCTION_FLAGS} replaces them when set.
     */
    public static List<String> productionFlags()
    {
        final String replaced = System.getenv(PRODUCTION_ENV);
        if (replaced != null)
        {
            return replaced.isBlank() ? List.of() : List.copyOf(Arrays.asList(replaced.trim().split("\\s+")));
        }
        return read(PRODUCTION_KEY);
    }

    private static List<String> read(final String key)
    {
        try (InputStream in = JvmFlags.class.getResourceAsStream(RESOURCE))
        {
            if (in == null)
            {
                throw new IllegalStateException("missing classpath resource " + RESOURCE);
            }
            final Properties properties = new Properties();
            properties.load(in);
            final String value = properties.getProperty(key);
            if (value == null || value.isBlank())
            {
                throw new IllegalStateException(RESOURCE + " has no " + key);
            }
            return List.copyOf(Arrays.asList(value.trim().split("\\s+")));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
