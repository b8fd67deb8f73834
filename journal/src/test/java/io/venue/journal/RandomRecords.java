package io.venue.journal;

import io.venue.journal.SchemaModel.ByteArray;
import io.venue.journal.SchemaModel.CharArray;
import io.venue.journal.SchemaModel.Composite;
import io.venue.journal.SchemaModel.Data;
import io.venue.journal.SchemaModel.EnumType;
import io.venue.journal.SchemaModel.Field;
import io.venue.journal.SchemaModel.Group;
import io.venue.journal.SchemaModel.Message;
import io.venue.journal.SchemaModel.Primitive;
import io.venue.journal.SchemaModel.SetType;
import io.venue.journal.sbe.MessageHeaderEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.lang.reflect.Method;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes records of any message with random field values through the generated encoders, and reads them
 * back through the generated decoders, driven by {@link SchemaModel} (so a new message or field is covered
 * without touching the tests). Both sides produce the tree {@link RecordPrinter} should print, in the form
 * {@link Json} parses it to: "type" then the fields in schema order, integers as BigInteger, byte arrays as
 * 0x-hex, enums by name, BooleanType as Boolean, sets as lists of choice names, null for a null optional.
 */
final class RandomRecords
{
    static final String PACKAGE = "io.venue.journal.sbe.";
    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    private static final String TEXT_CHARS = "abc XYZ 019 \"\\/\n\t\r\u0000\u0001\u001f\u007f\u00e9\u20ac\u4e2d";
    private static final String EMOJI = "\ud83d\ude00";

    private static final Map<String, List<Method>> METHODS = new ConcurrentHashMap<>();

    private final Random random;
    private final int minGroupCount;
    private final int maxGroupCount;
    private int encodedLength;
    private int asOfVersion = Integer.MAX_VALUE;

    RandomRecords(final long seed, final int maxGroupCount)
    {
        this(seed, 0, maxGroupCount);
    }

    RandomRecords(final long seed, final int minGroupCount, final int maxGroupCount)
    {
        this.random = new Random(seed);
        this.minGroupCount = minGroupCount;
        this.maxGroupCount = maxGroupCount;
    }

    /**
     * Writes records as a build of {@code version} would have: a field added after it holds what a decoder gives for a
     * record of that version (zeros), so the record reads the same under either version.
     */
    RandomRecords asOf(final int version)
    {
        this.asOfVersion = version;
        return this;
    }

    /** Length of the last record {@link #encode} wrote, header included. */
    int encodedLength()
    {
        return encodedLength;
    }

    Map<String, Object> encode(final Message message, final MutableDirectBuffer buffer, final int offset)
    {
        try
        {
            final Object encoder = Class.forName(PACKAGE + message.name() + "Encoder").getConstructor().newInstance();
            call(encoder, "wrapAndApplyHeader", buffer, offset, new MessageHeaderEncoder());
            final Map<String, Object> expected = new LinkedHashMap<>();
            expected.put("type", message.name());
            for (final Field field : message.fields())
            {
                expected.put(field.name(), field.sinceVersion() > asOfVersion ?
                    encodeAbsent(encoder, field) : encodeField(encoder, field));
            }
            for (final Group group : message.groups())
            {
                final int count = minGroupCount + random.nextInt(maxGroupCount - minGroupCount + 1);
                final Object groupEncoder = call(encoder, group.name() + "Count", count);
                final List<Object> entries = new ArrayList<>();
                for (int i = 0; i < count; i++)
                {
                    call(groupEncoder, "next");
                    final Map<String, Object> entry = new LinkedHashMap<>();
                    for (final Field field : group.fields())
                    {
                        entry.put(field.name(), encodeField(groupEncoder, field));
                    }
                    entries.add(entry);
                }
                expected.put(group.name(), entries);
            }
            for (final Data data : message.data())
            {
                final String text = randomText(data.characterEncoding());
                final byte[] bytes = text.getBytes(Charset.forName(data.characterEncoding()));
                call(encoder, "put" + capitalized(data.name()), bytes, 0, bytes.length);
                expected.put(data.name(), text);
            }
            encodedLength = MessageHeaderEncoder.ENCODED_LENGTH + (int)call(encoder, "encodedLength");
            return expected;
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException(message.name(), ex);
        }
    }

