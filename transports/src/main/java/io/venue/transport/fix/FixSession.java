package io.venue.transport.fix;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.entry.EntryCore;
import io.venue.entry.EntrySession;
import io.venue.entry.credential.ApiKey;
import io.venue.entry.credential.FixOnboarding;
import io.venue.entry.credential.MachineCredentials;
import io.venue.entry.protect.SessionProtection;
import io.venue.journal.sbe.RequestRejectReason;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One FIX 4.4 connection (docs/FIX.md): a Logon within the deadline (the credential checked by the order-entry core's
 * shared logon check, the logon limit of spec 8.4), then the session layer: MsgSeqNum both ways (kept per credential
 * and sub-session across connections, {@link FixSequences}), Heartbeat and TestRequest by HeartBtInt, ResendRequest
 * answered with a SequenceReset-GapFill (capped), SequenceReset, Logout, and a session Reject for a message that breaks
 * the rules. A message that breaks the framing is answered by a Logout and a close. Runs on the channel's event loop.
 * <p>
 * Where a session policy hooks in (cancel on disconnect, built lane-neutral elsewhere): {@link #opened} is the one
 * place a session starts (its account, credential and sub-session known), {@link #closed} the one place it ends.
 */
final class FixSession extends ChannelInboundHandlerAdapter
{
    static final String ORDER_ENTRY = "order_entry";
    static final String DROP_COPY = "drop_copy";
    private static final int WRITER_BYTES = 16 * 1024;

    private enum State
    {
        AWAITING_LOGON, ACTIVE, CLOSING
    }

    private final FixLane.Context context;
    private final FixLane.Counters counters;
    private final EntryCore core;
    private final EntrySession entry;
    private final MachineCredentials credentials;
    private final LogonAttempts attempts;
    private final FixSequences sequences;
    /** The session key's numbers, its stored reports and what waits to be written (after the logon). */
    private FixOutbound outbound;
    /** The number {@link #begin} took for the message being written. */
    private long beganSeq;
    private final FixReports reports;
    /** The order-entry sub-session's application messages; null for a drop-copy session (and before the logon). */
    private FixOrderEntry orderEntry;
    /** Whether {@link #opened} told the shared protection hook (cancel on disconnect) of this session. */
    private boolean protectionOpened;
    private final FixMessage in = new FixMessage();
    private final FixWriter out = new FixWriter(WRITER_BYTES);
    /** Whether a drain is queued on the event loop for reports the deriver numbered ({@link #wake}). */
    private final AtomicBoolean drainWaiting = new AtomicBoolean();
    private final Runnable queuedDrain = this::queuedDrain;
    private final UnsafeBuffer frame = new UnsafeBuffer(0, 0);

    private State state = State.AWAITING_LOGON;
    private ChannelHandlerContext ctx;
    private String remoteAddress;
    private String remoteText;
    private String apiKeyId;
    private String account;
    private String subSession;
    private String sequenceKey;
    private long openedAtMs;
    /** The credential's FIX onboarding record as its Logon found it: rate tier and cancel-on-disconnect policy. */
    private FixOnboarding onboarding;
    private long heartbeatMs;
    private long nextIn;
    private long credentialId;
    /** While a ResendRequest of ours is outstanding: the highest MsgSeqNum seen, which the resend must reach. */
    private long resendUntil;
    private long lastReadNs;
    private long lastWriteNs;
    private long testRequestSentNs;
    private long testRequests;
    private ScheduledFuture<?> logonDeadline;
    private ScheduledFuture<?> ticker;

    FixSession(final FixLane.Context context, final FixLane.Counters counters, final EntryCore core,
        final EntrySession entry, final LogonAttempts attempts, final FixSequences sequences,
        final FixReports reports)
    {
        this.reports = reports;
        this.context = context;
        this.counters = counters;
        this.core = core;
        this.entry = entry;
        this.credentials = core.credentials();
        this.attempts = attempts;
        this.sequences = sequences;
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
        final InetSocketAddress address = (InetSocketAddress)ctx.channel().remoteAddress();
        remoteAddress = address.getAddress().getHostAddress();
        entry.from(address.getAddress());
        remoteText = remoteAddress + ":" + address.getPort();
        lastReadNs = System.nanoTime();
        lastWriteNs = lastReadNs;
        counters.connections.incrementAndGet();
        if (counters.open.incrementAndGet() > context.maxSessions())
        {
            refuseLogon("TOO_MANY_SESSIONS", "this lane holds its maximum of " + context.maxSessions() +
                " connections; try again later or another node", null, null);
            return;
        }
        logonDeadline = ctx.executor().schedule(() -> refuseLogon("LOGON_TIMEOUT", "no Logon within " +
            context.logonTimeoutMs() + " ms of the connection", null, null), context.logonTimeoutMs(),
            TimeUnit.MILLISECONDS);
        ticker = ctx.executor().scheduleAtFixedRate(this::tick, 100, 100, TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        counters.open.decrementAndGet();
        final boolean wasActive = sequenceKey != null;
        state = State.CLOSING;
        cancelTimers();
        if (wasActive)
        {
            closed();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        // a reset by the peer, or a bug of ours: either way this connection ends, the node goes on
        ctx.close();
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        if (msg instanceof FixFrameDecoder.Fault fault)
        {
            counters.framingFaults.incrementAndGet();
            logoutAndClose("a message that cannot be framed: " + fault.message());
            return;
        }
        final ByteBuf buf = (ByteBuf)msg;
        try
        {
            if (state != State.CLOSING)
            {
                lastReadNs = System.nanoTime();
                testRequestSentNs = 0;
                counters.messages.incrementAndGet();
                wrap(buf);
                onMessage();
            }
        }
        finally
        {
            buf.release();
        }
    }

    private void wrap(final ByteBuf buf)
    {
        final int length = buf.readableBytes();
        if (buf.hasMemoryAddress())
        {
            frame.wrap(buf.memoryAddress() + buf.readerIndex(), length);
        }
        else if (buf.hasArray())
        {
            frame.wrap(buf.array(), buf.arrayOffset() + buf.readerIndex(), length);
        }
        else
        {
            final byte[] copy = new byte[length];
            buf.getBytes(buf.readerIndex(), copy);
            frame.wrap(copy);
        }
    }

    private void onMessage()
    {
        final boolean wellFormed = in.parse(frame, 0, frame.capacity());
        if (state == State.AWAITING_LOGON)
        {
            if (!wellFormed)
            {
                refuseLogon("MALFORMED", "the first message is a well-formed Logon: " + in.problem(), null, null);
            }
            else if (in.msgTypeByte() != FixTags.LOGON)
            {
                refuseLogon("NOT_LOGGED_ON", "the first message of a session is a Logon (35=A)", null, null);
            }
            else
            {
                onLogon();
            }
            return;
        }
        final long seq = in.longValue(FixTags.MSG_SEQ_NUM);
        if (seq <= 0)
        {
            counters.sessionRejects.incrementAndGet();
            logoutAndClose("MsgSeqNum(34) is required, a positive integer");
            return;
        }
        if (!wellFormed)
        {
            if (inSequence(seq))
            {
                nextIn = seq + 1;
                reject(seq, in.rejectReason(), in.refTag(), in.problem());
            }
            return;
        }
        final byte type = in.msgTypeByte();
        if (type == FixTags.SEQUENCE_RESET && !in.isChar(FixTags.GAP_FILL_FLAG, 'Y'))
        {
            // reset mode: its MsgSeqNum is ignored (FIX 4.4 session rules)
            onSequenceReset(seq, false);
            return;
        }
        if (type == FixTags.RESEND_REQUEST && seq > nextIn && in.valueEquals(FixTags.SENDER_COMP_ID, apiKeyId))
        {
            // answered even ahead of the count (FIX's session rules): two sides each holding the other's ResendRequest
            // until their own gap is filled would wait for ever; the count then asks for the gap below
            onResendRequest(seq);
        }
        if (!inSequence(seq))
        {
            return;
        }
        if (!header(seq))
        {
            return;
        }
        nextIn = seq + 1;
        switch (type)
        {
            case FixTags.HEARTBEAT, FixTags.REJECT ->
            {
                // a Heartbeat's arrival is all it says; a Reject of ours is the client's to act on
            }
            case FixTags.TEST_REQUEST -> onTestRequest(seq);
            case FixTags.RESEND_REQUEST -> onResendRequest(seq);
            case FixTags.SEQUENCE_RESET -> onSequenceReset(seq, true);
            case FixTags.LOGOUT -> logoutAndClose("logout acknowledged");
            case FixTags.LOGON -> reject(seq, FixTags.REJECT_VALUE_INCORRECT, FixTags.MSG_TYPE,
                "this session is logged on already");
            default -> onApplication(seq);
        }
        store(false);
    }

    /**
     * The sequence rules for a message that is not a reset: its MsgSeqNum the one expected (true), higher (a
     * ResendRequest for the gap, unless one is outstanding; the message waits for the resend), or lower (a PossDup
     * is dropped; anything else ends the session, as FIX requires).
     */
    private boolean inSequence(final long seq)
    {
        if (seq == nextIn)
        {
            if (resendUntil != 0 && seq >= resendUntil)
            {
                resendUntil = 0;
            }
            return true;
        }
        if (seq > nextIn)
        {
            if (in.msgTypeByte() == FixTags.LOGOUT)
            {
                logoutAndClose("logout acknowledged");
                return false;
            }
            if (resendUntil == 0)
            {
                resendUntil = seq;
                send(begin("2").number(FixTags.BEGIN_SEQ_NO, nextIn).number(FixTags.END_SEQ_NO, 0));
            }
            else
            {
                resendUntil = Math.max(resendUntil, seq);
            }
            return false;
        }
        if (in.isChar(FixTags.POSS_DUP_FLAG, 'Y'))
        {
            return false;
        }
        counters.sessionRejects.incrementAndGet();
        logoutAndClose("MsgSeqNum too low, expecting " + nextIn + " but received " + seq);
        return false;
    }

    /** The header of a message in sequence: the session's CompIDs, a SendingTime close to the server's clock. */
    private boolean header(final long seq)
    {
        if (!in.valueEquals(FixTags.SENDER_COMP_ID, apiKeyId) || !in.valueEquals(FixTags.TARGET_COMP_ID,
            context.compId()) || in.has(FixTags.TARGET_SUB_ID) && !in.valueEquals(FixTags.TARGET_SUB_ID, subSession))
        {
            nextIn = seq + 1;
            reject(seq, FixTags.REJECT_COMP_ID_PROBLEM, FixTags.SENDER_COMP_ID, "SenderCompID(49) is the session's " +
                "API key id, TargetCompID(56) " + context.compId() + ", TargetSubID(57) " + subSession);
            logoutAndClose("CompID problem");
            return false;
        }
        final long sent = FixTime.parse(in, FixTags.SENDING_TIME);
        if (sent == FixTime.ABSENT || sent == FixTime.INVALID)
        {
            nextIn = seq + 1;
            reject(seq, sent == FixTime.ABSENT ? FixTags.REJECT_REQUIRED_TAG_MISSING :
                FixTags.REJECT_INCORRECT_DATA_FORMAT, FixTags.SENDING_TIME, "SendingTime(52) is a UTCTimestamp");
            return false;
        }
        if (!in.isChar(FixTags.POSS_DUP_FLAG, 'Y') &&
            Math.abs(sent - System.currentTimeMillis()) > context.sendingTimeToleranceMs())
        {
            nextIn = seq + 1;
            reject(seq, FixTags.REJECT_SENDING_TIME_ACCURACY, FixTags.SENDING_TIME, "SendingTime(52) is more than " +
                context.sendingTimeToleranceMs() + " ms from the server's clock");
            logoutAndClose("SendingTime accuracy problem");
            return false;
        }
        return true;
    }

    private void onLogon()
    {
        final long now = System.currentTimeMillis();
        final String username = in.string(FixTags.USERNAME);
        final String throttled = attempts.attempt(username, remoteAddress, now);
        if (throttled != null)
        {
            refuseLogon("THROTTLED", "more than " + context.logonAttemptsPerMinute() + " logon attempts in a " +
                "minute from this " + throttled + " (spec 8.4); wait and try again", null, null);
            return;
        }
        if (context.draining())
        {
            refuseLogon("SHUTTING_DOWN", "the appliance is stopping; log on to the next node", null, null);
            return;
        }
        final long seq = in.longValue(FixTags.MSG_SEQ_NUM);
        final long heartBtInt = in.longValue(FixTags.HEART_BT_INT);
        final String password = in.string(FixTags.PASSWORD);
        final String claimedAccount = in.string(FixTags.ACCOUNT);
        final String sub = in.string(FixTags.TARGET_SUB_ID);
        if (seq <= 0 || !in.has(FixTags.SENDER_COMP_ID) || !in.has(FixTags.SENDING_TIME) ||
            !in.valueEquals(FixTags.ENCRYPT_METHOD, "0") || heartBtInt < 1 || heartBtInt > FixLane.MAX_HEART_BT_INT ||
            username == null || password == null || claimedAccount == null || sub == null)
        {
            refuseLogon("MALFORMED", "a Logon carries MsgSeqNum(34), SenderCompID(49), SendingTime(52), " +
                "EncryptMethod(98)=0, HeartBtInt(108) 1 to " + FixLane.MAX_HEART_BT_INT + ", Username(553), " +
                "Password(554), Account(1) and TargetSubID(57)", null, null);
            return;
        }
        if (!in.valueEquals(FixTags.TARGET_COMP_ID, context.compId()))
        {
            refuseLogon("COMP_ID", "TargetCompID(56) is " + context.compId(), null, null);
            return;
        }
        if (!in.valueEquals(FixTags.SENDER_COMP_ID, username))
        {
            refuseLogon("COMP_ID", "SenderCompID(49) is the Username(553), the API key id", null, null);
            return;
        }
        final int colon = password.indexOf(':');
        if (colon < 0 || credentials == null)
        {
            refuseLogon(colon < 0 ? "MALFORMED" : "UNAUTHENTICATED", colon < 0 ? "Password(554) is " +
                "<apiSecret>:<apiPassphrase>" : "this node takes no machine credentials",
                RequestRejectReason.TRANSPORT_AUTH_FAILED, "FIX logon of " + username + ": " +
                (colon < 0 ? "no colon in Password(554)" : "no machine credentials"));
            return;
        }
        final MachineCredentials.Failure failure = credentials.logon(username, password.substring(0, colon),
            password.substring(colon + 1), now);
        if (failure != null)
        {
            refuseLogon("UNAUTHENTICATED", failure.message(), failure.journalReason(), "FIX " +
                failure.journalDetail());
            return;
        }
        final ApiKey key = credentials.find(username);
        if (key == null || !key.institutional())
        {
            refuseLogon("NOT_INSTITUTIONAL", "a FIX session needs an institutional agent's HMAC credential",
                RequestRejectReason.TRANSPORT_AUTH_FAILED, "FIX logon: " + username + " is not an institutional " +
                "agent's credential");
            return;
        }
        if (!claimedAccount.equalsIgnoreCase(key.account()))
        {
            refuseLogon("WRONG_ACCOUNT", "Account(1) is not the account this credential acts for",
                RequestRejectReason.TRANSPORT_AUTH_FAILED, "FIX logon: " + username + " names account " +
                claimedAccount + ", not its own");
            return;
        }
        final Scope needed = ORDER_ENTRY.equals(sub) ? Scope.TRADE : DROP_COPY.equals(sub) ? Scope.DROP_COPY : null;
        if (needed == null || !key.holds(needed))
        {
            refuseLogon("SUB_SESSION_DENIED", needed == null ? "TargetSubID(57) is order_entry or drop_copy" :
                "the " + sub + " sub-session needs a credential holding the " + needed.wire() + " scope",
                RequestRejectReason.TRANSPORT_AUTH_FAILED, "FIX logon: " + username + " not entitled to " + sub);
            return;
        }
        // the onboarding record (spec 5.5): what the operator granted this credential on FIX
        final FixOnboarding record = context.onboarding(username);
        if (record == null || !record.fixEnabled())
        {
            refuseLogon(record == null ? "NOT_ONBOARDED" : "FIX_NOT_PERMITTED", record == null ?
                "this credential has no FIX onboarding record; the venue's operator sets one" :
                "this credential's FIX onboarding record does not grant FIX", RequestRejectReason.TRANSPORT_AUTH_FAILED,
                "FIX logon: " + username + (record == null ? " has no onboarding record" : " is not permitted FIX"));
            return;
        }
        if (DROP_COPY.equals(sub) && !record.dropCopy())
        {
            refuseLogon("DROP_COPY_NOT_ENTITLED", "this credential's FIX onboarding record grants no drop copy",
                RequestRejectReason.TRANSPORT_AUTH_FAILED, "FIX logon: " + username + " not entitled to drop copy");
            return;
        }
        if (!sequences.ready())
        {
            refuseLogon("NOT_READY", "the lane is numbering the journal's reports as it starts; log on again " +
                "shortly", null, null);
            return;
        }
        final String seqKey = FixSequences.key(username, sub);
        final String keyAccount = key.account().toLowerCase(Locale.ROOT);
        final FixOutbound claimed = sequences.claim(username, sub, keyAccount);
        if (claimed == null)
        {
            refuseLogon("ALREADY_LOGGED_ON", "a session of this credential and sub-session is logged on already " +
                "(or this node knows too many sessions)", null, null);
            return;
        }
        final boolean reset = in.isChar(FixTags.RESET_SEQ_NUM_FLAG, 'Y');
        final long expected = reset ? 1 : claimed.nextIn();
        if (reset && seq != 1 || seq < expected)
        {
            claimed.release();
            refuseLogon("SEQUENCE", reset ? "a Logon with ResetSeqNumFlag(141)=Y has MsgSeqNum(34) 1" :
                "MsgSeqNum too low, expecting " + expected + " but received " + seq, null, null);
            return;
        }
        apiKeyId = username;
        onboarding = record;
        credentialId = Long.parseUnsignedLong(username.substring(4), 16);
        account = keyAccount;
        subSession = sub;
        sequenceKey = seqKey;
        outbound = claimed;
        nextIn = expected;
        heartbeatMs = heartBtInt * 1_000;
        sequences.attach(claimed, this, entry.connectionId(), reset, seq == nextIn ? seq + 1 : nextIn);
        state = State.ACTIVE;
        logonDeadline.cancel(false);
        counters.logonsAccepted.incrementAndGet();
        send(begin("A").number(FixTags.ENCRYPT_METHOD, 0).number(FixTags.HEART_BT_INT, heartBtInt)
            .character(FixTags.RESET_SEQ_NUM_FLAG, reset ? 'Y' : 'N'));
        if (seq == nextIn)
        {
            nextIn = seq + 1;
        }
        else
        {
            resendUntil = seq;
            send(begin("2").number(FixTags.BEGIN_SEQ_NO, nextIn).number(FixTags.END_SEQ_NO, 0));
        }
        if (!opened(now))
        {
            // without its journaled session the promised sweep could not happen: no session rather than one
            // without its protection
            logoutAndClose("the node's protection queue is full; log on again later");
            return;
        }
        store(false);
    }

    /** The session is open: its account, credential and sub-session are known (a session policy starts here). */
    private boolean opened(final long nowMs)
    {
        openedAtMs = nowMs;
        if (ORDER_ENTRY.equals(subSession))
        {
            final SessionProtection protection = core.protection();
            if (protection != null && reports != null)
            {
                // an institutional agent's session key: its onboarding record's policy cancels the account's orders
                // when it ends, after the record's grace window, unless the credential logs on again within it
                // (docs/ENGINE.md, "Protections"); a record without the policy sweeps nothing
                if (!protection.opened(entry.connectionId(), accountBytes(), credentialId,
                    SessionProtection.Kind.SESSION_KEY, onboarding.cancelOnDisconnect(), onboarding.codGraceMs()))
                {
                    return false;
                }
                protectionOpened = true;
                // the record's rate tier, or the lane's default rate for a record without one
                final long rate = context.orderMessagesPerSecond(onboarding.tier());
                orderEntry = new FixOrderEntry(entry.connectionId(), credentialId, account, protection.requests(),
                    reports, replies, rate > 0 ? new FixMessageRate(rate, nowMs) : null);
            }
        }
        core.sessions().add(entry.connectionId(), this::describe);
        return true;
    }

    private byte[] accountBytes()
    {
        return Hex.fromHex(account);
    }

    /** How the order-entry messages answer: a report numbered now, or a session Reject. */
    private final FixOrderEntry.Replies replies = new FixOrderEntry.Replies()
    {
        public void report(final FixReport report)
        {
            sendReport(report);
        }

        public void reject(final long refSeq, final int reason, final int refTag, final String text)
        {
            FixSession.this.reject(refSeq, reason, refTag, text);
        }
    };

    /**
     * Reports were numbered for this session on the deriver's thread: its event loop writes them, in number order. One
     * drain waits at a time: a report numbered while one waits is written by it (the drain clears the flag before it
     * looks), so a burst of reports costs the event loop one task, not one each.
     */
    void wake()
    {
        if (ctx != null && drainWaiting.compareAndSet(false, true))
        {
            ctx.executor().execute(queuedDrain);
        }
    }

    private void queuedDrain()
    {
        drainWaiting.set(false);
        drain();
    }

    /** Writes what is numbered and not yet written, in number order (on the event loop). */
    private void drain()
    {
        if (outbound == null || state == State.CLOSING)
        {
            return;
        }
        FixOutbound.Pending next;
        while ((next = outbound.nextToWrite()) != null)
        {
            if (next.bytes() != null)
            {
                write(next.bytes());
            }
            else
            {
                write(render(next.report(), next.seq(), false));
                counters.reportsSent.incrementAndGet();
            }
        }
    }

    /** A journal-derived report numbered {@code seq}; sent again ({@code possDup}): PossDupFlag Y, OrigSendingTime. */
    private ByteBuf render(final FixReport report, final long seq, final boolean possDup)
    {
        out.begin(String.valueOf(report.msgType), context.compId(), subSession, apiKeyId, seq,
            System.currentTimeMillis());
        if (possDup)
        {
            // the journal keeps no send time: the report's stamped time, never after the first send
            out.character(FixTags.POSS_DUP_FLAG, 'Y').timestamp(FixTags.ORIG_SENDING_TIME, report.transactTimeMs);
        }
        report.writeBody(out);
        return out.finish().toByteBuf(ctx.alloc());
    }

    private void sendReport(final FixReport report)
    {
        if (state != State.ACTIVE)
        {
            return;
        }
        final FixWriter writer = begin(String.valueOf(report.msgType));
        report.writeBody(writer);
        send(writer);
        counters.reportsSent.incrementAndGet();
        store(false);
    }

    /** The session has ended, whatever ended it (a session policy acts here). */
    private void closed()
    {
        if (protectionOpened)
        {
            protectionOpened = false;
            core.protection().closed(entry.connectionId());
        }
        core.sessions().remove(entry.connectionId());
        // the LOGOUT mark: the exact numbers; what was numbered and not written stays stored for a resend
        outbound.detach(this, nextIn);
    }

    private void store(final boolean ended)
    {
        if (outbound != null && !ended)
        {
            outbound.nextIn(nextIn);
        }
    }

    private void refuseLogon(final String reason, final String text, final RequestRejectReason journalReason,
        final String journalDetail)
    {
        if (state == State.CLOSING)
        {
            return;
        }
        counters.logonRefused(reason);
        if (journalReason != null)
        {
            entry.journal(journalReason, journalDetail);
        }
        // a refused logon changes no session's numbers: its Logout is numbered 1 and counted nowhere; its CompIDs
        // are the Logon's swapped, so that the client's engine takes it even when the TargetCompID was the fault
        final boolean named = in.fieldCount() > 0 && in.has(FixTags.SENDER_COMP_ID) && in.has(FixTags.TARGET_COMP_ID);
        final String target = named ? in.string(FixTags.SENDER_COMP_ID) : "UNKNOWN";
        final String sender = named ? in.string(FixTags.TARGET_COMP_ID) : context.compId();
        out.begin("5", sender, null, target, 1, System.currentTimeMillis());
        out.text(FixTags.TEXT, reason + ": " + text);
        closeAfter(out.finish().toByteBuf(ctx.alloc()));
    }

    private void onTestRequest(final long seq)
    {
        final String id = in.string(FixTags.TEST_REQ_ID);
        if (id == null)
        {
            reject(seq, FixTags.REJECT_REQUIRED_TAG_MISSING, FixTags.TEST_REQ_ID,
                "a TestRequest carries TestReqID(112)");
            return;
        }
        send(begin("0").string(FixTags.TEST_REQ_ID, id));
    }

    /**
     * A ResendRequest: each journal-derived report of the range the key still stores is sent again as it was first
     * (its number and body; PossDupFlag Y, OrigSendingTime), and each run of other numbers (session messages, lane-made
     * answers, reports older than the store) is one SequenceReset-GapFill numbered with the run's first MsgSeqNum to
     * the number after it, as FIX fills session messages. The range reaches at most the last number written (what is
     * numbered and not yet written follows the answer). A range of more than {@code fix.resend.max.messages} is refused
     * whole with a Reject naming the cap.
     */
    private void onResendRequest(final long seq)
    {
        counters.resendRequests.incrementAndGet();
        final long begin = in.longValue(FixTags.BEGIN_SEQ_NO);
        final long end = in.longValue(FixTags.END_SEQ_NO);
        if (begin < 1 || end < 0)
        {
            reject(seq, begin < 0 || end < 0 ? FixTags.REJECT_REQUIRED_TAG_MISSING : FixTags.REJECT_VALUE_INCORRECT,
                begin < 1 ? FixTags.BEGIN_SEQ_NO : FixTags.END_SEQ_NO, "a ResendRequest carries BeginSeqNo(7) from 1 " +
                "and EndSeqNo(16), 0 for all");
            return;
        }
        drain();
        final long written = outbound.lastWritten();
        final long last = end == 0 || end >= written ? written : end;
        if (begin > last)
        {
            reject(seq, FixTags.REJECT_VALUE_INCORRECT, FixTags.BEGIN_SEQ_NO, "BeginSeqNo(7) " + begin + " is past " +
                "the last MsgSeqNum sent, " + written);
            return;
        }
        final long count = last - begin + 1;
        if (count > context.resendMaxMessages())
        {
            counters.resendsRefused.incrementAndGet();
            reject(seq, FixTags.REJECT_VALUE_INCORRECT, FixTags.END_SEQ_NO, "a ResendRequest asks for at most " +
                context.resendMaxMessages() + " messages (fix.resend.max.messages); this one asks for " + count +
                ": ask for the range in parts");
            return;
        }
        counters.resentMessages.addAndGet(count);
        long from = begin;
        for (final FixOutbound.Pending stored : outbound.stored(begin, last))
        {
            if (stored.seq() > from)
            {
                gapFill(from, stored.seq());
            }
            write(render(stored.report(), stored.seq(), true));
            counters.resentReports.incrementAndGet();
            from = stored.seq() + 1;
        }
        if (from <= last)
        {
            gapFill(from, last + 1);
        }
    }

    /** A SequenceReset-GapFill numbered {@code from}: the numbers up to {@code newSeqNo} are not sent again. */
    private void gapFill(final long from, final long newSeqNo)
    {
        final long now = System.currentTimeMillis();
        out.begin("4", context.compId(), subSession, apiKeyId, from, now)
            .character(FixTags.POSS_DUP_FLAG, 'Y').timestamp(FixTags.ORIG_SENDING_TIME, now)
            .character(FixTags.GAP_FILL_FLAG, 'Y').number(FixTags.NEW_SEQ_NO, newSeqNo);
        write(out.finish().toByteBuf(ctx.alloc()));
    }

    private void onSequenceReset(final long seq, final boolean gapFill)
    {
        final long newSeqNo = in.longValue(FixTags.NEW_SEQ_NO);
        if (newSeqNo < 1)
        {
            reject(seq, FixTags.REJECT_REQUIRED_TAG_MISSING, FixTags.NEW_SEQ_NO,
                "a SequenceReset carries NewSeqNo(36)");
            return;
        }
        if (newSeqNo < nextIn)
        {
            reject(seq, FixTags.REJECT_VALUE_INCORRECT, FixTags.NEW_SEQ_NO, "NewSeqNo(36) " + newSeqNo + " is below " +
                "the next expected MsgSeqNum " + nextIn);
            return;
        }
        nextIn = newSeqNo;
        if (resendUntil != 0 && nextIn > resendUntil)
        {
            resendUntil = 0;
        }
        if (!gapFill)
        {
            store(false);
        }
    }

    /**
     * An application message: a drop-copy session enters nothing; this build's order-entry session takes no
     * application message yet (order entry over FIX is not built). Either way a BusinessMessageReject.
     */
    private void onApplication(final long seq)
    {
        final String type = in.string(FixTags.MSG_TYPE);
        if (!FixTags.isFix44MsgType(type))
        {
            reject(seq, FixTags.REJECT_INVALID_MSG_TYPE, FixTags.MSG_TYPE, "MsgType(35) " + type + " is not a " +
                "FIX 4.4 message type");
            return;
        }
        if (orderEntry != null && orderEntry.onMessage(in, seq, in.msgTypeByte(), System.currentTimeMillis()))
        {
            counters.orderMessages.incrementAndGet();
            return;
        }
        counters.businessRejects.incrementAndGet();
        final boolean dropCopy = DROP_COPY.equals(subSession);
        final FixWriter writer = begin("j").number(FixTags.REF_SEQ_NUM, seq).string(FixTags.REF_MSG_TYPE, type);
        final String clOrdId = in.string(11);
        if (clOrdId != null)
        {
            writer.text(379, clOrdId);
        }
        writer.number(FixTags.BUSINESS_REJECT_REASON, dropCopy ? FixTags.BUSINESS_NOT_AUTHORIZED :
            FixTags.BUSINESS_UNSUPPORTED_MESSAGE_TYPE);
        writer.text(FixTags.TEXT, dropCopy ? "a drop_copy session cannot enter orders" : "MsgType " + type +
            " is not taken by this venue's FIX lane (docs/FIX.md lists what it takes)");
        send(writer);
    }

    private void reject(final long refSeq, final int reason, final int refTag, final String text)
    {
        counters.sessionRejects.incrementAndGet();
        final FixWriter writer = begin("3").number(FixTags.REF_SEQ_NUM, refSeq);
        if (refTag > 0)
        {
            writer.number(FixTags.REF_TAG_ID, refTag);
        }
        final String type = in.string(FixTags.MSG_TYPE);
        if (type != null)
        {
            writer.text(FixTags.REF_MSG_TYPE, type);
        }
        writer.number(FixTags.SESSION_REJECT_REASON, reason).text(FixTags.TEXT, text);
        send(writer);
    }

    /**
     * Starts a session-level or lane-made message, numbered with the key's next MsgSeqNum (journaled as an ADMIN mark
     * naming the last report numbered before it, so a replay numbers the reports around it as they were).
     */
    private FixWriter begin(final String type)
    {
        beganSeq = outbound.admin();
        return out.begin(type, context.compId(), subSession, apiKeyId, beganSeq, System.currentTimeMillis());
    }

    /** Queues the message begun and writes what is due, in number order. */
    private void send(final FixWriter writer)
    {
        outbound.enqueue(beganSeq, writer.finish().toByteBuf(ctx.alloc()));
        drain();
    }

    private void write(final ByteBuf message)
    {
        lastWriteNs = System.nanoTime();
        ctx.writeAndFlush(message, ctx.voidPromise());
    }

    private void tick()
    {
        if (state != State.ACTIVE)
        {
            return;
        }
        final long now = System.nanoTime();
        final long interval = TimeUnit.MILLISECONDS.toNanos(heartbeatMs);
        if (testRequestSentNs != 0 && now - testRequestSentNs > interval)
        {
            logoutAndClose("no message within HeartBtInt of a TestRequest");
            return;
        }
        if (testRequestSentNs == 0 && now - lastReadNs > interval + interval / 5)
        {
            testRequestSentNs = now;
            send(begin("1").string(FixTags.TEST_REQ_ID, "TEST-" + ++testRequests));
            store(false);
            return;
        }
        if (now - lastWriteNs >= interval)
        {
            send(begin("0"));
            store(false);
        }
    }

    /** A Logout with {@code text}, then the close; for a session not logged on, numbered 1 and counted nowhere. */
    private void logoutAndClose(final String text)
    {
        if (state == State.CLOSING)
        {
            return;
        }
        if (state != State.ACTIVE)
        {
            refuseLogon("MALFORMED", text, null, null);
            return;
        }
        final FixWriter writer = begin("5").text(FixTags.TEXT, text);
        final ByteBuf last = writer.finish().toByteBuf(ctx.alloc());
        // what was numbered before the Logout goes first
        drain();
        store(false);
        closeAfter(last);
    }

    /** Sends the last message and closes once it is written, or a second later whatever happened to it. */
    private void closeAfter(final ByteBuf last)
    {
        state = State.CLOSING;
        cancelTimers();
        ctx.channel().config().setAutoRead(false);
        ctx.writeAndFlush(last).addListener(ChannelFutureListener.CLOSE);
        ctx.executor().schedule(() -> ctx.close(), 1, TimeUnit.SECONDS);
    }

    /** A peer that does not read: stop reading it until its answers drain (the heartbeat rules then end it). */
    @Override
    public void channelWritabilityChanged(final ChannelHandlerContext ctx)
    {
        if (state != State.CLOSING)
        {
            ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void cancelTimers()
    {
        if (logonDeadline != null)
        {
            logonDeadline.cancel(false);
        }
        if (ticker != null)
        {
            ticker.cancel(false);
        }
    }

    /** This session as GET /api/v1/bsl/sessions lists it (read from the HTTP lane's thread). */
    private Map<String, Object> describe()
    {
        final Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("sessionId", entry.connectionId());
        fields.put("lane", FixLane.NAME);
        fields.put("kind", subSession);
        fields.put("account", account);
        fields.put("apiKeyId", apiKeyId);
        fields.put("remote", remoteText);
        fields.put("openedAtMs", openedAtMs);
        fields.put("senderCompId", apiKeyId);
        fields.put("targetCompId", context.compId());
        // the session policy of spec 4.3, named so a client sees what it gets; the sweep itself is built elsewhere
        fields.put("cancelOnDisconnect", protectionOpened && onboarding.cancelOnDisconnect());
        if (protectionOpened)
        {
            fields.put("cancelOnDisconnectGraceMs", onboarding.codGraceMs());
            fields.put("orderMessagesPerSecond", context.orderMessagesPerSecond(onboarding.tier()));
        }
        return fields;
    }
}
