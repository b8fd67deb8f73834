package io.venue.engine;

import io.venue.action.Side;
import io.venue.engine.book.SlotReader;
import io.venue.journal.sbe.OrderDoneReason;
import io.venue.journal.sbe.RejectCode;
import org.agrona.DirectBuffer;

/**
 * The ledger and event steps of an accepted amend, around the book's own calls: run in line by {@link OrderEntry}
 * with one shard, and replayed from a matching shard's tape by {@link ShardPipeline}, so both write the same
 * events in the same order. One amend at a time: {@link #begin} sets it up.
 */
final class AmendSteps
{
    private final ShardState state;
    private final Settlement settlement;

    private int account;
    private int handle;
    private int reserveAsset;
    private long newReservation;
    private long oldReserved;
    private long oldRemaining;
    private long filledBefore;
    private boolean withClientId;
    private long clientHi;
    private long clientLo;

    AmendSteps(final ShardState state, final Settlement settlement)
    {
        this.state = state;
        this.settlement = settlement;
    }

    /**
     * The amend of the order at {@code handle}, whose reservation becomes {@code newReservation} of
     * {@code reserveAsset}. {@code before} reads the order's slot as it is before the amend's book calls.
     * {@code keepsFilled}: the amend's command is of a journal version that keeps what the order filled when it enters
     * again ({@code JournalRecords.keepsFilledOnReentry}); an older one enters it as its build did, its filled quantity
     * from 0.
     */
    void begin(
        final int account, final int handle, final int reserveAsset, final long newReservation, final SlotReader before,
        final int slot, final boolean keepsFilled)
    {
        this.account = account;
        this.handle = handle;
        this.reserveAsset = reserveAsset;
        this.newReservation = newReservation;
        this.oldReserved = state.orders.reserved(handle);
        // the id keeps what it filled if it enters again: its events and its slot count every fill the book holds
        // for it
        this.filledBefore = keepsFilled ? before.originalQtyOf(slot) - before.remainingOf(slot) : 0;
    }

    /**
     * What the order keeps of its fills if this amend enters it again, which its book place (or restAgain) counts in
     * its size: what it filled before, or 0 for an amend of an older version.
     */
    long filledBefore()
    {
        return filledBefore;
    }

    /**
     * The order kept its price and its place in the queue, its quantity lowered by the book when {@code reduced}:
     * what it no longer needs is released. {@code after} reads the order's slot as the book left it.
     */
    void kept(final boolean reduced, final SlotReader after, final int slot, final long marketId)
    {
        if (reduced)
        {
            state.orders.touch(handle);
            final long release = oldReserved - newReservation;
            if (release > 0)
            {
                state.ledger.unlock(account, reserveAsset, release);
                state.orders.reserved(handle, newReservation);
            }
        }
        state.events.orderAmended(after, slot, marketId, true);
        settlement.balance(account, reserveAsset);
    }

    /**
     * The order was lifted from its level and rests again in its slot at a new price: its reservation is
     * exchanged and the settlement is set up for the book's calls of {@code restAgain}.
     */
    Settlement moved(
        final int book, final Side side, final long price, final long qty, final DirectBuffer idBuffer,
        final int idOffset, final DirectBuffer envelopeBuffer, final int envelope)
    {
        state.ledger.unlock(account, reserveAsset, oldReserved);
        relock();
        // its client order id stays where it is: the moved order keeps its index entries
        return settlement.forTaker(book, account, side, price, qty, idBuffer, idOffset, newReservation, false, 0, 0,
            false, envelopeBuffer, envelope, -1).keepingHandle().reentering(filledBefore);
    }

    /**
     * The order leaves the book to enter it again: it is forgotten, with what re-entering needs kept. {@code before}
     * reads its slot.
     */
    void leave(final SlotReader before, final int slot, final int market)
    {
        withClientId = state.orders.hasClientId(handle);
        clientHi = state.orders.clientIdHi(handle);
        clientLo = state.orders.clientIdLo(handle);
        oldRemaining = before.remainingOf(slot);
        state.orders.remove(handle, before.orderIdWord(slot, 0), before.orderIdWord(slot, 1),
            before.orderIdWord(slot, 2), before.orderIdWord(slot, 3), account, market);
    }

    /** Frees what the order that left reserved. */
    void release()
    {
        state.ledger.unlock(account, reserveAsset, oldReserved);
    }

    boolean withClientId()
    {
        return withClientId;
    }

    long clientHi()
    {
        return clientHi;
    }

    long clientLo()
    {
        return clientLo;
    }

    /**
     * After a pipeline's shard placed the order again ({@link #leave}, {@link #release}): locks the new reservation
     * and sets up the settlement for the place's calls.
     */
    Settlement reenter(
        final int book, final Side side, final long price, final long qty, final DirectBuffer idBuffer,
        final int idOffset, final DirectBuffer envelopeBuffer, final int envelope)
    {
        relock();
        return settlement.forTaker(book, account, side, price, qty, idBuffer, idOffset, newReservation, withClientId,
            clientHi, clientLo, false, envelopeBuffer, envelope, -1).reentering(filledBefore);
    }

    /**
     * The order that left was refused on entering again ({@code refusal}, or null if it entered): it is
     * reported cancelled.
     */
    void reentered(final RejectCode refusal, final DirectBuffer idBuffer, final int idOffset, final long marketId)
    {
        if (refusal != null)
        {
            state.events.orderDone(idBuffer, idOffset, account, marketId, OrderDoneReason.CANCELLED, oldRemaining);
            settlement.balance(account, reserveAsset);
        }
    }

    /** Locks the new reservation, which admission checked against the credit this amend frees or held for it. */
    private void relock()
    {
        if (!state.ledger.lock(account, reserveAsset, newReservation))
        {
            throw new IllegalStateException(
                "an admitted amend's reservation of " + newReservation + " cannot be locked");
        }
    }
}