    static Map<String, Object> decode(final Message message, final DirectBuffer buffer, final int offset)
    {
        return decode(message, buffer, offset, JournalRecords.SCHEMA_VERSION);
    }

    /** As {@link #decode(Message, DirectBuffer, int)}, the decoder acting as of {@code version}. */
    static Map<String, Object> decode(final Message message, final DirectBuffer buffer, final int offset,
        final int version)
    {
        try
        {
            final Class<?> type = Class.forName(PACKAGE + message.name() + "Decoder");
            final Object decoder = type.getConstructor().newInstance();
            call(decoder, "wrap", buffer, offset + MessageHeaderEncoder.ENCODED_LENGTH,
                type.getField("BLOCK_LENGTH").getInt(null), version);
            final Map<String, Object> actual = new LinkedHashMap<>();
            actual.put("type", message.name());
            for (final Field field : message.fields())
            {
                actual.put(field.name(), decodeField(decoder, field));
            }
            for (final Group group : message.groups())
            {
                final Object groupDecoder = call(decoder, group.name());
                final int count = (int)call(groupDecoder, "count");
                final List<Object> entries = new ArrayList<>();
                for (int i = 0; i < count; i++)
                {
                    call(groupDecoder, "next");
                    final Map<String, Object> entry = new LinkedHashMap<>();
                    for (final Field field : group.fields())
                    {
                        entry.put(field.name(), decodeField(groupDecoder, field));
                    }
                    entries.add(entry);
                }
                actual.put(group.name(), entries);
            }
            for (final Data data : message.data())
            {
                final int length = (int)call(decoder, data.name() + "Length");
                final byte[] bytes = new byte[length];
                call(decoder, "get" + capitalized(data.name()), bytes, 0, length);
                actual.put(data.name(), new String(bytes, Charset.forName(data.characterEncoding())));
            }
            return actual;
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException(message.name(), ex);
        }
    }

    /**
     * A field newer than {@link #asOf}'s version, as an older record reads: zeros for byte arrays; a uint64 (version
     * 14's reportKey) as the decoder reads it in an older record, its null value (the printer gives it as 0).
     */
    private Object encodeAbsent(final Object encoder, final Field field) throws ReflectiveOperationException
    {
        if (field.type() instanceof Primitive p && "uint64".equals(p.primitiveType()))
        {
            call(encoder, field.name(), 0L);
            return expectedNumber(p.primitiveType(), -1L);
        }
        if (!(field.type() instanceof ByteArray a))
        {
            throw new UnsupportedOperationException("an added field of this type: " + field.name());
        }
        final byte[] zeros = new byte[a.length()];
        call(encoder, "put" + capitalized(field.name()), zeros, 0, zeros.length);
        return hex(zeros, zeros.length);
    }

