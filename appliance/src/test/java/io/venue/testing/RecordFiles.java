package io.venue.testing;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What the process tests hand their child JVMs: command records in a file (each after its length), and ports. */
public final class RecordFiles
{
    private RecordFiles()
    {
    }

    public static void write(final List<byte[]> records, final Path file) throws IOException
    {
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(file.toFile()))))
        {
            for (final byte[] record : records)
            {
                out.writeInt(record.length);
                out.write(record);
            }
        }
    }

    public static List<byte[]> read(final Path file) throws IOException
    {
        final List<byte[]> records = new ArrayList<>();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(file.toFile()))))
        {
            while (in.available() > 0)
            {
                final byte[] record = new byte[in.readInt()];
                in.readFully(record);
                records.add(record);
            }
        }
        return records;
    }

    /** A UDP port on loopback that was free a moment ago. */
    public static int freeUdpPort() throws IOException
    {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }
}
