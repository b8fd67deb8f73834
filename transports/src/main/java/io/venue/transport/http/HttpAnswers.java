package io.venue.transport.http;

import io.venue.codec.Hex;
import io.venue.codec.JsonWriter;
import io.venue.entry.Answer;
import io.venue.entry.RefusalDetails;
import io.venue.entry.RejectCodes;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.RequestRejectReason;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTTP lane's form of an {@link Answer} (docs/API.md): its status table and its JSON body. Runs on the lane's
 * I/O thread, never on the responder's.
 */
final class HttpAnswers
{
    /** A submit's 504: whether the lane's own deadline or the core's ({@link Answer.Kind#TIMED_OUT}) passed first. */
    static final String TIMED_OUT = "no decision in time; the action may still be applied: ask GET " +
        "/api/v1/trading/actions/{digest}, or resend the same signed body (a duplicate is refused as " +
        "nonce_replayed), never the same order under a new nonce";

    private HttpAnswers()
    {
    }

    /** 401 and 403 for authorization, 429 and 503 for limits; every other engine refusal is 200 with ok false. */
    static int status(final RejectCode code)
    {
        return switch (code)
        {
            case UNAUTHORIZED_SIGNER, NOT_OPERATOR -> 401;
            case SCOPE_DENIED -> 403;
            case RATE_LIMITED -> 429;
            case SHARD_BUSY, QUEUE_LIMIT -> 503;
            default -> 200;
        };
    }

    static int status(final RequestRejectReason reason)
    {
        return switch (reason)
        {
            case MALFORMED -> 400;
            case BODY_TOO_LARGE -> 413;
            case BAD_SIGNATURE, TRANSPORT_AUTH_FAILED, OWNER_SIGNATURE_INVALID, TIMESTAMP_SKEW -> 401;
            case MACHINE_NONCE_REPLAYED -> 409;
            case EDGE_RATE_LIMITED, LANE_RATE_LIMITED -> 429;
            case QUEUE_LIMIT, SHARD_BUSY -> 503;
            default -> 400;
        };
    }

    static SubmitResponse render(final Answer answer)
    {
        return switch (answer.kind)
        {
            case ACCEPTED -> accepted(answer);
            case REJECTED -> rejected(answer);
            case REFUSED -> refused(answer);
            case UNAPPLIED -> new SubmitResponse(500, new JsonWriter().field("ok", false).field("code", "INTERNAL")
                .field("message", "the engine did not apply this command record")
                .field("sequence", answer.sequence).toJson());
            case TIMED_OUT -> new SubmitResponse(504, HttpResponses.error("TIMEOUT", TIMED_OUT));
        };
    }

    private static SubmitResponse accepted(final Answer answer)
    {
        final JsonWriter w = new JsonWriter().field("ok", true).field("sequence", answer.sequence)
            .field("digest", hex(answer.digest));
        final byte[][] ids = answer.orderIds;
        if (ids.length == 1 && answer.rejectedLegs.length == 0)
        {
            w.field("orderId", Hex.to0x(ids[0]));
        }
        else if (ids.length > 0)
        {
            final List<String> quoted = new ArrayList<>(ids.length);
            for (final byte[] id : ids)
            {
                quoted.add(JsonWriter.quote(Hex.to0x(id)));
            }
            w.raw("orderIds", JsonWriter.array(quoted));
        }
        if (answer.rejectedLegs.length > 0)
        {
            final List<String> legs = new ArrayList<>(answer.rejectedLegs.length);
            for (int i = 0; i < answer.rejectedLegs.length; i++)
            {
                legs.add(new JsonWriter().field("leg", answer.rejectedLegs[i])
                    .field("code", RejectCodes.wire(answer.legCodes[i])).toJson());
            }
            w.raw("legRejects", JsonWriter.array(legs));
        }
        return new SubmitResponse(200, w.field("trades", answer.trades).toJson(), 0, answer.rateLimit,
            answer.rateRemaining, answer.rateResetMs);
    }

