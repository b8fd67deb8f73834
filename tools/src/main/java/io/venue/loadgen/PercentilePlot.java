package io.venue.loadgen;

import org.HdrHistogram.Histogram;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A latency-by-percentile chart (the HdrHistogram plotter's shape) as a PNG: the x axis is the percentile on a
 * "number of nines" scale (50%, 90%, 99%, 99.9%, 99.99%), the y axis the latency in milliseconds, one line per run.
 */
public final class PercentilePlot
{
    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;
    private static final int LEFT = 80;
    private static final int RIGHT = 30;
    private static final int TOP = 40;
    private static final int BOTTOM = 60;
    private static final double MAX_NINES = 4; // 99.99%
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
        new Color(0x9467bd), new Color(0xff7f0e), new Color(0x8c564b)};

    private PercentilePlot()
    {
    }

    public static void write(final List<String> labels, final List<Histogram> histograms, final String title,
        final Path file) throws IOException
    {
        final BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        double maxMs = 0.001;
        for (final Histogram h : histograms)
        {
            maxMs = Math.max(maxMs, h.getValueAtPercentile(99.99) / 1e6);
        }
        maxMs = niceCeiling(maxMs);
        final int plotW = WIDTH - LEFT - RIGHT;
        final int plotH = HEIGHT - TOP - BOTTOM;
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, LEFT, TOP - 15);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setColor(new Color(0xdddddd));
        for (int nines = 0; nines <= MAX_NINES; nines++)
        {
            final int x = LEFT + (int)(plotW * nines / MAX_NINES);
            g.drawLine(x, TOP, x, TOP + plotH);
        }
        for (int i = 0; i <= 5; i++)
        {
            final int y = TOP + plotH - plotH * i / 5;
            g.drawLine(LEFT, y, LEFT + plotW, y);
        }
        g.setColor(Color.BLACK);
        g.drawRect(LEFT, TOP, plotW, plotH);
        final String[] xLabels = {"0%", "90%", "99%", "99.9%", "99.99%"};
        for (int nines = 0; nines <= MAX_NINES; nines++)
        {
            g.drawString(xLabels[nines], LEFT + (int)(plotW * nines / MAX_NINES) - 14, TOP + plotH + 18);
        }
        for (int i = 0; i <= 5; i++)
        {
            g.drawString(String.format(Locale.ROOT, "%.2f", maxMs * i / 5), 20, TOP + plotH - plotH * i / 5 + 4);
        }
        g.drawString("percentile", LEFT + plotW / 2 - 30, HEIGHT - 15);
        g.drawString("ms", 20, TOP - 15 + 25);
        g.setStroke(new BasicStroke(2f));
        for (int k = 0; k < histograms.size(); k++)
        {
            final Histogram h = histograms.get(k);
            g.setColor(COLORS[k % COLORS.length]);
            int lastX = -1;
            int lastY = -1;
            for (int px = 0; px <= plotW; px++)
            {
                final double nines = MAX_NINES * px / plotW;
                final double percentile = 100.0 * (1 - Math.pow(10, -nines));
                final double ms = h.getValueAtPercentile(Math.min(percentile, 100.0)) / 1e6;
                final int x = LEFT + px;
                final int y = TOP + plotH - (int)Math.min(plotH, plotH * ms / maxMs);
                if (lastX >= 0)
                {
                    g.drawLine(lastX, lastY, x, y);
                }
                lastX = x;
                lastY = y;
            }
            g.fillRect(LEFT + 15, TOP + 12 + k * 18, 14, 4);
            g.drawString(labels.get(k), LEFT + 35, TOP + 18 + k * 18);
        }
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static double niceCeiling(final double value)
    {
        final double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
        for (final double step : new double[] {1, 2, 2.5, 5, 10})
        {
            if (step * magnitude >= value)
            {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }
}
