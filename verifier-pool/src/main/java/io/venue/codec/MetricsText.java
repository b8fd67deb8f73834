package io.venue.codec;

/**
 * Builds metrics in the Prometheus text exposition format (version 0.0.4): a HELP and TYPE line per family, then its
 * samples, each with at most one label. Label values here are codes and numbers, never client input, so they need
 * no escaping beyond what {@link #sample} checks.
 */
public final class MetricsText
{
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final StringBuilder text = new StringBuilder(4096);

    public MetricsText family(final String name, final String type, final String help)
    {
        text.append("# HELP ").append(name).append(' ').append(help).append('\n')
            .append("# TYPE ").append(name).append(' ').append(type).append('\n');
        return this;
    }

    public MetricsText sample(final String name, final long value)
    {
        text.append(name).append(' ').append(value).append('\n');
        return this;
    }

    public MetricsText sample(final String name, final String label, final String labelValue, final long value)
    {
        if (labelValue.indexOf('"') >= 0 || labelValue.indexOf('\\') >= 0 || labelValue.indexOf('\n') >= 0)
        {
            throw new IllegalArgumentException("a label value with a quote, backslash or line feed: " + labelValue);
        }
        text.append(name).append('{').append(label).append("=\"").append(labelValue).append("\"} ")
            .append(value).append('\n');
        return this;
    }

    @Override
    public String toString()
    {
        return text.toString();
    }
}