    private static SubmitResponse rejected(final Answer answer)
    {
        final RejectCode code = answer.code;
        // the stamped time the engine judged by (agent expiry, the limiter), so a client can compare its own clock
        final JsonWriter w = new JsonWriter().field("ok", false).field("code", RejectCodes.wire(code))
            .field("message", RejectCodes.message(code)).field("sequence", answer.sequence)
            .field("digest", hex(answer.digest)) .field("serverTimeMs", answer.serverTimeMs);
        if (RejectCodes.isNonce(code))
        {
            w.unsigned("nonceFloor", answer.nonceFloor).unsigned("nonceWindow", answer.nonceWindow)
                .unsigned("nextUsableNonce", answer.nextUsableNonce);
        }
        if (answer.rawSigner != null)
        {
            w.field("expectedSigner", hex(answer.account));
            w.raw("recoveredSigner", new JsonWriter().field("rawMode", Hex.to0x(answer.rawSigner))
                .field("personalMode", Hex.to0x(answer.personalSigner)).toJson());
            final String json = answer.canonicalJson == null ? null :
                new String(answer.canonicalJson, StandardCharsets.UTF_8);
            canonicalJson(w, json, answer.canonicalJsonCut(), answer.canonicalJsonBytes);
        }
        return new SubmitResponse(status(code), w.toJson(), seconds(answer.retryAfterMs), answer.rateLimit,
            answer.rateRemaining, answer.rateResetMs);
    }

    private static SubmitResponse refused(final Answer answer)
    {
        final RequestRejectReason reason = answer.reason;
        final String detail = answer.detail;
        final String account = hex(answer.account);
        final String digest = hex(answer.digest);
        final JsonWriter w = new JsonWriter().field("ok", false).field("code", reason.name())
            .field("sequence", answer.sequence);
        // a bad signature's detail is the canonical JSON of a signed action, or the words of an MM cancel-replace's leg
        final boolean badActionSignature = reason == RequestRejectReason.BAD_SIGNATURE && detail.startsWith("{");
        if (reason == RequestRejectReason.MALFORMED)
        {
            w.field("field", answer.detailField()).field("message", answer.detailMessage());
        }
        else if (reason == RequestRejectReason.OWNER_SIGNATURE_INVALID)
        {
            w.field("message", detail).field("expectedSigner", account).field("intentDigest", digest);
        }
        else if (reason == RequestRejectReason.BAD_SIGNATURE && !badActionSignature)
        {
            // an MM cancel-replace: the detail says which leg's signature failed and how
            w.field("message", detail).field("expectedSigner", account).field("digest", digest);
        }
        else if (badActionSignature)
        {
            w.field("message", "the signature bytes are not a valid secp256k1 signature")
                .field("expectedSigner", account).field("digest", digest);
            canonicalJson(w, RefusalDetails.head(detail), RefusalDetails.isCut(detail),
                RefusalDetails.fullBytes(detail));
        }
        else
        {
            w.field("message", detail);
        }
        return new SubmitResponse(status(reason), w.toJson(), 0, answer.rateLimit, answer.rateRemaining,
            answer.rateResetMs);
    }

    /**
     * The canonical JSON whole, or when only its head was kept (over 1 KB: the journal's detail, or an answer kept
     * for the status route) the head as {@code canonicalJsonPrefix} and the whole one's length; {@code digest} is the
     * digest of the whole.
     */
    private static void canonicalJson(final JsonWriter w, final String json, final boolean cut, final long wholeBytes)
    {
        if (cut)
        {
            w.field("canonicalJsonPrefix", json).field("canonicalJsonBytes", wholeBytes);
        }
        else
        {
            w.field("canonicalJson", json);
        }
    }

    /** Whole seconds, rounded up, for Retry-After; 0 for none. */
    private static long seconds(final long ms)
    {
        return ms <= 0 ? 0 : (ms + 999) / 1000;
    }

    private static String hex(final byte[] bytes)
    {
        return bytes == null ? null : Hex.to0x(bytes);
    }
}
