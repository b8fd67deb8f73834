package io.venue.action.json;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.BatchLeg;
import io.venue.action.ClientOrderId;
import io.venue.action.Fields;
import io.venue.action.OrderId;
import io.venue.action.SetFixOnboarding;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.WireEnum;
import io.venue.codec.Hex;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A strict parser for the SignedAction request body (spec 2.3). Keys may come in any order (the server
 * re-encodes canonically before hashing) but every unknown, missing, duplicated or mistyped field,
 * uppercase or wrong-length hex, number outside its range, malformed signature array and unknown scheme
 * is refused with a {@link ParseErrorCode} and the field's path. It never throws: every outcome is a
 * {@link ParseResult}.
 * <p>
 * One instance per thread; it keeps no state between calls.
 */
public final class SignedActionParser
{
    /** A Batch of 1,000 legs is about 260 KiB; anything above 1 MiB is refused unread. */
    public static final int DEFAULT_MAX_BODY_BYTES = 1 << 20;

    private static final long U64_MAX_DIV_10 = Long.divideUnsigned(-1L, 10);
    private static final int U64_MAX_LAST_DIGIT = (int)Long.remainderUnsigned(-1L, 10);
    private static final String HEX_16 = "0x followed by 32 lowercase hex digits";
    private static final String HEX_20 = "0x followed by 40 lowercase hex digits";
    private static final String HEX_32 = "0x followed by 64 lowercase hex digits";
    private static final byte[] SCHEME = SignedAction.SCHEME.getBytes(StandardCharsets.US_ASCII);

    private final int maxBodyBytes;
    private final FieldPath path = new FieldPath();
    private byte[] in;
    private int start;
    private int pos;
    private int end;
    private int stringStart;
    private int stringLength;

    public SignedActionParser()
    {
        this(DEFAULT_MAX_BODY_BYTES);
    }

    public SignedActionParser(final int maxBodyBytes)
    {
        this.maxBodyBytes = maxBodyBytes;
    }

    public ParseResult parse(final byte[] body)
    {
        return parse(body, 0, body.length);
    }

    public ParseResult parse(final byte[] body, final int offset, final int length)
    {
        return parse(body, offset, length, ActionShapes.SIGNED_ACTION);
    }

    /** Parses a bare ActionPayload object (for tools that sign a payload written by hand). */
    public ParseResult parsePayload(final byte[] json)
    {
        return parsePayload(json, 0, json.length);
    }

    /** Parses a bare ActionPayload object in {@code json[offset, offset + length)}. */
    public ParseResult parsePayload(final byte[] json, final int offset, final int length)
    {
        return parse(json, offset, length, ActionShapes.PAYLOAD);
    }

    private ParseResult parse(final byte[] body, final int offset, final int length, final ObjectShape shape)
    {
        if (length <= 0 || length > maxBodyBytes)
        {
            return ParseResult.error(ParseErrorCode.INVALID_BODY_SIZE, "",
                "body must be 1 to " + maxBodyBytes + " bytes, got " + length);
        }
        in = body;
        start = offset;
        pos = offset;
        end = offset + length;
        path.clear();
        try
        {
            skipWhitespace();
            final Object value = readObject(shape);
            skipWhitespace();
            if (pos != end)
            {
                throw reject(ParseErrorCode.TRAILING_DATA,
                    "unexpected data after the closing brace at byte " + (pos - start));
            }
            return value instanceof SignedAction signedAction ?
                ParseResult.ok(signedAction) : ParseResult.ok((ActionPayload)value);
        }
        catch (final Reject reject)
        {
            return ParseResult.error(reject.code, reject.field, reject.getMessage());
        }
        finally
        {
            in = null;
        }
    }

