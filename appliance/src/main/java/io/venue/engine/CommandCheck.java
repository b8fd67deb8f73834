package io.venue.engine;

import io.venue.journal.sbe.CancelOnDisconnectArmDecoder;
import io.venue.journal.sbe.DeadManArmDecoder;
import io.venue.journal.sbe.SessionOpenedDecoder;

import io.venue.journal.sbe.ActionEnvelopeDecoder;
import io.venue.journal.sbe.AgentCreateDecoder;
import io.venue.journal.sbe.AgentRevokeDecoder;
import io.venue.journal.sbe.AgentRotateDecoder;
import io.venue.journal.sbe.AmendDecoder;
import io.venue.journal.sbe.BatchDecoder;
import io.venue.journal.sbe.CancelAllDecoder;
import io.venue.journal.sbe.CancelByClientOrderIdDecoder;
import io.venue.journal.sbe.CancelDecoder;
import io.venue.journal.sbe.CancelReplaceDecoder;
import io.venue.journal.sbe.PlaceOrderDecoder;
import io.venue.journal.sbe.SetKillSwitchDecoder;
import io.venue.journal.sbe.SetFixOnboardingDecoder;
import io.venue.journal.sbe.SetVaultOwnerDecoder;
import org.agrona.DirectBuffer;

/**
 * Refuses a command record whose enum fields hold values the schema does not define, before anything is
 * applied: the generated decoders throw on such values, and a record the engine cannot read must be
 * ignored whole rather than half applied. Our sequencer never writes one; a damaged journal might.
 */
final class CommandCheck
{
    private static final boolean[] BOOLEAN = table(0, 1);
    private static final boolean[] SIDE = table(0, 1);
    private static final boolean[] BOOK = table(0, 1, 2);
    private static final boolean[] STP_MODE = table(0, 1, 2, 3, 4);
    private static final boolean[] TIME_IN_FORCE = table(0, 1, 2, 3);
    private static final boolean[] SIGNER_MATCH = table(0, 1, 2, 3, 4, 5, 6);
    private static final boolean[] LEG_TYPE = table(0, 1, 2, 3);
    private static final boolean[] KILL_SCOPE = table(0, 1, 2);
    private static final boolean[] KEY_KIND = table(0, 1);
    private static final boolean[] AGENT_KIND = table(0, 1, 2, 3);
    private static final boolean[] FIX_RATE_TIER = table(0, 1, 2, 3);
    private static final boolean[] LIMIT_CLASS = table(0, 1);
    private static final boolean[] SESSION_KIND = table(0, 1);

    private final ActionEnvelopeDecoder envelope = new ActionEnvelopeDecoder();

    private CommandCheck()
    {
    }

    static CommandCheck create()
    {
        return new CommandCheck();
    }

    /** True if the signed action's envelope at {@code offset} is readable. */
    boolean envelope(final DirectBuffer buffer, final int offset)
    {
        envelope.wrap(buffer, offset);
        return ok(BOOLEAN, envelope.hasClientOrderIdRaw()) && ok(SIGNER_MATCH, envelope.signerMatchRaw());
    }

    boolean place(final PlaceOrderDecoder d)
    {
        return envelope(d.buffer(), d.offset() + PlaceOrderDecoder.envelopeEncodingOffset()) &&
            ok(BOOK, d.bookRaw()) && ok(SIDE, d.sideRaw()) && ok(STP_MODE, d.stpModeRaw()) &&
            ok(TIME_IN_FORCE, d.timeInForceRaw()) && ok(BOOLEAN, d.isMarketRaw()) && ok(BOOLEAN, d.reduceOnlyRaw()) &&
            ok(LIMIT_CLASS, d.limitClassRaw());
    }

    boolean cancel(final CancelDecoder d)
    {
        return envelope(d.buffer(), d.offset() + CancelDecoder.envelopeEncodingOffset()) &&
            ok(LIMIT_CLASS, d.limitClassRaw());
    }

    boolean amend(final AmendDecoder d)
    {
        return envelope(d.buffer(), d.offset() + AmendDecoder.envelopeEncodingOffset()) &&
            ok(LIMIT_CLASS, d.limitClassRaw());
    }

