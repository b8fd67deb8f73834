package io.venue.transport.ws;

/**
 * The close codes the gateway sends (docs/WEBSOCKET.md, "Limits and closes"). The RFC 6455 ones for what is wrong with
 * the frames themselves; the 4000 range for the gateway's own rules, each with a short reason (at most 123 bytes).
 */
final class WsCloses
{
    private WsCloses()
    {
    }

    /** The client closed first: its close is echoed. */
    static final int NORMAL = 1000;
    /** The node is stopping (its lanes drain): the client reconnects, to this node or its standby. */
    static final int GOING_AWAY = 1001;
    /** A frame that breaks RFC 6455 (unmasked, a bad opcode or length, a control frame fragmented). */
    static final int PROTOCOL_ERROR = 1002;
    /** A binary message: the gateway reads JSON text only. */
    static final int UNSUPPORTED_DATA = 1003;
    /** A text message that is not UTF-8. */
    static final int INVALID_PAYLOAD = 1007;
    /** A message over the inbound limit. */
    static final int MESSAGE_TOO_BIG = 1009;
    /** A failure of the gateway's own (a bug): the connection ends, the others go on. */
    static final int INTERNAL_ERROR = 1011;
    /** Nothing received for idleTimeoutMs. */
    static final int IDLE_TIMEOUT = 4000;
    /** Private stream: no valid auth frame first, within authDeadlineMs. */
    static final int AUTH_FAILED = 4401;
    /** Private stream: what obtained the token no longer holds (a revoked agent, a replaced vault owner). */
    static final int GRANT_REVOKED = 4403;
    /** The client did not read its frames fast enough. */
    static final int SLOW_CONSUMER = 4408;
    /** Over a subscription, market or control-message limit. */
    static final int LIMIT_EXCEEDED = 4409;

    /** Every code sent, for the metrics' closes by code. */
    static final int[] CODES = {NORMAL, GOING_AWAY, PROTOCOL_ERROR, UNSUPPORTED_DATA, INVALID_PAYLOAD, MESSAGE_TOO_BIG,
        INTERNAL_ERROR, IDLE_TIMEOUT, AUTH_FAILED, GRANT_REVOKED, SLOW_CONSUMER, LIMIT_EXCEEDED};
}
