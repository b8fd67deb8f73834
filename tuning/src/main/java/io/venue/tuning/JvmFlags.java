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

    private JvmFlags()
    {
    }

    public static List<String> flags()
    {
        try (InputStream in = JvmFlags.class.getResourceAsStream(RESOURCE))
        {
            if (in == null)
            {
                throw new IllegalStateException("missing classpath resource " + RESOURCE);
            }
            final Properties properties = new Properties();
            properties.load(in);
            final String value = properties.getProperty(KEY);
            if (value == null || value.isBlank())
            {
                throw new IllegalStateException(RESOURCE + " has no " + KEY);
            }
            return List.copyOf(Arrays.asList(value.trim().split("\\s+")));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
