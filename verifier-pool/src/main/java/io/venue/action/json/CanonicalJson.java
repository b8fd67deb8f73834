package io.venue.action.json;

import io.venue.action.ActionPayload;
import io.venue.action.SignedAction;

/**
 * Canonical JSON of payloads (spec 5.2) and the SignedAction wire body (spec 2.3), over a reusable
 * writer: after warm-up, encoding allocates nothing. One instance per thread.
 */
public final class CanonicalJson
{
    private static final JsonKey PAYLOAD = JsonKey.of("payload");
    private static final JsonKey SIGNATURE = JsonKey.of("signature");
    private static final JsonKey SCHEME = JsonKey.of("scheme");
    private static final JsonKey BYTES = JsonKey.of("bytes");

    private final CanonicalJsonWriter writer = new CanonicalJsonWriter();

    /** Encodes the payload; the bytes are {@code writer().buffer()[0, length)} until the next call. */
    public int encode(final ActionPayload payload)
    {
        writer.reset();
        payload.writeTo(writer);
        return writer.length();
    }

    /** The writer holding the last encoding. */
    public CanonicalJsonWriter writer()
    {
        return writer;
    }

    /** A fresh copy of the payload's canonical JSON; for tools and tests. */
    public static byte[] toBytes(final ActionPayload payload)
    {
        final CanonicalJsonWriter w = new CanonicalJsonWriter(512);
        payload.writeTo(w);
        return w.toByteArray();
    }

    /** The request body a client sends: {"payload":{...},"signature":{"scheme":"EcdsaSecp256k1","bytes":[...]}}. */
    public static byte[] signedActionBody(final SignedAction signedAction)
    {
        final CanonicalJsonWriter w = new CanonicalJsonWriter(1024);
        w.beginObject();
        w.key(PAYLOAD);
        signedAction.payload().writeTo(w);
        w.key(SIGNATURE).beginObject();
        w.key(SCHEME).asciiString(SignedAction.SCHEME);
        w.key(BYTES).beginArray();
        final byte[] signature = signedAction.signature().toBytes();
        for (final byte b : signature)
        {
            w.u64(b & 0xFF);
        }
        w.endArray();
        w.endObject();
        w.endObject();
        return w.toByteArray();
    }
}
