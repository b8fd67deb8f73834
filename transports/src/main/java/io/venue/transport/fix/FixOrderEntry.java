package io.venue.transport.fix;

import io.venue.codec.Hex;
import io.venue.entry.protect.ProtectionRequests;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The application messages of one {@code order_entry} session (docs/FIX.md, "Order entry"): NewOrderSingle (D),
 * OrderCancelRequest (F), OrderCancelReplaceRequest (G), OrderMassCancelRequest (q) and OrderStatusRequest (H). Each
 * order message becomes one journaled command naming the session's credential ({@link FixOrderCommands}), handed to
 * the sequencer on the lanes' protection ring; its answers are the ExecutionReports {@link FixReports} derives from
 * the engine's events. What the lane refuses before the journal (a missing or malformed field: a session Reject; a
 * value the venue does not take: a report) changes nothing. Runs on the session's thread.
 */
final class FixOrderEntry
{
    /** How the session answers. */
    interface Replies
    {
        void report(FixReport report);

        void reject(long refSeq, int reason, int refTag, String text);
    }

    /** Replaces remembered per session: a later cancel or replace may name an order by the ClOrdID of one of them. */
    static final int MAX_ALIASES = 10_000;
    private static final String SIDES = "123456789ABCDEFG";

    private final long connectionId;
    private final long credentialId;
    private final String account;
    private final byte[] accountBytes;
    private final ProtectionRequests ring;
    private final FixReports reports;
    private final Replies replies;
    /** The session's order-entry message rate (spec 8.4); null: none but the engine's per-account action limit. */
    private final FixMessageRate rate;
    private final FixOrderCommands commands = new FixOrderCommands();
    private final byte[] orderId = new byte[32];
    /** A replace's ClOrdID to the order it replaced (the order keeps its id), least recently used dropped. */
    private final Map<String, String> aliases = new LinkedHashMap<>(64, 0.75f, true)
    {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<String, String> eldest)
        {
            return size() > MAX_ALIASES;
        }
    };
    private long laneReports;
    private FixMessage in;
    private long seq;

    FixOrderEntry(final long connectionId, final long credentialId, final String account, final ProtectionRequests ring,
        final FixReports reports, final Replies replies, final FixMessageRate rate)
    {
        this.rate = rate;
        this.connectionId = connectionId;
        this.credentialId = credentialId;
        this.account = account;
        this.accountBytes = Hex.fromHex(account.toLowerCase(Locale.ROOT));
        this.ring = ring;
        this.reports = reports;
        this.replies = replies;
    }

    /** @return false when {@code type} is not one of the five taken here (the caller answers it). */
    boolean onMessage(final FixMessage message, final long seq, final byte type, final long nowMs)
    {
        this.in = message;
        this.seq = seq;
        switch (type)
        {
            case 'D' -> newOrder(nowMs);
            case 'F' -> cancel(nowMs);
            case 'G' -> replace(nowMs);
            case 'q' -> massCancel(nowMs);
            case 'H' -> status(nowMs);
            default ->
            {
                return false;
            }
        }
        return true;
    }

    private void newOrder(final long nowMs)
    {
        final String clOrdId = in.string(FixTags.CL_ORD_ID);
        final CharSequence symbolText = instrument();
        if (clOrdId == null || symbolText == null || !in.has(FixTags.SIDE) || !in.has(FixTags.ORD_TYPE) ||
            !in.has(FixTags.ORDER_QTY))
        {
            replies.reject(seq, FixTags.REJECT_REQUIRED_TAG_MISSING, clOrdId == null ? FixTags.CL_ORD_ID :
                symbolText == null ? FixTags.SYMBOL : !in.has(FixTags.SIDE) ? FixTags.SIDE :
                !in.has(FixTags.ORD_TYPE) ? FixTags.ORD_TYPE : FixTags.ORDER_QTY, "a NewOrderSingle carries " +
                "ClOrdID(11), Symbol(55) or SecurityID(48), Side(54), OrdType(40) and OrderQty(38)");
            return;
        }
        final String symbol = symbolText.toString();
        final char sideChar = charOf(FixTags.SIDE);
        final char side = SIDES.indexOf(sideChar) >= 0 ? sideChar : '1';
        final FixClOrdIds ids = reports.clOrdIds();
        if (ids != null && in.isChar(FixTags.POSS_DUP_FLAG, 'Y') && validClOrdId(clOrdId))
        {
            // sent again (after an unclean stop, say): a ClOrdID the journal has is its order, never a second one
            final long[] known = ids.statusOf(credentialId, clOrdId);
            if (known != null)
            {
                duplicate(clOrdId, symbol, side, known, nowMs);
                return;
            }
            if (ids.droppedFor(credentialId))
            {
                laneReject(clOrdId, symbol, side, 6, "DUPLICATE_UNVERIFIABLE: a NewOrderSingle with " +
                    "PossDupFlag(43)=Y whose ClOrdID the venue no longer remembers (fix.clordid.index.max) may " +
                    "have been taken: not taken again; send it with a new ClOrdID if it is new", nowMs);
                return;
            }
        }
        final String refusal = newOrderRefusal(clOrdId, symbol, sideChar);
        if (refusal != null)
        {
            laneReject(clOrdId, symbol, side, refusalReason, refusal, nowMs);
            return;
        }
        final long parsed = FixSymbols.parse(symbol);
        if (rate != null && !rate.tryTake(nowMs))
        {
            laneReject(clOrdId, symbol, side, 3, rateLimited(), nowMs);
            return;
        }
        final int length = commands.place(credentialId, accountBytes, clOrdId, sendingTime(nowMs),
            FixSymbols.market(parsed), FixSymbols.book(parsed), sideChar == '1', price, qty, stp, timeInForce,
            isMarket, reduceOnly, expiresAtMs);
        if (!ring.offer(connectionId, 0, commands.buffer(), 0, length))
        {
            laneReject(clOrdId, symbol, side, 99, "QUEUE_LIMIT: the node's order queue is full; send it again " +
                "later", nowMs);
        }
        else if (ids != null)
        {
            ids.taken(credentialId, clOrdId);
        }
    }

    /**
     * A PossDup NewOrderSingle whose ClOrdID the journal has: an ExecutionReport 150=I of that order, as for a status
     * request (the order open: its view; done: its last status as its reports said, 3 when its last report was under
     * a replace's ClOrdID), Text {@code DUPLICATE_CLORDID}. Nothing is journaled.
     */
    private void duplicate(final String clOrdId, final String symbol, final char side, final long[] known,
        final long nowMs)
    {
        final String target = resolve(clOrdId);
        final FixReports.OrderView view = reports.order(target);
        final String execId = "L" + connectionId + "-" + ++laneReports;
        final String text = "DUPLICATE_CLORDID: ClOrdID " + clOrdId + " was taken already (PossDupFlag(43)=Y): " +
            "this is its order's status, no new order";
        if (view != null)
        {
            replies.report(new FixReport.Builder().to(credentialId, account)
                .order(view.orderId(), clOrdId, null).exec(execId, 'I', view.status())
                .instrument(view.symbol(), view.side(), view.ordType(), view.price(), view.qty())
                .quantities(view.leaves(), view.cum(), view.avgPx()).time(nowMs, 0).text(text).build());
            return;
        }
        final char last = (char)known[0];
        final char status = last == '2' || last == '4' || last == 'C' || last == '8' || last == FixClOrdIds.PENDING ?
            last : '3';
        replies.report(new FixReport.Builder().to(credentialId, account).order(target, clOrdId, null)
            .exec(execId, 'I', status).instrument(symbol, side, (char)0, FixReport.NONE, FixReport.NONE)
            .quantities(0, known[1], known[2]).time(nowMs, 0).text(text).build());
    }

    // what newOrderRefusal read, for the command
    private int refusalReason;
    private long price;
    private long qty;
    private int stp;
    private int timeInForce;
    private boolean isMarket;
    private boolean reduceOnly;
    private long expiresAtMs;

    /** Why the venue does not take the NewOrderSingle (its fields read into this object's fields), or null. */
    private String newOrderRefusal(final String clOrdId, final String symbol, final char side)
    {
        refusalReason = 11;
        if (!validClOrdId(clOrdId))
        {
            refusalReason = 99;
            return "ClOrdID(11) is 1 to " + FixOrderCommands.MAX_CL_ORD_ID + " printable US-ASCII characters";
        }
        if (FixSymbols.parse(symbol) == FixSymbols.MALFORMED)
        {
            refusalReason = 1;
            return "UNKNOWN_MARKET: Symbol(55) or SecurityID(48) is a market id, with .YES or .NO for an outcome " +
                "market's book (docs/FIX.md)";
        }
        if (side != '1' && side != '2')
        {
            return "Side(54) is 1 (buy) or 2 (sell)";
        }
        final char ordType = charOf(FixTags.ORD_TYPE);
        if (ordType != '1' && ordType != '2')
        {
            return "OrdType(40) is 1 (market) or 2 (limit)";
        }
        isMarket = ordType == '1';
        qty = FixDecimal.micros(in.view(FixTags.ORDER_QTY));
        if (qty < 0)
        {
            refusalReason = 13;
            return "INVALID_QTY: " + FixDecimal.problem(FixTags.ORDER_QTY, qty);
        }
        price = 0;
        if (in.has(FixTags.PRICE))
        {
            if (isMarket)
            {
                return "a market order (OrdType 1) carries no Price(44)";
            }
            price = FixDecimal.micros(in.view(FixTags.PRICE));
            if (price < 0)
            {
                refusalReason = 99;
                return "INVALID_PRICE: " + FixDecimal.problem(FixTags.PRICE, price);
            }
        }
        else if (!isMarket)
        {
            return "a limit order (OrdType 2) carries Price(44)";
        }
        final char tif = in.has(FixTags.TIME_IN_FORCE) ? charOf(FixTags.TIME_IN_FORCE) : '0';
        // the journal's TimeInForce: GTC 0, IOC 1, FOK 2, POST_ONLY 3
        switch (tif)
        {
            case '0', '1', '6' -> timeInForce = 0;
            case '3' -> timeInForce = 1;
            case '4' -> timeInForce = 2;
            default ->
            {
                return "TimeInForce(59) is 0 (day), 1 (GTC), 3 (IOC), 4 (FOK) or 6 (GTD, with ExpireTime)";
            }
        }
        reduceOnly = false;
        boolean postOnly = false;
        if (in.has(FixTags.EXEC_INST))
        {
            final String execInst = in.string(FixTags.EXEC_INST);
            for (final String value : execInst.split(" ", -1))
            {
                switch (value)
                {
                    case "6" -> postOnly = true;
                    case "E" -> reduceOnly = true;
                    default ->
                    {
                        return "ExecInst(18) takes 6 (post-only) and E (reduce-only), space separated";
                    }
                }
            }
        }
        if (postOnly)
        {
            if (timeInForce != 0 || isMarket)
            {
                return "ExecInst(18) 6 (post-only) is for a limit order that may rest (TimeInForce 0, 1 or 6)";
            }
            timeInForce = 3;
        }
        stp = 0;
        if (in.has(FixTags.SELF_MATCH_PREVENTION))
        {
            final long mode = in.longValue(FixTags.SELF_MATCH_PREVENTION);
            // 1 cancel the incoming (taker), 2 cancel the resting (maker), 3 reject the incoming, 4 skip self
            if (mode < 1 || mode > 4)
            {
                return "tag 2964 (SelfMatchPreventionInstruction) is 1 (cancel taker), 2 (cancel maker), " +
                    "3 (reject) or 4 (skip self)";
            }
            stp = mode == 1 ? 2 : mode == 2 ? 1 : (int)mode;
        }
        expiresAtMs = -1;
        if (in.has(FixTags.EXPIRE_TIME))
        {
            final long at = FixTime.parse(in, FixTags.EXPIRE_TIME);
            if (at == FixTime.INVALID || at < 0)
            {
                return "ExpireTime(126) is a UTCTimestamp, YYYYMMDD-HH:MM:SS[.sss]";
            }
            if (tif == '3' || tif == '4' || isMarket)
            {
                return "ExpireTime(126) is for an order that may rest";
            }
            expiresAtMs = at;
        }
        else if (tif == '6')
        {
            return "TimeInForce(59) 6 (GTD) needs ExpireTime(126)";
        }
        return null;
    }

    private void cancel(final long nowMs)
    {
        final String clOrdId = in.string(FixTags.CL_ORD_ID);
        if (clOrdId == null || !in.has(FixTags.ORIG_CL_ORD_ID) && !in.has(FixTags.ORDER_ID))
        {
            replies.reject(seq, FixTags.REJECT_REQUIRED_TAG_MISSING, clOrdId == null ? FixTags.CL_ORD_ID :
                FixTags.ORIG_CL_ORD_ID, "an OrderCancelRequest carries ClOrdID(11) and OrigClOrdID(41) or OrderID(37)");
            return;
        }
        final String target = target();
        if (!validClOrdId(clOrdId) || target == null)
        {
            cancelReject(clOrdId, target, '1', target == null ? 1 : 99, target == null ? "UNKNOWN_ORDER: OrderID(37) " +
                "is the venue's order id, 64 lowercase hex digits" : "ClOrdID(11) is 1 to " +
                FixOrderCommands.MAX_CL_ORD_ID + " printable US-ASCII characters", nowMs);
            return;
        }
        if (rate != null && !rate.tryTake(nowMs))
        {
            cancelReject(clOrdId, target, '1', 99, rateLimited(), nowMs);
            return;
        }
        final int length = commands.cancel(credentialId, accountBytes, clOrdId, sendingTime(nowMs),
            Hex.fromHex(target));
        if (!ring.offer(connectionId, 0, commands.buffer(), 0, length))
        {
            cancelReject(clOrdId, target, '1', 99, "QUEUE_LIMIT: the node's order queue is full", nowMs);
        }
    }

    private void replace(final long nowMs)
    {
        final String clOrdId = in.string(FixTags.CL_ORD_ID);
        if (clOrdId == null || !in.has(FixTags.ORIG_CL_ORD_ID) && !in.has(FixTags.ORDER_ID) ||
            !in.has(FixTags.ORDER_QTY) || !in.has(FixTags.PRICE))
        {
            replies.reject(seq, FixTags.REJECT_REQUIRED_TAG_MISSING, clOrdId == null ? FixTags.CL_ORD_ID :
                !in.has(FixTags.ORDER_QTY) ? FixTags.ORDER_QTY : !in.has(FixTags.PRICE) ? FixTags.PRICE :
                FixTags.ORIG_CL_ORD_ID, "an OrderCancelReplaceRequest carries ClOrdID(11), OrigClOrdID(41) or " +
                "OrderID(37), OrderQty(38) and Price(44)");
            return;
        }
        final String target = target();
        final long newPrice = FixDecimal.micros(in.view(FixTags.PRICE));
        final long total = FixDecimal.micros(in.view(FixTags.ORDER_QTY));
        String refusal = null;
        if (!validClOrdId(clOrdId))
        {
            refusal = "ClOrdID(11) is 1 to " + FixOrderCommands.MAX_CL_ORD_ID + " printable US-ASCII characters";
        }
        else if (target == null)
        {
            refusal = "UNKNOWN_ORDER: OrderID(37) is the venue's order id, 64 lowercase hex digits";
        }
        else if (newPrice < 0)
        {
            refusal = "INVALID_PRICE: " + FixDecimal.problem(FixTags.PRICE, newPrice);
        }
        else if (total < 0)
        {
            refusal = "INVALID_QTY: " + FixDecimal.problem(FixTags.ORDER_QTY, total);
        }
        // FIX's OrderQty is the order's whole size; the engine's amend takes what may still fill
        final FixReports.OrderView view = refusal == null ? reports.order(target) : null;
        final long filled = view == null ? 0 : view.cum();
        if (refusal == null && total <= filled)
        {
            refusal = "INVALID_QTY: OrderQty(38) " + FixDecimal.text(total) + " is not above what the order filled, " +
                FixDecimal.text(filled) + "; cancel it instead";
        }
        if (refusal != null)
        {
            cancelReject(clOrdId, target, '2', target == null ? 1 : 99, refusal, nowMs);
            return;
        }
        if (rate != null && !rate.tryTake(nowMs))
        {
            cancelReject(clOrdId, target, '2', 99, rateLimited(), nowMs);
            return;
        }
        final int length = commands.amend(credentialId, accountBytes, clOrdId, sendingTime(nowMs),
            Hex.fromHex(target), newPrice, total - filled);
        if (!ring.offer(connectionId, 0, commands.buffer(), 0, length))
        {
            cancelReject(clOrdId, target, '2', 99, "QUEUE_LIMIT: the node's order queue is full", nowMs);
            return;
        }
        aliases.put(clOrdId, target);
    }

    private void massCancel(final long nowMs)
    {
        final String clOrdId = in.string(FixTags.CL_ORD_ID);
        if (clOrdId == null || !in.has(FixTags.MASS_CANCEL_REQUEST_TYPE))
        {
            replies.reject(seq, FixTags.REJECT_REQUIRED_TAG_MISSING, clOrdId == null ? FixTags.CL_ORD_ID :
                FixTags.MASS_CANCEL_REQUEST_TYPE, "an OrderMassCancelRequest carries ClOrdID(11) and " +
                "MassCancelRequestType(530)");
            return;
        }
        final char type = charOf(FixTags.MASS_CANCEL_REQUEST_TYPE);
        long market = -1;
        String refusal = null;
        if (!validClOrdId(clOrdId))
        {
            refusal = "ClOrdID(11) is 1 to " + FixOrderCommands.MAX_CL_ORD_ID + " printable US-ASCII characters";
        }
        else if (type == '1')
        {
            final CharSequence symbol = instrument();
            final long parsed = symbol == null ? FixSymbols.MALFORMED : FixSymbols.parse(symbol);
            if (parsed == FixSymbols.MALFORMED)
            {
                refusal = "MassCancelRequestType(530) 1 needs Symbol(55) or SecurityID(48), a market id";
            }
            market = FixSymbols.market(parsed);
        }
        else if (type != '7')
        {
            refusal = "MassCancelRequestType(530) is 1 (a market's orders) or 7 (all orders)";
        }
        if (refusal != null)
        {
            final boolean known = type >= '1' && type <= '7';
            replies.report(new FixReport.Builder().msgType('r').to(credentialId, account).order("NONE",
                clOrdId, null).response(known ? type : '7', '0', 0).reject(type == '1' || type == '7' ? 99 : 0)
                .text(refusal).time(nowMs, 0).build());
            return;
        }
        if (rate != null && !rate.tryTake(nowMs))
        {
            replies.report(new FixReport.Builder().msgType('r').to(credentialId, account).order("NONE", clOrdId, null)
                .response(type, '0', 0).reject(99).text(rateLimited()).time(nowMs, 0).build());
            return;
        }
        final int length = commands.cancelAll(credentialId, accountBytes, clOrdId, sendingTime(nowMs), market);
        if (!ring.offer(connectionId, 0, commands.buffer(), 0, length))
        {
            replies.report(new FixReport.Builder().msgType('r').to(credentialId, account).order("NONE", clOrdId, null)
                .response(type, '0', 0).reject(99).text("QUEUE_LIMIT: the node's order queue is full")
                .time(nowMs, 0).build());
        }
    }

    private void status(final long nowMs)
    {
        final String clOrdId = in.string(FixTags.CL_ORD_ID);
        if (clOrdId == null && !in.has(FixTags.ORDER_ID))
        {
            replies.reject(seq, FixTags.REJECT_REQUIRED_TAG_MISSING, FixTags.CL_ORD_ID,
                "an OrderStatusRequest carries ClOrdID(11) or OrderID(37)");
            return;
        }
        final String target = in.has(FixTags.ORDER_ID) ? orderIdOf(in.string(FixTags.ORDER_ID)) :
            validClOrdId(clOrdId) ? resolve(clOrdId) : null;
        final FixReports.OrderView view = target == null ? null : reports.order(target);
        final String execId = "L" + connectionId + "-" + ++laneReports;
        if (view == null)
        {
            final CharSequence symbol = instrument();
            final char side = charOf(FixTags.SIDE);
            replies.report(new FixReport.Builder().to(credentialId, account)
                .order(target == null ? "NONE" : target, clOrdId, null).exec(execId, 'I', '8')
                .instrument(symbol == null ? "NONE" : symbol.toString(), SIDES.indexOf(side) >= 0 ? side : '1',
                    (char)0, FixReport.NONE, FixReport.NONE)
                .quantities(0, 0, 0).time(nowMs, 0)
                .text("UNKNOWN_ORDER: no open order of this credential has this id (a filled or cancelled " +
                    "order's reports are in the journal)").build());
            return;
        }
        replies.report(new FixReport.Builder().to(credentialId, account)
            .order(view.orderId(), view.clOrdId(), null).exec(execId, 'I', view.status())
            .instrument(view.symbol(), view.side(), view.ordType(), view.price(), view.qty())
            .quantities(view.leaves(), view.cum(), view.avgPx()).time(nowMs, 0).build());
    }

    /** The order a cancel or replace names: OrderID(37), else OrigClOrdID(41); null for a malformed OrderID. */
    private String target()
    {
        if (in.has(FixTags.ORDER_ID))
        {
            return orderIdOf(in.string(FixTags.ORDER_ID));
        }
        final String orig = in.string(FixTags.ORIG_CL_ORD_ID);
        return validClOrdId(orig) ? resolve(orig) : null;
    }

    /** A ClOrdID's order: a replace's ClOrdID names the order it replaced; a NewOrderSingle's is derived. */
    private String resolve(final String clOrdId)
    {
        final String alias = aliases.get(clOrdId);
        if (alias != null)
        {
            return alias;
        }
        commands.orderId(credentialId, accountBytes, clOrdId, orderId);
        return Hex.toHex(orderId);
    }

    private static String orderIdOf(final String text)
    {
        if (text == null || text.length() != 64)
        {
            return null;
        }
        for (int i = 0; i < 64; i++)
        {
            if (Hex.lowerDigit(text.charAt(i)) < 0)
            {
                return null;
            }
        }
        return text;
    }

    /** Symbol(55), or SecurityID(48) when there is no Symbol (both: they must agree); null when neither. */
    private CharSequence instrument()
    {
        final String symbol = in.string(FixTags.SYMBOL);
        final String security = in.string(FixTags.SECURITY_ID);
        if (symbol != null && security != null && !symbol.equals(security))
        {
            return "(Symbol(55) and SecurityID(48) disagree)";
        }
        return symbol != null ? symbol : security;
    }

    static boolean validClOrdId(final String clOrdId)
    {
        if (clOrdId == null || clOrdId.isEmpty() || clOrdId.length() > FixOrderCommands.MAX_CL_ORD_ID)
        {
            return false;
        }
        for (int i = 0; i < clOrdId.length(); i++)
        {
            final char c = clOrdId.charAt(i);
            if (c < 0x21 || c > 0x7e)
            {
                return false;
            }
        }
        return true;
    }

    private char charOf(final int tag)
    {
        final CharSequence value = in.view(tag);
        return value == null || value.length() != 1 ? 0 : value.charAt(0);
    }

    private long sendingTime(final long nowMs)
    {
        final long sent = FixTime.parse(in, FixTags.SENDING_TIME);
        return sent < 0 ? nowMs : sent;
    }

    /** The rate's refusal: the engine's code for a rate limit, and the limit. */
    private String rateLimited()
    {
        return "RATE_LIMITED: more than " + rate.perSecond() + " order-entry messages a second on this session " +
            "(fix.order.messages.per.second; spec 8.4); nothing was journaled";
    }

    private void laneReject(final String clOrdId, final String symbol, final char side, final int reason,
        final String text, final long nowMs)
    {
        replies.report(new FixReport.Builder().to(credentialId, account).order("NONE", clOrdId, null)
            .exec("L" + connectionId + "-" + ++laneReports, '8', '8')
            .instrument(symbol, side, (char)0, FixReport.NONE, FixReport.NONE).quantities(0, 0, 0)
            .reject(reason).text(text).time(nowMs, 0).build());
    }

    private void cancelReject(final String clOrdId, final String target, final char responseTo, final int reason,
        final String text, final long nowMs)
    {
        final FixReports.OrderView view = target == null ? null : reports.order(target);
        final String orig = in.string(FixTags.ORIG_CL_ORD_ID);
        replies.report(new FixReport.Builder().msgType('9').to(credentialId, account)
            .order(target == null ? "NONE" : target, clOrdId, orig)
            .response(responseTo, view == null ? '8' : view.status(), 0).reject(reason).text(text)
            .time(nowMs, 0).build());
    }
}
