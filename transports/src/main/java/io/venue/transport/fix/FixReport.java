package io.venue.transport.fix;

/**
 * One application message the venue sends a FIX session about an order, made from the journal by {@link FixReports}
 * (or, for a status or a refusal before the journal, by the session itself): an ExecutionReport (8), an
 * OrderCancelReject (9) or an OrderMassCancelReport (r). Immutable: made on the deriver's thread, written on the
 * session's. {@link #credentialId} is the order-entry session it answers (0: none, an order of another lane);
 * {@link #account} ({@code 0x} and 40 lowercase hex digits) the drop-copy sessions that see it.
 */
final class FixReport
{
    /** No value for a quantity or price field: the field is not written. */
    static final long NONE = -1;

    final char msgType;
    final long credentialId;
    final String account;
    final String orderId;
    final String clOrdId;
    final String origClOrdId;
    final String execId;
    final char execType;
    final char ordStatus;
    final String symbol;
    final char side;
    final char ordType;
    final long price;
    final long orderQty;
    final long lastQty;
    final long lastPx;
    final long leavesQty;
    final long cumQty;
    final long avgPx;
    final long transactTimeMs;
    final String text;
    final int rejectReason;
    final long commandSequence;
    /** OrderCancelReject: 1 to a cancel, 2 to a replace; OrderMassCancelReport: the request type (1 or 7). */
    final char responseTo;
    /** OrderMassCancelReport: the orders cancelled. */
    final long affected;

    private FixReport(final Builder b)
    {
        msgType = b.msgType;
        credentialId = b.credentialId;
        account = b.account;
        orderId = b.orderId;
        clOrdId = b.clOrdId;
        origClOrdId = b.origClOrdId;
        execId = b.execId;
        execType = b.execType;
        ordStatus = b.ordStatus;
        symbol = b.symbol;
        side = b.side;
        ordType = b.ordType;
        price = b.price;
        orderQty = b.orderQty;
        lastQty = b.lastQty;
        lastPx = b.lastPx;
        leavesQty = b.leavesQty;
        cumQty = b.cumQty;
        avgPx = b.avgPx;
        transactTimeMs = b.transactTimeMs;
        text = b.text;
        rejectReason = b.rejectReason;
        commandSequence = b.commandSequence;
        responseTo = b.responseTo;
        affected = b.affected;
    }

    /**
     * Writes the report's body after {@code writer.begin(...)} (the session numbers it). Every field QuickFIX/J's FIX
     * 4.4 dictionary requires of the message type is written.
     */
    void writeBody(final FixWriter writer)
    {
        switch (msgType)
        {
            case '9' ->
            {
                writer.string(FixTags.ORDER_ID, orderId).text(FixTags.CL_ORD_ID, clOrdId)
                    .text(FixTags.ORIG_CL_ORD_ID, origClOrdId == null ? "NONE" : origClOrdId)
                    .character(FixTags.ORD_STATUS, ordStatus).character(FixTags.CXL_REJ_RESPONSE_TO, responseTo)
                    .number(FixTags.CXL_REJ_REASON, rejectReason);
                if (text != null)
                {
                    writer.text(FixTags.TEXT, text);
                }
            }
            case 'r' ->
            {
                writer.text(FixTags.CL_ORD_ID, clOrdId).string(FixTags.ORDER_ID, orderId)
                    .character(FixTags.MASS_CANCEL_REQUEST_TYPE, responseTo)
                    .character(FixTags.MASS_CANCEL_RESPONSE, ordStatus);
                if (ordStatus == '0')
                {
                    writer.number(FixTags.MASS_CANCEL_REJECT_REASON, rejectReason);
                }
                else
                {
                    writer.number(FixTags.TOTAL_AFFECTED_ORDERS, affected);
                }
                if (text != null)
                {
                    writer.text(FixTags.TEXT, text);
                }
            }
            default -> executionReport(writer);
        }
    }