    boolean cancelByClientOrderId(final CancelByClientOrderIdDecoder d)
    {
        return envelope(d.buffer(), d.offset() + CancelByClientOrderIdDecoder.envelopeEncodingOffset()) &&
            ok(LIMIT_CLASS, d.limitClassRaw());
    }

    boolean cancelReplace(final CancelReplaceDecoder d)
    {
        return envelope(d.buffer(), d.offset() + CancelReplaceDecoder.envelopeEncodingOffset()) &&
            ok(BOOK, d.bookRaw()) && ok(SIDE, d.sideRaw()) && ok(TIME_IN_FORCE, d.timeInForceRaw());
    }

    /** Reads the legs group through; the caller rewinds the decoder's limit afterwards. */
    boolean batch(final BatchDecoder d)
    {
        if (!envelope(d.buffer(), d.offset() + BatchDecoder.envelopeEncodingOffset()))
        {
            return false;
        }
        for (final BatchDecoder.LegsDecoder leg : d.legs())
        {
            if (!ok(LEG_TYPE, leg.legTypeRaw()) || !ok(BOOK, leg.bookRaw()) || !ok(SIDE, leg.sideRaw()) ||
                !ok(STP_MODE, leg.stpModeRaw()) || !ok(TIME_IN_FORCE, leg.timeInForceRaw()) ||
                !ok(BOOLEAN, leg.isMarketRaw()) || !ok(BOOLEAN, leg.reduceOnlyRaw()))
            {
                return false;
            }
        }
        return true;
    }

    boolean cancelAll(final CancelAllDecoder d)
    {
        return envelope(d.buffer(), d.offset() + CancelAllDecoder.envelopeEncodingOffset()) &&
            ok(BOOLEAN, d.allMarketsRaw());
    }

    boolean setKillSwitch(final SetKillSwitchDecoder d)
    {
        return envelope(d.buffer(), d.offset() + SetKillSwitchDecoder.envelopeEncodingOffset()) &&
            ok(KILL_SCOPE, d.scopeRaw()) && ok(BOOLEAN, d.activeRaw());
    }

    boolean setVaultOwner(final SetVaultOwnerDecoder d)
    {
        return envelope(d.buffer(), d.offset() + SetVaultOwnerDecoder.envelopeEncodingOffset()) &&
            ok(BOOLEAN, d.hasOwnerRaw());
    }

    boolean setFixOnboarding(final SetFixOnboardingDecoder d)
    {
        return envelope(d.buffer(), d.offset() + SetFixOnboardingDecoder.envelopeEncodingOffset()) &&
            ok(BOOLEAN, d.fixEnabledRaw()) && ok(BOOLEAN, d.dropCopyRaw()) && ok(BOOLEAN, d.allMarketsRaw()) &&
            ok(BOOLEAN, d.cancelOnDisconnectRaw()) && ok(FIX_RATE_TIER, d.rateTierRaw());
    }

    boolean agentCreate(final AgentCreateDecoder d)
    {
        return ok(KEY_KIND, d.keyKindRaw()) && ok(AGENT_KIND, d.agentKindRaw());
    }

    boolean agentRotate(final AgentRotateDecoder d)
    {
        return ok(KEY_KIND, d.keyKindRaw());
    }

    boolean agentRevoke(final AgentRevokeDecoder d)
    {
        return ok(BOOLEAN, d.allCredentialsRaw());
    }

    boolean sessionOpened(final SessionOpenedDecoder d)
    {
        return ok(SESSION_KIND, d.kindRaw()) && ok(BOOLEAN, d.cancelOnDisconnectRaw());
    }

    boolean deadManArm(final DeadManArmDecoder d)
    {
        return ok(BOOLEAN, d.allMarketsRaw());
    }

    boolean cancelOnDisconnectArm(final CancelOnDisconnectArmDecoder d)
    {
        return ok(BOOLEAN, d.allMarketsRaw()) && ok(BOOLEAN, d.armedRaw());
    }

    private static boolean ok(final boolean[] valid, final short raw)
    {
        return raw >= 0 && raw < valid.length && valid[raw];
    }

    private static boolean[] table(final int... values)
    {
        final boolean[] valid = new boolean[256];
        for (final int value : values)
        {
            valid[value] = true;
        }
        return valid;
    }
}
