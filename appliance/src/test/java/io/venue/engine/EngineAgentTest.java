package io.venue.engine;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.CancelAll;
import io.venue.action.CreateAsset;
import io.venue.action.CreateSpotMarket;
import io.venue.action.Deposit;
import io.venue.action.Split;
import io.venue.journal.sbe.SignerMatch;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.venue.engine.EngineTest.ALICE;
import static io.venue.engine.EngineTest.assertRejected;
import static io.venue.engine.EngineTest.bid;
import static io.venue.engine.EngineTest.line;

/**
 * Delegated agents through the engine: authorization by scope, rotation overlap, revocation, owner revoke.
 */
class EngineAgentTest
{
    static final Address AGENT_KEY = Address.of("0x" + "ae".repeat(20));
    static final Address NEW_KEY = Address.of("0x" + "af".repeat(20));
    static final long DAY = 24L * 3600 * 1000;

    private EngineHarness h;
    private AgentCommands agents;
    private long nonce = 100;

    @BeforeEach
    void setUp()
    {
        h = new EngineHarness();
        agents = new AgentCommands(h);
        h.admin(new CreateAsset(1, "USD"));
        h.admin(new CreateAsset(2, "BTC"));
        h.admin(new CreateSpotMarket(EngineTest.SPOT, 2, 1, 100, 1000, 1000));
        h.admin(new Deposit(ALICE, 1, 1_000 * EngineTest.UNIT));
    }

    private List<String> asAgent(final Address signer, final Action action, final SignerMatch match)
    {
        // the verifier reports the agent key in raw or personal mode; try both placements
        return match == SignerMatch.OTHER ?
            h.send(new ActionPayload(ALICE, nonce++, null, h.now, action), SignerMatch.OTHER, signer,
                EngineTest.STRANGER) :
            h.send(new ActionPayload(ALICE, nonce++, null, h.now, action), SignerMatch.OTHER,
                EngineTest.STRANGER, signer);
    }

    @Test
    void onlyAnOwnerTheVenueHoldsSomethingForCreatesAgents()
    {
        final long accounts = h.engine.view().accountCount();
        assertRejected(agents.create(EngineTest.BOB, 7, AGENT_KEY, AgentCommands.TRADE, h.now + DAY),
            "ACCOUNT_NOT_FUNDED");
        Assertions.assertEquals(accounts, h.engine.view().accountCount(), "no account was made for it");
        // once the venue holds something for it, the same key can be an agent of it
        h.admin(new Deposit(EngineTest.BOB, 1, 1));
        line(agents.create(EngineTest.BOB, 7, AGENT_KEY, AgentCommands.TRADE, h.now + DAY), "AgentChanged",
            "\"state\":\"ACTIVE\"");
    }

    @Test
    void anAgentActsWithinItsScopesOnly()
    {
        line(agents.create(ALICE, 42, AGENT_KEY, AgentCommands.TRADE, h.now + 30 * DAY), "AgentChanged",
            "\"state\":\"ACTIVE\"");
        line(asAgent(AGENT_KEY, bid(EngineTest.UNIT, EngineTest.UNIT), SignerMatch.OTHER), "OrderRested");
        line(asAgent(AGENT_KEY, bid(EngineTest.UNIT, EngineTest.UNIT), SignerMatch.ACCOUNT_RAW), "OrderRested");
        assertRejected(asAgent(AGENT_KEY, new CancelAll(CancelAll.ALL_MARKETS), SignerMatch.OTHER), "SCOPE_DENIED");
        assertRejected(asAgent(AGENT_KEY, new Split(9, 1000), SignerMatch.OTHER), "SCOPE_DENIED");
        h.now += 31 * DAY;
        assertRejected(asAgent(AGENT_KEY, bid(EngineTest.UNIT, EngineTest.UNIT), SignerMatch.OTHER),
            "UNAUTHORIZED_SIGNER");
    }

    @Test
    void rotationKeepsTheOldKeyForADayAndRevocationEndsIt()
    {
        agents.create(ALICE, 42, AGENT_KEY, AgentCommands.TRADE | AgentCommands.CANCEL, h.now + 90 * DAY);
        line(agents.rotate(ALICE, 42, 43, NEW_KEY), "AgentChanged", "\"state\":\"ROTATED\"");
        line(asAgent(AGENT_KEY, new CancelAll(CancelAll.ALL_MARKETS), SignerMatch.OTHER), "ActionAccepted");
        line(asAgent(NEW_KEY, new CancelAll(CancelAll.ALL_MARKETS), SignerMatch.OTHER), "ActionAccepted");
        h.now += DAY;
        assertRejected(asAgent(AGENT_KEY, new CancelAll(CancelAll.ALL_MARKETS), SignerMatch.OTHER),
            "UNAUTHORIZED_SIGNER");
        line(agents.revoke(ALICE, 42, 43, false), "AgentChanged", "\"state\":\"REVOKED\"");
        assertRejected(asAgent(NEW_KEY, new CancelAll(CancelAll.ALL_MARKETS), SignerMatch.OTHER),
            "UNAUTHORIZED_SIGNER");
    }

    @Test
    void ownerRevokeEndsEveryAgentAndIntentNoncesAreSingleUse()
    {
        agents.create(ALICE, 42, AGENT_KEY, AgentCommands.TRADE, h.now + DAY);
        agents.create(ALICE, 50, NEW_KEY, AgentCommands.TRADE, h.now + DAY);
        assertRejected(agents.create(ALICE, 42, EngineTest.STRANGER, AgentCommands.TRADE, h.now + DAY), "AGENT_EXISTS");
        line(agents.ownerRevoke(ALICE), "AgentChanged", "\"state\":\"REVOKED\"");
        assertRejected(asAgent(AGENT_KEY, bid(EngineTest.UNIT, EngineTest.UNIT), SignerMatch.OTHER),
            "UNAUTHORIZED_SIGNER");
        assertRejected(asAgent(NEW_KEY, bid(EngineTest.UNIT, EngineTest.UNIT), SignerMatch.OTHER),
            "UNAUTHORIZED_SIGNER");
        assertRejected(agents.revoke(EngineTest.STRANGER, 42, 42, true), "UNKNOWN_AGENT");
        assertRejected(agents.rotate(EngineTest.BOB, 42, 77, EngineTest.STRANGER), "UNKNOWN_AGENT");
        // a revoked agent stays revoked: a rotation (say, one signed before the owner-revoke) cannot revive it
        assertRejected(agents.rotate(ALICE, 42, 78, EngineTest.STRANGER), "UNKNOWN_AGENT");
        assertRejected(asAgent(EngineTest.STRANGER, bid(EngineTest.UNIT, EngineTest.UNIT), SignerMatch.OTHER),
            "UNAUTHORIZED_SIGNER");
    }
}