    private Object readObject(final ObjectShape shape)
    {
        expectValueStart('{', "an object");
        pos++;
        final FieldValues values = new FieldValues(shape.fields.length);
        skipWhitespace();
        if (peek() == '}')
        {
            pos++;
        }
        else
        {
            while (true)
            {
                readKey();
                final int index = shape.indexOf(in, stringStart, stringLength);
                if (index < 0)
                {
                    path.push(new String(in, stringStart, stringLength, StandardCharsets.ISO_8859_1));
                    throw reject(ParseErrorCode.UNKNOWN_FIELD,
                        "unknown field; " + shape.name + " has: " + shape.fieldNames());
                }
                final FieldShape field = shape.fields[index];
                path.push(field.key().name());
                if ((values.presentMask & (1L << index)) != 0)
                {
                    throw reject(ParseErrorCode.DUPLICATE_FIELD, "field appears more than once");
                }
                values.presentMask |= 1L << index;
                skipWhitespace();
                expectByte(':');
                skipWhitespace();
                readValue(field, values, index);
                path.pop();
                skipWhitespace();
                final int c = next();
                if (c == '}')
                {
                    break;
                }
                if (c != ',')
                {
                    pos--;
                    throw malformed("expected ',' or '}'");
                }
                skipWhitespace();
            }
        }
        final long missing = shape.requiredMask & ~values.presentMask;
        if (missing != 0)
        {
            path.push(shape.fields[Long.numberOfTrailingZeros(missing)].key().name());
            throw reject(ParseErrorCode.MISSING_FIELD, "required field is missing");
        }
        try
        {
            return shape.factory.apply(values);
        }
        catch (final IllegalArgumentException ex)
        {
            throw reject(ParseErrorCode.INVALID_VALUE, ex.getMessage());
        }
    }

    private void readValue(final FieldShape field, final FieldValues values, final int index)
    {
        final long[] numbers = values.numbers;
        final Object[] refs = values.refs;
        switch (field.kind())
        {
            case U64 -> numbers[index] = readUnsigned("an unsigned 64-bit integer");
            case U32 -> numbers[index] = readU32();
            case U32_OR_NULL -> numbers[index] = readNullIf() ? -1 : readU32();
            case MILLIS -> numbers[index] = readMillis();
            case MILLIS_OR_NULL -> numbers[index] = readNullIf() ? -1 : readMillis();
            case BOOL -> numbers[index] = readBool() ? 1 : 0;
            case NULL_ONLY ->
            {
                if (!readNullIf())
                {
                    throw reject(ParseErrorCode.INVALID_VALUE, "must be null");
                }
            }
            case ADDRESS -> refs[index] = new Address(readHex(Address.LENGTH));
            case ADDRESS_OR_NULL -> refs[index] = readNullIf() ? null : new Address(readHex(Address.LENGTH));
            case ORDER_ID_HEX -> refs[index] = new OrderId(readHex(OrderId.LENGTH));
            case CLIENT_ORDER_ID_HEX -> refs[index] = new ClientOrderId(readHex(ClientOrderId.LENGTH));
            case CREDENTIAL_ID_TEXT -> refs[index] = readCredentialId();
            case U32_LIST_OR_NULL -> refs[index] = readNullIf() ? null : readU32List();
            case SYMBOL_TEXT -> refs[index] = readSymbol();
            case ENUM -> refs[index] = readEnum(field.enumValues());
            case ENUM_OR_NULL -> refs[index] = readNullIf() ? null : readEnum(field.enumValues());
            case TAGGED_ACTION -> refs[index] = readAction(false);
            case BATCH_LEGS -> refs[index] = readLegs();
            case OBJECT -> refs[index] = readObject(field.nested());
            case SIGNATURE_SCHEME -> readScheme();
            case SIGNATURE_BYTES -> refs[index] = readSignatureBytes();
            default -> throw new IllegalStateException("unhandled kind " + field.kind());
        }
    }

    private Object readAction(final boolean batchLeg)
    {
        expectValueStart('{', "an object with one action variant");
        pos++;
        skipWhitespace();
        if (peek() == '}')
        {
            throw reject(ParseErrorCode.MISSING_FIELD, "the action object must name one variant");
        }
        readKey();
        ActionShapes.Variant variant = null;
        for (final ActionShapes.Variant candidate : ActionShapes.VARIANTS)
        {
            if (candidate.tag().matches(in, stringStart, stringLength))
            {
                variant = candidate;
                break;
            }
        }
        if (variant == null)
        {
            path.push(new String(in, stringStart, stringLength, StandardCharsets.ISO_8859_1));
            throw reject(ParseErrorCode.UNKNOWN_ACTION, "unknown action variant");
        }
        if (batchLeg && !variant.batchLeg())
        {
            path.push(variant.tag().name());
            throw reject(ParseErrorCode.UNKNOWN_ACTION,
                "a Batch leg must be SpotPlaceOrder, Cancel, Amend or CancelByClientOrderId");
        }
        path.push(variant.tag().name());
        skipWhitespace();
        expectByte(':');
        skipWhitespace();
        final Object action = readObject(variant.shape());
        path.pop();
        skipWhitespace();
        final int c = next();
        if (c == ',')
        {
            throw reject(ParseErrorCode.INVALID_VALUE, "the action object must hold exactly one variant");
        }
        if (c != '}')
        {
            pos--;
            throw malformed("expected '}'");
        }
        return action;
    }

