package io.venue.engine.agent;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static io.venue.engine.agent.Agents.AGENT_EXISTS;
import static io.venue.engine.agent.Agents.EXPIRED;
import static io.venue.engine.agent.Agents.MAX_AGENTS_PER_OWNER;
import static io.venue.engine.agent.Agents.NOT_OWNER;
import static io.venue.engine.agent.Agents.OK;
import static io.venue.engine.agent.Agents.REVOKED;
import static io.venue.engine.agent.Agents.ROTATION_OVERLAP_MS;
import static io.venue.engine.agent.Agents.SCOPE_DENIED;
import static io.venue.engine.agent.Agents.SIGNER_IN_USE;
import static io.venue.engine.agent.Agents.TOO_MANY_AGENTS;
import static io.venue.engine.agent.Agents.UNKNOWN_AGENT;
import static io.venue.engine.agent.Agents.UNKNOWN_SIGNER;
import static io.venue.engine.agent.Agents.WRONG_ACCOUNT;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The agent lifecycle of spec 3.3: create, rotate with a 24-hour overlap, revoke one credential or the
 * agent, owner-revoke; scopes and expiry.
 */
class AgentsTest
{
    private static final int TRADE = 1;
    private static final int CANCEL = 2;
    private static final int MINT = 8;
    private static final long T0 = 1_763_000_000_000L;

    private final Agents agents = new Agents(4);

    private static UnsafeBuffer signer(final int fill)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[20]);
        buffer.setMemory(0, 20, (byte)fill);
        return buffer;
    }

    @Test
    void anActiveAgentActsForItsOwnerWithinScopeAndLifetime()
    {
        assertEquals(OK, agents.create(3, 42, signer(1), 0, TRADE | CANCEL, T0 + 1000));
        assertEquals(OK, agents.authorize(signer(1), 0, 3, TRADE, T0));
        assertEquals(OK, agents.authorize(signer(1), 0, 3, TRADE | CANCEL, T0));
        assertEquals(SCOPE_DENIED, agents.authorize(signer(1), 0, 3, MINT, T0));
        assertEquals(WRONG_ACCOUNT, agents.authorize(signer(1), 0, 4, TRADE, T0));
        assertEquals(EXPIRED, agents.authorize(signer(1), 0, 3, TRADE, T0 + 1000));
        assertEquals(UNKNOWN_SIGNER, agents.authorize(signer(2), 0, 3, TRADE, T0));
        assertEquals(AGENT_EXISTS, agents.create(3, 42, signer(9), 0, TRADE, T0 + 1000));
        assertEquals(SIGNER_IN_USE, agents.create(3, 43, signer(1), 0, TRADE, T0 + 1000));
    }

    @Test
    void anOwnerHoldsAtMost64UnrevokedAgents()
    {
        for (int i = 0; i < MAX_AGENTS_PER_OWNER; i++)
        {
            assertEquals(OK, agents.create(3, 1000 + i, null, 0, TRADE, T0 + 1000));
        }
        assertEquals(TOO_MANY_AGENTS, agents.create(3, 2000, null, 0, TRADE, T0 + 1000));
        assertEquals(OK, agents.create(4, 2000, null, 0, TRADE, T0 + 1000), "another owner is not affected");
        assertEquals(OK, agents.revokeAgent(3, 1000));
        assertEquals(OK, agents.create(3, 2001, null, 0, TRADE, T0 + 1000), "a revoked agent frees its place");
    }

    @Test
    void rotationKeepsTheOldCredentialFor24Hours()
    {
        agents.create(3, 42, signer(1), 0, TRADE, Long.MAX_VALUE);
        assertEquals(NOT_OWNER, agents.rotate(4, 42, 43, signer(2), 0, T0 + ROTATION_OVERLAP_MS, T0));
        assertEquals(UNKNOWN_AGENT, agents.rotate(3, 99, 43, signer(2), 0, T0 + ROTATION_OVERLAP_MS, T0));
        assertEquals(OK, agents.rotate(3, 42, 43, signer(2), 0, T0 + ROTATION_OVERLAP_MS, T0));
        assertEquals(OK, agents.authorize(signer(1), 0, 3, TRADE, T0 + ROTATION_OVERLAP_MS - 1));
        assertEquals(EXPIRED, agents.authorize(signer(1), 0, 3, TRADE, T0 + ROTATION_OVERLAP_MS));
        assertEquals(OK, agents.authorize(signer(2), 0, 3, TRADE, T0 + ROTATION_OVERLAP_MS * 10));
    }

    @Test
    void revokingOneCredentialTheAgentOrEverythingOfTheOwner()
    {
        agents.create(3, 42, signer(1), 0, TRADE, Long.MAX_VALUE);
        agents.rotate(3, 42, 43, signer(2), 0, T0 + ROTATION_OVERLAP_MS, T0);
        assertEquals(OK, agents.revokeCredential(3, 42, 42));
        assertEquals(REVOKED, agents.authorize(signer(1), 0, 3, TRADE, T0));
        assertEquals(OK, agents.authorize(signer(2), 0, 3, TRADE, T0));
        assertEquals(OK, agents.revokeAgent(3, 42));
        assertEquals(REVOKED, agents.authorize(signer(2), 0, 3, TRADE, T0));

        agents.create(3, 50, signer(5), 0, TRADE, Long.MAX_VALUE);
        agents.create(3, 51, signer(6), 0, TRADE, Long.MAX_VALUE);
        agents.create(7, 52, signer(7), 0, TRADE, Long.MAX_VALUE);
        assertEquals(2, agents.ownerRevoke(3));
        assertEquals(REVOKED, agents.authorize(signer(5), 0, 3, TRADE, T0));
        assertEquals(REVOKED, agents.authorize(signer(6), 0, 3, TRADE, T0));
        assertEquals(OK, agents.authorize(signer(7), 0, 7, TRADE, T0), "other owners' agents stay");
    }
}
