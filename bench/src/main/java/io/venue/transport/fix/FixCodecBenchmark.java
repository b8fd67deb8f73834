package io.venue.transport.fix;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The FIX lane's codec per message (docs/FIX.md): {@link #parse} indexes a NewOrderSingle-sized message (the fields a
 * client's order carries, 20 of them) and reads its MsgSeqNum, SendingTime and a price as the session does;
 * {@link #write} writes an ExecutionReport-sized message (the header and 16 body fields) into the lane's reused
 * buffer. In this package (the bench module's copy of it) because the codec's classes are the lane's own.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FixCodecBenchmark
{
    private final FixMessage message = new FixMessage();
    private final FixWriter writer = new FixWriter(16 * 1024);
    private UnsafeBuffer order;
    private int orderLength;
    private long seq;

    @Setup
    public void setUp()
    {
        final FixWriter w = new FixWriter(16 * 1024);
        w.begin("D", "spk_0123456789abcdef", null, "VENUE", 12_345, 1_764_000_000_000L)
            .string(FixTags.TARGET_SUB_ID, "order_entry").string(11, "clordid-000012345")
            .string(1, "0x7e5f4552091a69125d5dfcb7b8c2659029395bdf").string(55, "1").character(54, '1')
            .timestamp(60, 1_764_000_000_000L).string(38, "10.5").character(40, '2').string(44, "50000.25")
            .character(59, '1').character(18, '6').number(2964, 1);
        final byte[] bytes = w.finish().toBytes();
        order = new UnsafeBuffer(bytes);
        orderLength = bytes.length;
    }

    @Benchmark
    public long parse()
    {
        message.parse(order, 0, orderLength);
        return message.longValue(FixTags.MSG_SEQ_NUM) + FixTime.parse(message, FixTags.SENDING_TIME) +
            message.msgTypeByte() + message.index(44);
    }

    @Benchmark
    public int write()
    {
        writer.begin("8", "VENUE", "order_entry", "spk_0123456789abcdef", ++seq, 1_764_000_000_000L)
            .string(37, "0x5e3b34231be54c5b3f999cd1fa798ae0").string(11, "clordid-000012345").number(17, seq)
            .character(150, 'F').character(39, '1').string(55, "1").character(54, '1').string(38, "10.5")
            .string(44, "50000.25").string(32, "2.5").string(31, "50000.25").string(14, "2.5").string(151, "8")
            .string(6, "50000.25").timestamp(60, 1_764_000_000_000L).string(1, "0x7e5f4552");
        return writer.finish().messageLength();
    }
}
