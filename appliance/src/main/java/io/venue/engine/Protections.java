package io.venue.engine;

import io.venue.engine.market.Markets;
import io.venue.engine.protect.ProtectionTable;
import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.CancelOnDisconnectArmDecoder;
import io.venue.journal.sbe.DeadManArmDecoder;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.ProtectionAction;
import io.venue.journal.sbe.ProtectionKind;
import io.venue.journal.sbe.SessionClosedDecoder;
import io.venue.journal.sbe.SessionKind;
import io.venue.journal.sbe.SessionOpenedDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The protection commands (journal version 12: docs/ENGINE.md, "Protections"): sessions opened and closed, dead-man
 * timers armed, renewed and disarmed, explicit cancel-on-disconnect arms, and the sweeps they fire. Every deadline is a
 * stamped command time plus a duration, and fires at the first command stamped at or after it ({@link #fire}, before
 * that command is applied, as order expiry does): a {@code ProtectionTick} the sequencer journals when a deadline is
 * due
 * is such a command, so a replay fires every sweep at the same command. A fire cancels every covered order with its
 * reason (CANCELLED_DISCONNECT or CANCELLED_DEAD_MAN), then writes one {@code ProtectionChanged} FIRED with the count.
 */
final class Protections
{
    /** The longest countdown or grace the engine takes (one hour); the lanes' own bounds are tighter. */
    static final long MAX_DURATION_MS = 3_600_000L;

    private final ShardState state;
    private final OrderEntry orderEntry;
    private final ProtectionTable table;
    private final UnsafeBuffer account = new UnsafeBuffer(new byte[20]);
    private long nowMs;

    Protections(final ShardState state, final OrderEntry orderEntry)
    {
        this.state = state;
        this.orderEntry = orderEntry;
        this.table = state.protections;
    }

    void command(final long nowMs)
    {
        this.nowMs = nowMs;
    }

    /** Fires every entry due at {@code nowMs}, in deadline then key order. */
    void fire(final long nowMs)
    {
        for (int slot = table.nextDue(nowMs); slot >= 0; slot = table.nextDue(nowMs))
        {
            final byte kind = table.kindOf(slot);
            final long market = table.marketOf(slot);
            final long session = table.sessionOf(slot);
            final long credential = table.credentialOf(slot);
            final long deadline = table.deadlineOf(slot);
            table.accountInto(slot, account, 0);
            table.remove(slot);
            state.protectionChanged(slot);
            final boolean disconnect = kind == ProtectionTable.DISCONNECT;
            final int cancelled = sweep(account, market,
                disconnect ? OrderDoneReason.CANCELLED_DISCONNECT : OrderDoneReason.CANCELLED_DEAD_MAN);
            changed(disconnect ? ProtectionKind.DISCONNECT : ProtectionKind.DEAD_MAN, ProtectionAction.FIRED, account,
                0, market, session, credential, deadline, cancelled);
        }
    }

    /** Cancels the account's orders in a market (or all) with {@code reason}; the count cancelled. */
    private int sweep(final DirectBuffer accountBuffer, final long market, final OrderDoneReason reason)
    {
        final int accountNumber = state.accounts.find(accountBuffer, 0);
        if (accountNumber < 0)
        {
            return 0;
        }
        int marketNumber = -1;
        if (market != ProtectionTable.ALL_MARKETS)
        {
            marketNumber = state.markets.find(market);
            if (marketNumber == Markets.MISSING)
            {
                return 0;
            }
        }
        return orderEntry.cancelAll(accountNumber, marketNumber, reason);
    }

    void onSessionOpened(final SessionOpenedDecoder d)
    {
        final DirectBuffer buffer = d.buffer();
        final int accountAt = d.offset() + SessionOpenedDecoder.accountEncodingOffset();
        final long credential = buffer.getLong(d.offset() + SessionOpenedDecoder.credentialIdEncodingOffset(),
            ByteOrder.BIG_ENDIAN);
        final long sessionId = d.sessionId();
        if (d.graceMs() > MAX_DURATION_MS)
        {
            changed(ProtectionKind.SESSION, ProtectionAction.REFUSED_BOUNDS, buffer, accountAt,
                ProtectionTable.ALL_MARKETS, sessionId, credential, 0, 0);
            return;
        }
        if (table.findSession(sessionId) >= 0)
        {
            changed(ProtectionKind.SESSION, ProtectionAction.REFUSED_UNKNOWN, buffer, accountAt,
                ProtectionTable.ALL_MARKETS, sessionId, credential, 0, 0);
            return;
        }
        // a reconnect of the same credential (a wallet session: of the same account) within the grace keeps the orders
        for (int slot = table.next(0, ProtectionTable.DISCONNECT, buffer, accountAt, true, credential); slot >= 0;
            slot = table.next(slot + 1, ProtectionTable.DISCONNECT, buffer, accountAt, true, credential))
        {
            final long market = table.marketOf(slot);
            final long closed = table.sessionOf(slot);
            table.remove(slot);
            state.protectionChanged(slot);
            changed(ProtectionKind.DISCONNECT, ProtectionAction.KEPT, buffer, accountAt, market, closed, credential, 0,
                0);
        }
        final int slot = table.add(ProtectionTable.SESSION, buffer, accountAt, ProtectionTable.ALL_MARKETS, credential,
            sessionId, ProtectionTable.NONE, d.graceMs());
        if (slot < 0)
        {
            changed(ProtectionKind.SESSION, ProtectionAction.REFUSED_FULL, buffer, accountAt,
                ProtectionTable.ALL_MARKETS, sessionId, credential, 0, 0);
            return;
        }
        table.sessionPolicy(slot, d.cancelOnDisconnect() == BooleanType.TRUE,
            (byte)(d.kind() == SessionKind.WALLET ? 1 : 0));
        state.protectionChanged(slot);
        changed(ProtectionKind.SESSION, ProtectionAction.OPENED, buffer, accountAt, ProtectionTable.ALL_MARKETS,
            sessionId, credential, 0, 0);
    }

    void onSessionClosed(final SessionClosedDecoder d)
    {
        final int slot = table.findSession(d.sessionId());
        if (slot < 0)
        {
            account.setMemory(0, 20, (byte)0);
            changed(ProtectionKind.SESSION, ProtectionAction.REFUSED_UNKNOWN, account, 0, ProtectionTable.ALL_MARKETS,
                d.sessionId(), 0, 0, 0);
            return;
        }
        close(slot, JournalRecords.keepsOrdersOnOpenReconnect(state.events.version()));
    }

    /** Every session the engine knows open is closed, in slot order: a node that starts serving has no sockets. */
    void onSessionsReset()
    {
        for (int slot = table.next(0, ProtectionTable.SESSION); slot >= 0;
            slot = table.next(slot + 1, ProtectionTable.SESSION))
        {
            close(slot, false);
        }
    }

    /**
     * Closes the session in {@code slot}: its own policy's sweep (the account, every market) takes its slot; without
     * one, each explicit arm of the account schedules a sweep of its scope; without either it is only closed. With
     * {@code keepOnReconnect}, a sweeping session whose credential has another session open is only closed and its
     * orders kept: the reconnect reached the journal before this close (two lane threads raced), which is the same
     * reconnect within the grace that {@link #onSessionOpened} keeps the orders for.
     */
    private void close(final int slot, final boolean keepOnReconnect)
    {
        final long session = table.sessionOf(slot);
        final long credential = table.credentialOf(slot);
        final long grace = table.graceOf(slot);
        table.accountInto(slot, account, 0);
        if (table.sweepsOf(slot) && keepOnReconnect && otherSessionOpen(slot, credential))
        {
            table.remove(slot);
            state.protectionChanged(slot);
            changed(ProtectionKind.DISCONNECT, ProtectionAction.KEPT, account, 0, ProtectionTable.ALL_MARKETS, session,
                credential, 0, 0);
            return;
        }
        if (table.sweepsOf(slot))
        {
            final long deadline = nowMs + grace;
            table.kind(slot, ProtectionTable.DISCONNECT, deadline);
            state.protectionChanged(slot);
            changed(ProtectionKind.DISCONNECT, ProtectionAction.ARMED, account, 0, ProtectionTable.ALL_MARKETS,
                session, credential, deadline, 0);
            return;
        }
        table.remove(slot);
        state.protectionChanged(slot);
        boolean scheduled = false;
        for (int arm = table.next(0, ProtectionTable.CANCEL_ON_DISCONNECT, account, 0, false, 0); arm >= 0;
            arm = table.next(arm + 1, ProtectionTable.CANCEL_ON_DISCONNECT, account, 0, false, 0))
        {
            final long market = table.marketOf(arm);
            final long deadline = nowMs + table.graceOf(arm);
            final int sweep = table.add(ProtectionTable.DISCONNECT, account, 0, market, credential, session, deadline,
                table.graceOf(arm));
            scheduled = true;
            if (sweep < 0)
            {
                changed(ProtectionKind.DISCONNECT, ProtectionAction.REFUSED_FULL, account, 0, market, session,
                    credential, 0, 0);
                continue;
            }
            state.protectionChanged(sweep);
            changed(ProtectionKind.DISCONNECT, ProtectionAction.ARMED, account, 0, market, session, credential,
                deadline, 0);
        }
        if (!scheduled)
        {
            changed(ProtectionKind.SESSION, ProtectionAction.CLOSED, account, 0, ProtectionTable.ALL_MARKETS, session,
                credential, 0, 0);
        }
    }

    /** Whether a session of {@link #account} and {@code credential} other than the one in {@code slot} is open. */
    private boolean otherSessionOpen(final int slot, final long credential)
    {
        for (int other = table.next(0, ProtectionTable.SESSION, account, 0, true, credential); other >= 0;
            other = table.next(other + 1, ProtectionTable.SESSION, account, 0, true, credential))
        {
            if (other != slot)
            {
                return true;
            }
        }
        return false;
    }

    void onDeadManArm(final DeadManArmDecoder d)
    {
        final DirectBuffer buffer = d.buffer();
        final int accountAt = d.offset() + DeadManArmDecoder.accountEncodingOffset();
        final long market = d.allMarkets() == BooleanType.TRUE ? ProtectionTable.ALL_MARKETS : d.market();
        final long countdown = d.countdownMs();
        final int slot = table.find(ProtectionTable.DEAD_MAN, buffer, accountAt, market);
        if (countdown == 0)
        {
            if (slot < 0)
            {
                changed(ProtectionKind.DEAD_MAN, ProtectionAction.REFUSED_UNKNOWN, buffer, accountAt, market, 0, 0, 0,
                    0);
                return;
            }
            table.remove(slot);
            state.protectionChanged(slot);
            changed(ProtectionKind.DEAD_MAN, ProtectionAction.DISARMED, buffer, accountAt, market, 0, 0, 0, 0);
            return;
        }
        if (countdown < 0 || countdown > MAX_DURATION_MS)
        {
            changed(ProtectionKind.DEAD_MAN, ProtectionAction.REFUSED_BOUNDS, buffer, accountAt, market, 0, 0, 0, 0);
            return;
        }
        final long deadline = nowMs + countdown;
        if (slot >= 0)
        {
            table.deadline(slot, deadline);
            table.grace(slot, countdown);
            state.protectionChanged(slot);
            changed(ProtectionKind.DEAD_MAN, ProtectionAction.RENEWED, buffer, accountAt, market, 0, 0, deadline, 0);
            return;
        }
        final int added = table.add(ProtectionTable.DEAD_MAN, buffer, accountAt, market, 0, 0, deadline, countdown);
        if (added < 0)
        {
            changed(ProtectionKind.DEAD_MAN, ProtectionAction.REFUSED_FULL, buffer, accountAt, market, 0, 0, 0, 0);
            return;
        }
        state.protectionChanged(added);
        changed(ProtectionKind.DEAD_MAN, ProtectionAction.ARMED, buffer, accountAt, market, 0, 0, deadline, 0);
    }

    void onCancelOnDisconnectArm(final CancelOnDisconnectArmDecoder d)
    {
        final DirectBuffer buffer = d.buffer();
        final int accountAt = d.offset() + CancelOnDisconnectArmDecoder.accountEncodingOffset();
        final long market = d.allMarkets() == BooleanType.TRUE ? ProtectionTable.ALL_MARKETS : d.market();
        final int slot = table.find(ProtectionTable.CANCEL_ON_DISCONNECT, buffer, accountAt, market);
        if (d.armed() != BooleanType.TRUE)
        {
            if (slot < 0)
            {
                changed(ProtectionKind.CANCEL_ON_DISCONNECT, ProtectionAction.REFUSED_UNKNOWN, buffer, accountAt,
                    market, 0, 0, 0, 0);
                return;
            }
            table.remove(slot);
            state.protectionChanged(slot);
            changed(ProtectionKind.CANCEL_ON_DISCONNECT, ProtectionAction.DISARMED, buffer, accountAt, market, 0, 0,
                0, 0);
            return;
        }
        final long grace = d.graceMs();
        if (grace < 0 || grace > MAX_DURATION_MS)
        {
            changed(ProtectionKind.CANCEL_ON_DISCONNECT, ProtectionAction.REFUSED_BOUNDS, buffer, accountAt, market, 0,
                0, 0, 0);
            return;
        }
        int armed = slot;
        if (armed < 0)
        {
            armed = table.add(ProtectionTable.CANCEL_ON_DISCONNECT, buffer, accountAt, market, 0, 0,
                ProtectionTable.NONE, grace);
            if (armed < 0)
            {
                changed(ProtectionKind.CANCEL_ON_DISCONNECT, ProtectionAction.REFUSED_FULL, buffer, accountAt, market,
                    0, 0, 0, 0);
                return;
            }
        }
        else
        {
            // armed again: the new grace replaces the old one
            table.grace(armed, grace);
        }
        state.protectionChanged(armed);
        changed(ProtectionKind.CANCEL_ON_DISCONNECT, ProtectionAction.ARMED, buffer, accountAt, market, 0, 0, 0, 0);
    }

    private void changed(final ProtectionKind kind, final ProtectionAction action, final DirectBuffer accountBuffer,
        final int accountOffset, final long market, final long session, final long credential, final long deadline,
        final int cancelled)
    {
        state.events.protectionChanged(kind, action, accountBuffer, accountOffset, market, session, credential,
            deadline, cancelled);
    }
}