    private List<BatchLeg> readLegs()
    {
        expectValueStart('[', "an array of actions");
        pos++;
        final List<BatchLeg> legs = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']')
        {
            pos++;
            throw reject(ParseErrorCode.INVALID_VALUE, "a Batch needs at least one leg");
        }
        while (true)
        {
            if (legs.size() == Fields.MAX_BATCH_LEGS)
            {
                throw reject(ParseErrorCode.INVALID_VALUE, "a Batch holds at most " + Fields.MAX_BATCH_LEGS + " legs");
            }
            path.pushIndex(legs.size());
            legs.add((BatchLeg)readAction(true));
            path.pop();
            skipWhitespace();
            final int c = next();
            if (c == ']')
            {
                return legs;
            }
            if (c != ',')
            {
                pos--;
                throw malformed("expected ',' or ']'");
            }
            skipWhitespace();
        }
    }

    private byte[] readSignatureBytes()
    {
        expectValueStart('[', "an array of 65 integers 0-255");
        pos++;
        final byte[] bytes = new byte[Signature65.LENGTH];
        int count = 0;
        skipWhitespace();
        if (peek() == ']')
        {
            throw reject(ParseErrorCode.INVALID_SIGNATURE_BYTES, "must hold 65 integers 0-255, got 0");
        }
        while (true)
        {
            final int c = peek();
            if (c < '0' || c > '9')
            {
                throw reject(ParseErrorCode.INVALID_SIGNATURE_BYTES, "element " + count + " is not an integer 0-255");
            }
            final long value = readUnsignedOr(ParseErrorCode.INVALID_SIGNATURE_BYTES, "an integer 0-255");
            if (value > 255)
            {
                throw reject(ParseErrorCode.INVALID_SIGNATURE_BYTES,
                    "element " + count + " is " + Long.toUnsignedString(value) +
                    ", above 255");
            }
            if (count == bytes.length)
            {
                throw reject(ParseErrorCode.INVALID_SIGNATURE_BYTES, "must hold exactly 65 integers, got more");
            }
            bytes[count++] = (byte)value;
            skipWhitespace();
            final int sep = next();
            if (sep == ']')
            {
                break;
            }
            if (sep != ',')
            {
                pos--;
                throw malformed("expected ',' or ']'");
            }
            skipWhitespace();
        }
        if (count != bytes.length)
        {
            throw reject(ParseErrorCode.INVALID_SIGNATURE_BYTES, "must hold exactly 65 integers, got " + count);
        }
        return bytes;
    }

    private void readScheme()
    {
        readString(ParseErrorCode.UNSUPPORTED_SCHEME, "the string \"EcdsaSecp256k1\"");
        if (!matches(SCHEME))
        {
            throw reject(ParseErrorCode.UNSUPPORTED_SCHEME, "the only scheme is \"EcdsaSecp256k1\"");
        }
    }

    private WireEnum readEnum(final WireEnum[] choices)
    {
        readString(ParseErrorCode.INVALID_ENUM, null, choices);
        for (final WireEnum choice : choices)
        {
            if (matches(choice.quotedWire(), 1, choice.quotedWire().length - 2))
            {
                return choice;
            }
        }
        throw reject(ParseErrorCode.INVALID_ENUM, "must be one of " + wireList(choices));
    }

    private String readSymbol()
    {
        readString(ParseErrorCode.INVALID_VALUE, "a symbol");
        final String symbol = new String(in, stringStart, stringLength, StandardCharsets.ISO_8859_1);
        if (!Fields.isValidSymbol(symbol))
        {
            throw reject(ParseErrorCode.INVALID_VALUE,
                "a symbol is 1 to " + Fields.MAX_SYMBOL_LENGTH + " characters A-Z, 0-9");
        }
        return symbol;
    }

    private String readCredentialId()
    {
        readString(ParseErrorCode.INVALID_VALUE, "a credential id");
        final String id = new String(in, stringStart, stringLength, StandardCharsets.ISO_8859_1);
        if (!SetFixOnboarding.isCredentialId(id))
        {
            throw reject(ParseErrorCode.INVALID_VALUE, "a credential id is spk_ followed by 16 lowercase hex " +
                "digits, not all zero");
        }
        return id;
    }

    /** An array of at most {@link SetFixOnboarding#MAX_MARKETS} u32 ids (their order is the record's rule). */
    private List<Long> readU32List()
    {
        expectValueStart('[', "an array of market ids or null");
        pos++;
        final List<Long> ids = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']')
        {
            pos++;
            return ids;
        }
        while (true)
        {
            if (ids.size() == SetFixOnboarding.MAX_MARKETS)
            {
                throw reject(ParseErrorCode.INVALID_VALUE, "at most " + SetFixOnboarding.MAX_MARKETS + " markets");
            }
            path.pushIndex(ids.size());
            ids.add(readU32());
            path.pop();
            skipWhitespace();
            final int c = next();
            if (c == ']')
            {
                return ids;
            }
            if (c != ',')
            {
                pos--;
                throw malformed("expected ',' or ']'");
            }
            skipWhitespace();
        }
    }

    private byte[] readHex(final int byteLength)
    {
        final String expected = expectedHex(byteLength);
        readString(ParseErrorCode.INVALID_HEX, expected);
        if (stringLength != 2 + 2 * byteLength || in[stringStart] != '0' || in[stringStart + 1] != 'x')
        {
            throw reject(ParseErrorCode.INVALID_HEX, "must be " + expected);
        }
        final byte[] out = new byte[byteLength];
        for (int i = 0, at = stringStart + 2; i < byteLength; i++, at += 2)
        {
            final int hi = Hex.lowerDigit(in[at]);
            final int lo = Hex.lowerDigit(in[at + 1]);
            if (hi < 0 || lo < 0)
            {
                throw reject(ParseErrorCode.INVALID_HEX, "must be " + expected);
            }
            out[i] = (byte)((hi << 4) | lo);
        }
        return out;
    }

    private boolean readBool()
    {
        final int c = peek();
        if (c == 't' || c == 'f')
        {
            if (literal("true"))
            {
                return true;
            }
            if (literal("false"))
            {
                return false;
            }
            throw malformed("invalid literal");
        }
        throw wrongType("true or false");
    }

    /** Consumes a null literal if one stands here. */
    private boolean readNullIf()
    {
        if (peek() != 'n')
        {
            return false;
        }
        if (!literal("null"))
        {
            throw malformed("invalid literal");
        }
        return true;
    }

    private long readU32()
    {
        final long value = readUnsigned("an unsigned 32-bit integer");
        if (value < 0 || value > Fields.MAX_U32)
        {
            throw reject(ParseErrorCode.NUMBER_OUT_OF_RANGE, "must be at most " + Fields.MAX_U32);
        }
        return value;
    }

    private long readMillis()
    {
        final long value = readUnsigned("Unix milliseconds");
        if (value < 0)
        {
            throw reject(ParseErrorCode.NUMBER_OUT_OF_RANGE, "Unix milliseconds must be at most " + Long.MAX_VALUE);
        }
        return value;
    }

    private long readUnsigned(final String expected)
    {
        return readUnsignedOr(ParseErrorCode.NUMBER_OUT_OF_RANGE, expected);
    }

    /** Reads a JSON integer in the u64 range; {@code rangeCode} names a value that is out of range. */
    private long readUnsignedOr(final ParseErrorCode rangeCode, final String expected)
    {
        int c = peek();
        if (c == '-')
        {
            throw reject(rangeCode, "must be " + expected + "; negative numbers are not allowed");
        }
        if (c < '0' || c > '9')
        {
            throw wrongType(expected);
        }
        long value = 0;
        final int first = pos;
        while (pos < end && (c = in[pos]) >= '0' && c <= '9')
        {
            final int digit = c - '0';
            if (Long.compareUnsigned(value, U64_MAX_DIV_10) > 0 ||
                (value == U64_MAX_DIV_10 && digit > U64_MAX_LAST_DIGIT))
            {
                throw reject(rangeCode, "must be " + expected + "; the number is above 18446744073709551615");
            }
            value = value * 10 + digit;
            pos++;
        }
        if (in[first] == '0' && pos - first > 1)
        {
            throw reject(ParseErrorCode.INVALID_NUMBER, "leading zeros are not allowed");
        }
        if (pos < end && (in[pos] == '.' || in[pos] == 'e' || in[pos] == 'E'))
        {
            throw reject(ParseErrorCode.INVALID_NUMBER, "must be " + expected + " with no fraction or exponent");
        }
        return value;
    }

    /** Reads a string with no escapes; sets stringStart and stringLength. */
    private void readString(final ParseErrorCode code, final String expected)
    {
        readString(code, expected, null);
    }

    /**
     * As above; the expectation is only put into words on the error path, from {@code choices} when
     * {@code expected} is null.
     */
    private void readString(final ParseErrorCode code, final String expected, final WireEnum[] choices)
    {
        if (peek() != '"')
        {
            throw wrongType(expected != null ? expected : "one of " + wireList(choices));
        }
        pos++;
        final int from = pos;
        while (true)
        {
            if (pos >= end)
            {
                throw malformed("unterminated string");
            }
            final int c = in[pos] & 0xFF;
            if (c == '"')
            {
                break;
            }
            if (c == '\\')
            {
                throw reject(code, "must be " + (expected != null ? expected : "one of " + wireList(choices)) +
                    " written without escapes");
            }
            if (c < 0x20)
            {
                throw malformed("control character in string");
            }
            pos++;
        }
        stringStart = from;
        stringLength = pos - from;
        pos++;
    }

    /** Reads an object key: a plain string followed later by ':'. */
    private void readKey()
    {
        if (peek() != '"')
        {
            throw malformed("expected a quoted key");
        }
        readString(ParseErrorCode.UNKNOWN_FIELD, "a plain key");
    }

    private boolean literal(final String word)
    {
        final int length = word.length();
        if (end - pos < length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (in[pos + i] != word.charAt(i))
            {
                return false;
            }
        }
        pos += length;
        return true;
    }

    private boolean matches(final byte[] expected)
    {
        return matches(expected, 0, expected.length);
    }

    private boolean matches(final byte[] expected, final int offset, final int length)
    {
        return stringLength == length &&
            Arrays.equals(in, stringStart, stringStart + length, expected, offset, offset + length);
    }

    private void expectValueStart(final char open, final String expected)
    {
        if (peek() != open)
        {
            throw wrongType(expected);
        }
    }

    private void expectByte(final char expected)
    {
        if (pos >= end || in[pos] != expected)
        {
            throw malformed("expected '" + expected + "'");
        }
        pos++;
    }

    private int peek()
    {
        if (pos >= end)
        {
            throw malformed("unexpected end of body");
        }
        return in[pos] & 0xFF;
    }

    private int next()
    {
        final int c = peek();
        pos++;
        return c;
    }

    private void skipWhitespace()
    {
        while (pos < end)
        {
            final byte c = in[pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
            {
                return;
            }
            pos++;
        }
    }

    private Reject wrongType(final String expected)
    {
        final int c = peek();
        final String actual = switch (c)
        {
            case '{' -> "an object";
            case '[' -> "an array";
            case '"' -> "a string";
            case 't', 'f' -> "a boolean";
            case 'n' -> "null";
            default -> (c == '-' || (c >= '0' && c <= '9')) ? "a number" : null;
        };
        if (actual == null)
        {
            return malformed("unexpected character");
        }
        return reject(ParseErrorCode.INVALID_TYPE, "expected " + expected + ", got " + actual);
    }

    private Reject malformed(final String message)
    {
        return reject(ParseErrorCode.MALFORMED_JSON, message + " at byte " + (pos - start));
    }

    private Reject reject(final ParseErrorCode code, final String message)
    {
        return new Reject(code, path.toString(), message);
    }

    private static String expectedHex(final int byteLength)
    {
        return switch (byteLength)
        {
            case ClientOrderId.LENGTH -> HEX_16;
            case Address.LENGTH -> HEX_20;
            case OrderId.LENGTH -> HEX_32;
            default -> "0x followed by " + (2 * byteLength) + " lowercase hex digits";
        };
    }

    private static String wireList(final WireEnum[] choices)
    {
        final StringBuilder list = new StringBuilder();
        for (final WireEnum choice : choices)
        {
            list.append(list.length() == 0 ? "" : ", ").append('"').append(choice.wire()).append('"');
        }
        return list.toString();
    }

    /** Carries a refusal out of the descent; no stack trace, it is control flow. */
    private static final class Reject extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        final ParseErrorCode code;
        final String field;

        Reject(final ParseErrorCode code, final String field, final String message)
        {
            super(message, null, false, false);
            this.code = code;
            this.field = field;
        }
    }
}
