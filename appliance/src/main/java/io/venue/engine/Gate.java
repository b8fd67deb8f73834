package io.venue.engine;

import io.venue.engine.agent.Agents;
import io.venue.engine.index.FixedKeyIndex;
import io.venue.engine.limit.TokenBucket;
import io.venue.engine.onboard.FixOnboardingTable;
import io.venue.engine.nonce.NonceWindow;
import io.venue.journal.JournalRecords;
import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.SignerMatch;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * The checks every signed action passes before any book is touched, in this order:
 * <ol>
 *   <li>signer: the account itself (the verifier matched it), its vault owner, or an active, unexpired
 *   delegated agent of the account holding the scope the action needs; operator actions need an operator
 *   key;</li>
 *   <li>an account the engine does not know (from journal version 7; operators excepted) is refused
 *   ACCOUNT_NOT_FUNDED: it has no window to check or consume, and is not numbered, so only a deposit makes an
 *   account and a stranger's fresh keys take no capacity;</li>
 *   <li>nonce window (spec 3.1): the reject carries nonceFloor, nonceWindow and nextUsableNonce;</li>
 *   <li>the per-account action rate (operators are exempt);</li>
 *   <li>then the nonce is consumed: any later refusal is a business reject that used the nonce up.</li>
 * </ol>
 * A refusal in steps 1 to 3 changes nothing, so the same signed action can be sent again later.
 */
final class Gate implements Events.AccountLimits
{
    static final int SCOPE_TRADE = 1;
    static final int SCOPE_CANCEL = 1 << 1;
    static final int SCOPE_QUOTE = 1 << 2;
    static final int SCOPE_MINT_REDEEM = 1 << 3;
    static final int SCOPE_OPERATOR = -1;

    private final ShardState state;
    /** The nonce window of an account not seen yet. */
    private static final long[] EMPTY_WINDOW = new long[NonceWindow.WORDS];

    private final ActionEnvelopeDecoder envelope = new ActionEnvelopeDecoder();

    Gate(final ShardState state)
    {
        this.state = state;
        state.events.limits(this);
    }

    /**
     * Runs the gate for the envelope at {@code buffer[offset..)}.
     *
     * @param scope the scope bits the action needs, or {@link #SCOPE_OPERATOR}.
     * @return the account number, or -1 after the reject event was written.
     */
    int admit(final DirectBuffer buffer, final int offset, final int scope, final long nowMs)
    {
        return admit(buffer, offset, scope, nowMs, true);
    }