    private Object encodeField(final Object encoder, final Field field) throws ReflectiveOperationException
    {
        final String name = field.name();
        if (field.type() instanceof Primitive p)
        {
            if (p.optional() && random.nextInt(4) == 0)
            {
                call(encoder, name, p.nullValue());
                return null;
            }
            long value = randomValue(p.primitiveType());
            if (p.optional() && value == p.nullValue())
            {
                value = 0;
            }
            call(encoder, name, value);
            return expectedNumber(p.primitiveType(), value);
        }
        else if (field.type() instanceof EnumType e)
        {
            final List<String> names = new ArrayList<>(e.values().keySet());
            final String valueName = names.get(random.nextInt(names.size()));
            call(encoder, name, enumValue(e, valueName));
            return enumExpected(e, valueName);
        }
        else if (field.type() instanceof SetType s)
        {
            final Object setEncoder = call(encoder, name);
            call(setEncoder, "clear");
            final List<Object> chosen = new ArrayList<>();
            for (final String choice : s.choicesByBit())
            {
                if (choice != null)
                {
                    final boolean on = random.nextBoolean();
                    call(setEncoder, choice, on);
                    if (on)
                    {
                        chosen.add(choice);
                    }
                }
            }
            return chosen;
        }
        else if (field.type() instanceof ByteArray a)
        {
            final byte[] bytes = new byte[a.length()];
            random.nextBytes(bytes);
            if (random.nextInt(8) == 0)
            {
                bytes[0] = 0;
            }
            call(encoder, "put" + capitalized(name), bytes, 0, bytes.length);
            return hex(bytes, bytes.length);
        }
        else if (field.type() instanceof CharArray c)
        {
            final StringBuilder symbol = new StringBuilder();
            for (int i = 1 + random.nextInt(c.length()); i > 0; i--)
            {
                symbol.append(ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())));
            }
            final byte[] padded = new byte[c.length()];
            final byte[] ascii = symbol.toString().getBytes(Charset.forName("US-ASCII"));
            System.arraycopy(ascii, 0, padded, 0, ascii.length);
            call(encoder, "put" + capitalized(name), padded, 0);
            return symbol.toString();
        }
        else if (field.type() instanceof Composite c)
        {
            final Object compositeEncoder = call(encoder, name);
            final Map<String, Object> members = new LinkedHashMap<>();
            for (final Field member : c.members())
            {
                members.put(member.name(), encodeField(compositeEncoder, member));
            }
            return members;
        }
        throw new IllegalStateException("unknown type " + field.type());
    }

    private static Object decodeField(final Object decoder, final Field field) throws ReflectiveOperationException
    {
        final String name = field.name();
        if (field.type() instanceof Primitive p)
        {
            final long value = ((Number)call(decoder, name)).longValue();
            return p.optional() && value == p.nullValue() ? null : expectedNumber(p.primitiveType(), value);
        }
        else if (field.type() instanceof EnumType e)
        {
            final long raw = ((Number)call(decoder, name + "Raw")).longValue();
            final String valueName = e.values().entrySet().stream()
                .filter(entry -> entry.getValue() == raw).map(Map.Entry::getKey).findFirst().orElseThrow();
            return enumExpected(e, valueName);
        }
        else if (field.type() instanceof SetType s)
        {
            final int raw = ((Number)call(call(decoder, name), "getRaw")).intValue();
            final List<Object> chosen = new ArrayList<>();
            for (int bit = 0; bit < s.choicesByBit().size(); bit++)
            {
                if ((raw & (1 << bit)) != 0)
                {
                    chosen.add(s.choicesByBit().get(bit));
                }
            }
            return chosen;
        }
        else if (field.type() instanceof ByteArray a)
        {
            final byte[] bytes = new byte[a.length()];
            call(decoder, "get" + capitalized(name), bytes, 0, bytes.length);
            return hex(bytes, bytes.length);
        }
        else if (field.type() instanceof CharArray c)
        {
            final byte[] bytes = new byte[c.length()];
            call(decoder, "get" + capitalized(name), bytes, 0);
            int end = 0;
            while (end < bytes.length && bytes[end] != 0)
            {
                end++;
            }
            return new String(bytes, 0, end, Charset.forName("US-ASCII"));
        }
        else if (field.type() instanceof Composite c)
        {
            final Object compositeDecoder = call(decoder, name);
            final Map<String, Object> members = new LinkedHashMap<>();
            for (final Field member : c.members())
            {
                members.put(member.name(), decodeField(compositeDecoder, member));
            }
            return members;
        }
        throw new IllegalStateException("unknown type " + field.type());
    }

    private long randomValue(final String primitiveType)
    {
        final int pick = random.nextInt(8);
        return switch (primitiveType)
        {
            case "uint64", "int64" -> pick == 0 ? 0 : pick == 1 ? -1L : pick == 2 ? Long.MAX_VALUE : random.nextLong();
            case "uint32" -> pick == 0 ? 0 : pick == 1 ? 0xFFFF_FFFFL : random.nextLong() & 0xFFFF_FFFFL;
            case "uint16" -> pick == 0 ? 0 : pick == 1 ? 0xFFFF : random.nextInt(0x1_0000);
            case "uint8" -> pick == 0 ? 0 : pick == 1 ? 0xFF : random.nextInt(0x100);
            default -> throw new IllegalArgumentException("no random " + primitiveType);
        };
    }

    private static BigInteger expectedNumber(final String primitiveType, final long value)
    {
        return primitiveType.startsWith("u") ?
            new BigInteger(Long.toUnsignedString(value)) : BigInteger.valueOf(value);
    }

    private static Object enumValue(final EnumType type, final String valueName) throws ReflectiveOperationException
    {
        final Class<?> enumClass = Class.forName(PACKAGE + type.name());
        for (final Object constant : enumClass.getEnumConstants())
        {
            if (((Enum<?>)constant).name().equals(valueName))
            {
                return constant;
            }
        }
        throw new IllegalStateException(valueName);
    }

    private static Object enumExpected(final EnumType type, final String valueName)
    {
        return type.name().equals("BooleanType") ? Boolean.valueOf(valueName.equals("TRUE")) : valueName;
    }

    private String randomText(final String characterEncoding)
    {
        final StringBuilder text = new StringBuilder();
        final boolean ascii = characterEncoding.equals("US-ASCII");
        for (int i = random.nextInt(4) == 0 ? 0 : random.nextInt(300); i > 0; i--)
        {
            if (ascii)
            {
                text.append((char)(0x20 + random.nextInt(0x5F)));
            }
            else if (random.nextInt(20) == 0)
            {
                text.append(EMOJI);
            }
            else
            {
                text.append(TEXT_CHARS.charAt(random.nextInt(TEXT_CHARS.length())));
            }
        }
        return text.toString();
    }

    static String hex(final byte[] bytes, final int length)
    {
        final StringBuilder out = new StringBuilder("0x");
        for (int i = 0; i < length; i++)
        {
            out.append(Character.forDigit((bytes[i] >> 4) & 0xF, 16)).append(Character.forDigit(bytes[i] & 0xF, 16));
        }
        return out.toString();
    }

    static String capitalized(final String name)
    {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    /** Calls the public method of this name whose parameters accept the arguments (primitives converted). */
    static Object call(final Object target, final String name, final Object... args) throws ReflectiveOperationException
    {
        final List<Method> candidates = METHODS.computeIfAbsent(
            target.getClass().getName() + '#' + name + '/' + args.length,
            key -> Arrays.stream(target.getClass().getMethods())
                .filter(m -> m.getName().equals(name) && m.getParameterCount() == args.length)
                .toList());
        for (final Method method : candidates)
        {
            final Class<?>[] parameters = method.getParameterTypes();
            final Object[] converted = new Object[args.length];
            boolean fits = true;
            for (int i = 0; i < args.length && fits; i++)
            {
                converted[i] = convert(args[i], parameters[i]);
                fits = converted[i] != null || args[i] == null;
            }
            if (fits)
            {
                return method.invoke(target, converted);
            }
        }
        throw new NoSuchMethodException(
            target.getClass().getSimpleName() + "." + name + " for " + args.length + " args");
    }

    private static Object convert(final Object arg, final Class<?> parameter)
    {
        if (parameter.isPrimitive())
        {
            if (parameter == boolean.class)
            {
                return arg instanceof Boolean ? arg : null;
            }
            if (!(arg instanceof Number number))
            {
                return null;
            }
            if (parameter == long.class)
            {
                return number.longValue();
            }
            if (parameter == int.class)
            {
                return number.intValue();
            }
            if (parameter == short.class)
            {
                return number.shortValue();
            }
            if (parameter == byte.class)
            {
                return number.byteValue();
            }
            return null;
        }
        return parameter.isInstance(arg) ? arg : null;
    }
}