    private void executionReport(final FixWriter writer)
    {
        writer.string(FixTags.ORDER_ID, orderId);
        if (clOrdId != null)
        {
            writer.text(FixTags.CL_ORD_ID, clOrdId);
        }
        if (origClOrdId != null)
        {
            writer.text(FixTags.ORIG_CL_ORD_ID, origClOrdId);
        }
        writer.string(FixTags.EXEC_ID, execId);
        if (commandSequence > 0)
        {
            writer.number(FixTags.SECONDARY_EXEC_ID, commandSequence);
        }
        writer.character(FixTags.EXEC_TYPE, execType).character(FixTags.ORD_STATUS, ordStatus);
        if (rejectReason >= 0)
        {
            writer.number(FixTags.ORD_REJ_REASON, rejectReason);
        }
        writer.text(FixTags.ACCOUNT, account).text(FixTags.SYMBOL, symbol).character(FixTags.SIDE, side);
        if (ordType != 0)
        {
            writer.character(FixTags.ORD_TYPE, ordType);
        }
        decimal(writer, FixTags.PRICE, price);
        decimal(writer, FixTags.ORDER_QTY, orderQty);
        decimal(writer, FixTags.LAST_QTY, lastQty);
        decimal(writer, FixTags.LAST_PX, lastPx);
        decimal(writer, FixTags.LEAVES_QTY, leavesQty);
        decimal(writer, FixTags.CUM_QTY, cumQty);
        decimal(writer, FixTags.AVG_PX, avgPx);
        writer.timestamp(FixTags.TRANSACT_TIME, transactTimeMs);
        if (text != null)
        {
            writer.text(FixTags.TEXT, text);
        }
    }

    private static void decimal(final FixWriter writer, final int tag, final long micros)
    {
        if (micros >= 0)
        {
            writer.decimal(tag, micros);
        }
    }

    /** Builds a report; every quantity and price {@link #NONE} until set. */
    static final class Builder
    {
        private char msgType = '8';
        private long credentialId;
        private String account;
        private String orderId = "NONE";
        private String clOrdId;
        private String origClOrdId;
        private String execId;
        private char execType;
        private char ordStatus;
        private String symbol = "NONE";
        private char side = '1';
        private char ordType;
        private long price = NONE;
        private long orderQty = NONE;
        private long lastQty = NONE;
        private long lastPx = NONE;
        private long leavesQty = NONE;
        private long cumQty = NONE;
        private long avgPx = NONE;
        private long transactTimeMs;
        private String text;
        private int rejectReason = -1;
        private long commandSequence;
        private char responseTo;
        private long affected;

        Builder msgType(final char type)
        {
            msgType = type;
            return this;
        }

        Builder to(final long credentialId, final String account)
        {
            this.credentialId = credentialId;
            this.account = account;
            return this;
        }

        Builder order(final String orderId, final String clOrdId, final String origClOrdId)
        {
            this.orderId = orderId;
            this.clOrdId = clOrdId;
            this.origClOrdId = origClOrdId;
            return this;
        }

        Builder exec(final String execId, final char execType, final char ordStatus)
        {
            this.execId = execId;
            this.execType = execType;
            this.ordStatus = ordStatus;
            return this;
        }

        Builder instrument(final String symbol, final char side, final char ordType, final long price,
            final long orderQty)
        {
            this.symbol = symbol;
            this.side = side;
            this.ordType = ordType;
            this.price = price;
            this.orderQty = orderQty;
            return this;
        }

        Builder fill(final long lastQty, final long lastPx)
        {
            this.lastQty = lastQty;
            this.lastPx = lastPx;
            return this;
        }

        Builder quantities(final long leavesQty, final long cumQty, final long avgPx)
        {
            this.leavesQty = leavesQty;
            this.cumQty = cumQty;
            this.avgPx = avgPx;
            return this;
        }

        Builder time(final long transactTimeMs, final long commandSequence)
        {
            this.transactTimeMs = transactTimeMs;
            this.commandSequence = commandSequence;
            return this;
        }

        Builder text(final String text)
        {
            this.text = text;
            return this;
        }

        Builder reject(final int reason)
        {
            this.rejectReason = reason;
            return this;
        }

        Builder response(final char responseTo, final char status, final long affected)
        {
            this.responseTo = responseTo;
            this.ordStatus = status;
            this.affected = affected;
            return this;
        }

        FixReport build()
        {
            return new FixReport(this);
        }
    }
}