    /**
     * As {@link #admit(DirectBuffer, int, int, long)}; {@code accountLimited} false for a command of limit class MM
     * (its windows were charged before the journal), which the per-account action limiter of the trading route does
     * not count.
     */
    int admit(final DirectBuffer buffer, final int offset, final int scope, final long nowMs,
        final boolean accountLimited)
    {
        envelope.wrap(buffer, offset);
        final int accountOffset = offset + ActionEnvelopeDecoder.accountEncodingOffset();
        // an admin text signature speaks for an operator action only (the verifier tries it for no other)
        final SignerMatch match = envelope.signerMatch();
        int account = state.accounts.find(buffer, accountOffset);
        state.events.rateOf(account, nowMs);
        if (match == SignerMatch.SESSION_CREDENTIAL)
        {
            return admitSession(buffer, offset, account, scope, nowMs, accountLimited);
        }
        final boolean signedByAccount = match != SignerMatch.OTHER &&
            (match != SignerMatch.ACCOUNT_ADMIN_TEXT || scope == SCOPE_OPERATOR);

        if (scope == SCOPE_OPERATOR)
        {
            if (!signedByAccount || !state.isOperator(buffer, accountOffset))
            {
                return reject(buffer, offset, account, RejectCode.NOT_OPERATOR);
            }
        }
        else if (!signedByAccount)
        {
            final RejectCode refusal = agentRefusal(buffer, offset, account, scope, nowMs);
            if (refusal != null)
            {
                return reject(buffer, offset, account, refusal);
            }
        }
        final boolean known = account != FixedKeyIndex.MISSING;
        // a fresh key costs nothing to make: from version 7 only the operator makes an account (a deposit), so an
        // unknown one's action is refused before its nonce, and the same signed action may be sent again once funded
        if (!known && scope != SCOPE_OPERATOR && JournalRecords.refusesUnfundedAccounts(state.events.version()))
        {
            return reject(buffer, offset, account, RejectCode.ACCOUNT_NOT_FUNDED);
        }
        // (older versions) a new account has an empty window and a full bucket: it is numbered once its nonce passes
        final int nonceOutcome = known ?
            NonceWindow.check(state.nonceWords, NonceWindow.WORDS * account, envelope.nonce()) :
            NonceWindow.check(EMPTY_WINDOW, 0, envelope.nonce());
        if (nonceOutcome != NonceWindow.ACCEPTED)
        {
            return reject(buffer, offset, account, nonceRefusal(nonceOutcome));
        }
        if (!known)
        {
            if (!state.roomForAccounts(1))
            {
                return reject(buffer, offset, account, RejectCode.CAPACITY_LIMIT);
            }
            account = state.addAccount(buffer, accountOffset);
            state.events.rateOf(account, nowMs);
        }
        final int base = NonceWindow.WORDS * account;
        if (scope != SCOPE_OPERATOR && accountLimited &&
            !TokenBucket.tryAcquire(state.rateWords, TokenBucket.WORDS * account, nowMs,
            state.config.actionsPerWindow(), state.config.actionWindowMs()))
        {
            return reject(buffer, offset, account, RejectCode.RATE_LIMITED);
        }
        state.accountChanged(account);
        NonceWindow.tryConsume(state.nonceWords, base, envelope.nonce());
        state.events.nonceOf(account);
        return account;
    }

    /**
     * The gate of a SESSION_CREDENTIAL order command (journal version 13): a session lane authenticated the session,
     * and the envelope's {@code rawSigner} names its credential (8 bytes, then zeros). The credential must be an active
     * agent credential of the account with the scope, as a signing agent must; the account must be known. There is no
     * nonce step: the command was not signed, so there is nothing a nonce could stop being replayed (the lane journals
     * each order once, its order id derived from the credential and the client's ClOrdID, and the engine refuses an id
     * or a client order id still open); the per-account action rate applies as to any trading action. Not an operator
     * action, nor accepted in a record older than version 13.
     */
    private int admitSession(final DirectBuffer buffer, final int offset, final int account, final int scope,
        final long nowMs, final boolean accountLimited)
    {
        if (scope == SCOPE_OPERATOR)
        {
            return reject(buffer, offset, account, RejectCode.NOT_OPERATOR);
        }
        if (state.events.version() < JournalRecords.SESSION_CREDENTIAL_VERSION)
        {
            return reject(buffer, offset, account, RejectCode.UNAUTHORIZED_SIGNER);
        }
        if (account == FixedKeyIndex.MISSING)
        {
            return reject(buffer, offset, account, RejectCode.ACCOUNT_NOT_FUNDED);
        }
        final long credentialId = buffer.getLong(offset + ActionEnvelopeDecoder.rawSignerEncodingOffset(),
            ByteOrder.BIG_ENDIAN);
        final int outcome = state.agents.authorizeCredential(credentialId, account, scope, nowMs);
        if (outcome != Agents.OK)
        {
            return reject(buffer, offset, account, outcome == Agents.SCOPE_DENIED ? RejectCode.SCOPE_DENIED :
                RejectCode.UNAUTHORIZED_SIGNER);
        }
        // from version 16 a session order that adds exposure (place, amend) needs the credential's FIX permission in
        // its onboarding record; cancels stay allowed whatever the record says, as under a kill switch
        if (scope == SCOPE_TRADE && JournalRecords.checksFixOnboarding(state.events.version()))
        {
            final int slot = state.fixOnboarding.find(credentialId);
            if (slot == FixOnboardingTable.MISSING || !state.fixOnboarding.fixEnabled(slot))
            {
                return reject(buffer, offset, account, RejectCode.FIX_NOT_ENABLED);
            }
        }
        if (accountLimited && !TokenBucket.tryAcquire(state.rateWords, TokenBucket.WORDS * account, nowMs,
            state.config.actionsPerWindow(), state.config.actionWindowMs()))
        {
            return reject(buffer, offset, account, RejectCode.RATE_LIMITED);
        }
        state.accountChanged(account);
        state.events.nonceOf(account);
        return account;
    }

