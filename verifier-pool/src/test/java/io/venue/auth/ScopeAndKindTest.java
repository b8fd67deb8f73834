package io.venue.auth;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ScopeAndKindTest
{
    @Test
    void scopeWireStringsInTheirFixedOrder()
    {
        assertEquals(List.of("trade", "cancel", "quote", "mint_redeem", "read", "drop_copy"),
            EnumSet.allOf(Scope.class).stream().map(Scope::wire).toList());
        for (final Scope scope : Scope.values())
        {
            assertEquals(scope, Scope.fromWire(scope.wire()));
        }
        assertNull(Scope.fromWire("TRADE"));
        assertNull(Scope.fromWire("mint-redeem"));
    }

    @Test
    void joinIgnoresTheOrderOfTheSet()
    {
        final LinkedHashSet<Scope> reversed = new LinkedHashSet<>(List.of(Scope.DROP_COPY, Scope.READ, Scope.TRADE));
        assertEquals("trade,read,drop_copy", Scope.join(reversed));
        assertEquals("", Scope.join(EnumSet.noneOf(Scope.class)));
        assertEquals("trade,cancel,quote,mint_redeem,read,drop_copy", Scope.join(EnumSet.allOf(Scope.class)));
    }

    @Test
    void agentKindCapsFollowSpec85()
    {
        assertEquals(180L * 24 * 3600 * 1000, AgentKind.API.maxLifetimeMs());
        assertEquals(90L * 24 * 3600 * 1000, AgentKind.INSTITUTIONAL.maxLifetimeMs());
        assertEquals(30L * 24 * 3600 * 1000, AgentKind.BROWSER.maxLifetimeMs());
        assertEquals(24L * 3600 * 1000, AgentKind.MOBILE.maxLifetimeMs());
        assertEquals(List.of("api", "institutional", "browser", "mobile"),
            EnumSet.allOf(AgentKind.class).stream().map(AgentKind::wire).toList());
        for (final AgentKind kind : AgentKind.values())
        {
            assertEquals(kind, AgentKind.fromWire(kind.wire()));
        }
        assertNull(AgentKind.fromWire("institutional_agent"));
    }
}