    /**
     * Whether a session place (SESSION_CREDENTIAL, version 16 or later) names a market its credential's onboarding
     * record does not allow; false for every other command. Called after {@link #admit}, which found the record.
     */
    boolean refusesSessionMarket(final DirectBuffer buffer, final int offset, final long marketId)
    {
        envelope.wrap(buffer, offset);
        if (envelope.signerMatch() != SignerMatch.SESSION_CREDENTIAL ||
            !JournalRecords.checksFixOnboarding(state.events.version()))
        {
            return false;
        }
        final int slot = state.fixOnboarding.find(buffer.getLong(offset +
            ActionEnvelopeDecoder.rawSignerEncodingOffset(), ByteOrder.BIG_ENDIAN));
        return slot == FixOnboardingTable.MISSING || !state.fixOnboarding.allowsMarket(slot, marketId);
    }

    @Override
    public long rateRemaining(final int account, final long nowMs)
    {
        final long capacity = state.config.actionsPerWindow();
        return account < 0 ? capacity :
            TokenBucket.remaining(state.rateWords, TokenBucket.WORDS * account, nowMs, capacity,
                state.config.actionWindowMs());
    }

    @Override
    public long rateResetMs(final int account, final long nowMs)
    {
        return account < 0 ? 0 :
            TokenBucket.resetMs(state.rateWords, TokenBucket.WORDS * account, nowMs, state.config.actionsPerWindow());
    }

    @Override
    public long nonceFloor(final int account)
    {
        return NonceWindow.floor(state.nonceWords, NonceWindow.WORDS * account);
    }

    @Override
    public long nextUsableNonce(final int account)
    {
        return NonceWindow.nextUsable(state.nonceWords, NonceWindow.WORDS * account);
    }

    /** Writes an ActionRejected with the account's current nonce window (zeros for an unknown account). */
    int reject(final DirectBuffer buffer, final int offset, final int account, final RejectCode code)
    {
        rejectLeg(buffer, offset, account, code, -1);
        return -1;
    }

    void rejectLeg(final DirectBuffer buffer, final int offset, final int account, final RejectCode code,
        final int legIndex)
    {
        reject(buffer, offset + ActionEnvelopeDecoder.accountEncodingOffset(),
            buffer.getLong(offset + ActionEnvelopeDecoder.nonceEncodingOffset(), ByteOrder.LITTLE_ENDIAN),
            buffer, offset + ActionEnvelopeDecoder.digestEncodingOffset(), account, code, legIndex);
    }

    /** The general form, for records that carry account, nonce and digest outside an envelope. */
    void reject(
        final DirectBuffer accountBuffer,
        final int accountOffset,
        final long nonce,
        final DirectBuffer digestBuffer,
        final int digestOffset,
        final int account,
        final RejectCode code,
        final int legIndex)
    {
        long floor = 0;
        long next = 0;
        if (account >= 0)
        {
            final int base = NonceWindow.WORDS * account;
            floor = NonceWindow.floor(state.nonceWords, base);
            next = NonceWindow.nextUsable(state.nonceWords, base);
        }
        state.events.actionRejected(accountBuffer, accountOffset, nonce, digestBuffer, digestOffset, code, floor,
            NonceWindow.WIDTH, next, legIndex);
    }

    /**
     * The nonce step alone, for owner-intent records (agent lifecycle) that carry their own nonce: checks
     * and consumes it in the owner's window.
     *
     * @return null when consumed, or the nonce reject code.
     */
    RejectCode consumeNonce(final int account, final long nonce)
    {
        final int outcome = NonceWindow.tryConsume(state.nonceWords, NonceWindow.WORDS * account, nonce);
        state.events.nonceOf(account);
        if (outcome != NonceWindow.ACCEPTED)
        {
            return nonceRefusal(outcome);
        }
        state.accountChanged(account);
        return null;
    }

    /**
     * The owner of an agent create: admitted only if the intent's nonce passes in its window and the venue holds
     * something for the owner (ACCOUNT_NOT_FUNDED otherwise, before anything changes: a fresh wallet costs nothing to
     * make, and each agent takes a record of the venue's bounded state); then the nonce is consumed.
     *
     * @return the owner's account number, or -1 after the reject event was written.
     */
    int admitOwner(
        final DirectBuffer buffer, final int ownerOffset, final long nonce, final DirectBuffer digestBuffer,
        final int digestOffset)
    {
        final int known = state.accounts.find(buffer, ownerOffset);
        final int outcome = known != FixedKeyIndex.MISSING ?
            NonceWindow.check(state.nonceWords, NonceWindow.WORDS * known, nonce) : NonceWindow.check(EMPTY_WINDOW,
                0, nonce);
        if (outcome != NonceWindow.ACCEPTED)
        {
            reject(buffer, ownerOffset, nonce, digestBuffer, digestOffset, known, nonceRefusal(outcome), -1);
            return -1;
        }
        if (known == FixedKeyIndex.MISSING || !state.ledger.holdsAnything(known))
        {
            reject(buffer, ownerOffset, nonce, digestBuffer, digestOffset, known, RejectCode.ACCOUNT_NOT_FUNDED, -1);
            return -1;
        }
        consumeNonce(known, nonce);
        return known;
    }

    private static RejectCode nonceRefusal(final int outcome)
    {
        return switch (outcome)
        {
            case NonceWindow.BELOW_FLOOR -> RejectCode.NONCE_BELOW_FLOOR;
            case NonceWindow.OUTSIDE_WINDOW -> RejectCode.NONCE_OUTSIDE_WINDOW;
            default -> RejectCode.NONCE_REPLAYED;
        };
    }

    private RejectCode agentRefusal(final DirectBuffer buffer, final int offset, final int account, final int scope,
        final long nowMs)
    {
        if (account == FixedKeyIndex.MISSING)
        {
            return RejectCode.UNAUTHORIZED_SIGNER;
        }
        // an all-zero signer is one that was not recovered (a record that keeps only the raw-mode signer, a recovery
        // that failed): it stands for nobody, whatever address an agent or a vault owner was given
        final int rawOffset = offset + ActionEnvelopeDecoder.rawSignerEncodingOffset();
        final int personalOffset = offset + ActionEnvelopeDecoder.personalSignerEncodingOffset();
        final boolean hasRaw = !isZeroAddress(buffer, rawOffset);
        final boolean hasPersonal = !isZeroAddress(buffer, personalOffset);
        final int owner = state.vaultOwner[account];
        if (owner >= 0 && (hasRaw && state.accounts.hasAddress(owner, buffer, rawOffset) ||
            hasPersonal && state.accounts.hasAddress(owner, buffer, personalOffset)))
        {
            return null;
        }
        final int raw = hasRaw ? state.agents.authorize(buffer, rawOffset, account, scope, nowMs) :
            Agents.UNKNOWN_SIGNER;
        if (raw == Agents.OK)
        {
            return null;
        }
        final int personal = hasPersonal ? state.agents.authorize(buffer, personalOffset, account, scope, nowMs) :
            Agents.UNKNOWN_SIGNER;
        if (personal == Agents.OK)
        {
            return null;
        }
        return raw == Agents.SCOPE_DENIED || personal == Agents.SCOPE_DENIED ? RejectCode.SCOPE_DENIED :
            RejectCode.UNAUTHORIZED_SIGNER;
    }

    /** Whether the 20 bytes at {@code offset} are all zero. */
    static boolean isZeroAddress(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset) == 0 && buffer.getLong(offset + 8) == 0 && buffer.getInt(offset + 16) == 0;
    }
}
