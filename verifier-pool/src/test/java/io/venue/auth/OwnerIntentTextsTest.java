package io.venue.auth;

import io.venue.action.Address;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OwnerIntentTextsTest
{
    // The examples of docs/MESSAGE-TEXTS.md.
    static final Address OWNER = Address.of("0x8ba1f109551bd432803012645ac136ddd64dba72");
    static final Address AGENT = Address.of("0x71c7656ec7ab88b098defb751b7401b5f6d8976f");
    static final Address CONTRACT = Address.of("0x00000000000000000000000000000000000c0de1");
    static final byte[] ED25519_AGENT = HexFormat.of().parseHex(
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
    /** RFC 7748 section 6.1's Alice public key: the delivery key of the examples. */
    static final String DELIVERY_KEY = "x25519:8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";
    static final long CHAIN = 8453;
    static final long ISSUED = 1_735_689_600_000L;

    private static AgentAuthorizationText.Builder authorization()
    {
        return AgentAuthorizationText.builder()
            .owner(OWNER)
            .agent(AgentKey.secp256k1(AGENT))
            .kind(AgentKind.INSTITUTIONAL)
            .scopes(Scope.READ, Scope.CANCEL, Scope.TRADE)
            .policy("markets=1,2;max_notional=1000000")
            .deliveryKey(DELIVERY_KEY)
            .nonce(7)
            .issuedAtMs(ISSUED)
            .expiresAtMs(ISSUED + 90 * AgentKind.DAY_MS)
            .chainId(CHAIN)
            .verifyingContract(CONTRACT);
    }

    @Test
    void agentAuthorizationText()
    {
        final AgentAuthorizationText text = authorization().build();
        assertEquals(String.join("\n",
            "Service Agent Authorization",
            "app:service-trading",
            "owner:0x8ba1f109551bd432803012645ac136ddd64dba72",
            "agent:0x71c7656ec7ab88b098defb751b7401b5f6d8976f",
            "agent_kind:institutional",
            "scopes:trade,cancel,read",
            "policy:markets=1,2;max_notional=1000000",
            "delivery_key:x25519:8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
            "nonce:7",
            "issued_at:1735689600000",
            "expires_at:1743465600000",
            "chain_id:8453",
            "verifying_contract:0x00000000000000000000000000000000000c0de1"), text.text());
        assertEquals(EnumSet.of(Scope.TRADE, Scope.CANCEL, Scope.READ), text.scopes());
        assertEquals(DELIVERY_KEY, text.deliveryKey());
        assertThrows(UnsupportedOperationException.class, () -> text.scopes().add(Scope.QUOTE));
    }

    @Test
    void ed25519AgentAndUnsignedNumbers()
    {
        final String text = authorization()
            .agent(AgentKey.ed25519(ED25519_AGENT))
            .deliveryKey(null)
            .kind(AgentKind.MOBILE)
            .policy("")
            .nonce(-1L)
            .chainId(-1L)
            .expiresAtMs(ISSUED + AgentKind.DAY_MS)
            .build()
            .text();
        final String[] lines = text.split("\n", -1);
        assertEquals("agent:ed25519:d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", lines[3]);
        assertEquals("agent_kind:mobile", lines[4]);
        assertEquals("policy:", lines[6]);
        assertEquals("nonce:18446744073709551615", lines[7]);
        assertEquals("chain_id:18446744073709551615", lines[10]);
    }

    @Test
    void lifetimeCapIsInclusivePerKind()
    {
        for (final AgentKind kind : AgentKind.values())
        {
            final AgentAuthorizationText.Builder builder = authorization().kind(kind);
            assertNull(builder.expiresAtMs(ISSUED + kind.maxLifetimeMs()).problem(), kind.wire());
            assertTrue(builder.expiresAtMs(ISSUED + kind.maxLifetimeMs() + 1).problem().contains("cap"), kind.wire());
        }
        assertTrue(authorization().expiresAtMs(ISSUED).problem().startsWith("expires_at"));
        assertTrue(authorization().expiresAtMs(ISSUED - 1).problem().startsWith("expires_at"));
        final IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
            () -> authorization().kind(AgentKind.BROWSER).build());
        assertTrue(thrown.getMessage().contains("browser"));
    }

    @Test
    void authorizationProblemsNameTheField()
    {
        assertEquals("owner is required", authorization().owner(null).problem());
        assertEquals("agent is required", authorization().agent(null).problem());
        assertEquals("agent_kind is required", authorization().kind(null).problem());
        assertTrue(AgentAuthorizationText.builder().owner(OWNER).agent(AgentKey.secp256k1(AGENT)).kind(AgentKind.API)
            .problem().startsWith("scopes"));
        assertTrue(authorization().policy(null).problem().startsWith("policy"));
        assertTrue(authorization().policy("a\nb").problem().startsWith("policy"));
        assertTrue(authorization().policy("caf\u00e9").problem().startsWith("policy"));
        assertTrue(authorization().policy("x".repeat(1025)).problem().startsWith("policy"));
        assertNull(authorization().policy("x".repeat(1024)).problem());
        assertTrue(authorization().issuedAtMs(-1).problem().startsWith("issued_at"));
        assertTrue(authorization().chainId(0).problem().startsWith("chain_id"));
        assertTrue(authorization().verifyingContract(null).problem().startsWith("verifying_contract"));
        assertTrue(AgentAuthorizationText.builder().owner(OWNER).agent(AgentKey.secp256k1(AGENT)).kind(AgentKind.API)
            .scopes(Scope.READ).policy("").deliveryKey(DELIVERY_KEY).problem().startsWith("nonce"));
    }

    @Test
    void aSecp256k1AgentNeedsADeliveryKeyAndAnEd25519AgentHasNone()
    {
        assertTrue(authorization().deliveryKey(null).problem().startsWith("delivery_key is required"));
        assertTrue(authorization().deliveryKey(DELIVERY_KEY.toUpperCase()).problem().startsWith("delivery_key"));
        assertTrue(authorization().deliveryKey("x25519:" + "00".repeat(32)).problem().contains("low-order"));
        assertTrue(authorization().agent(AgentKey.ed25519(ED25519_AGENT)).problem().startsWith("delivery_key is only"));
        assertTrue(AgentRotationText.builder().owner(OWNER).agentId("spk_5f2b8c1d9e7a4630")
            .newAgent(AgentKey.secp256k1(AGENT)).nonce(8).issuedAtMs(ISSUED).chainId(CHAIN).verifyingContract(CONTRACT)
            .problem().startsWith("delivery_key is required"));
        final String rotation = AgentRotationText.builder().owner(OWNER).agentId("spk_5f2b8c1d9e7a4630")
            .newAgent(AgentKey.secp256k1(AGENT)).deliveryKey(DELIVERY_KEY).nonce(8).issuedAtMs(ISSUED).chainId(CHAIN)
            .verifyingContract(CONTRACT).build().text();
        assertTrue(rotation.contains("\nnew_agent:0x71c7656ec7ab88b098defb751b7401b5f6d8976f\ndelivery_key:" +
            DELIVERY_KEY + "\nnonce:8\n"), rotation);
    }

    @Test
    void agentKeys()
    {
        final byte[] notOnCurve = new byte[32];
        notOnCurve[0] = 2;
        assertThrows(IllegalArgumentException.class, () -> AgentKey.ed25519(notOnCurve));
        assertThrows(IllegalArgumentException.class, () -> AgentKey.ed25519(new byte[20]));
        assertThrows(IllegalArgumentException.class, () -> AgentKey.secp256k1(null));
        assertEquals(AgentKey.ed25519(ED25519_AGENT), AgentKey.ed25519(ED25519_AGENT.clone()));
        assertFalse(AgentKey.secp256k1(AGENT).isEd25519());
        assertEquals("0x71c7656ec7ab88b098defb751b7401b5f6d8976f", AgentKey.secp256k1(AGENT).text());
    }

    @Test
    void rotationText()
    {
        final AgentRotationText text = AgentRotationText.builder()
            .owner(OWNER)
            .agentId("spk_5f2b8c1d9e7a4630")
            .newAgent(AgentKey.ed25519(ED25519_AGENT))
            .nonce(8)
            .issuedAtMs(ISSUED)
            .chainId(CHAIN)
            .verifyingContract(CONTRACT)
            .build();
        assertEquals(String.join("\n",
            "Service Agent Rotation",
            "owner:0x8ba1f109551bd432803012645ac136ddd64dba72",
            "agent_id:spk_5f2b8c1d9e7a4630",
            "new_agent:ed25519:d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            "nonce:8",
            "issued_at:1735689600000",
            "chain_id:8453",
            "verifying_contract:0x00000000000000000000000000000000000c0de1"), text.text());
        assertTrue(AgentRotationText.builder().owner(OWNER).agentId("spk_5F2B8C1D9E7A4630").problem()
            .startsWith("agent_id"));
        assertTrue(AgentRotationText.builder().owner(OWNER).agentId("spk_5f2b8c1d9e7a4630").problem()
            .startsWith("new_agent"));
    }

    @Test
    void revocationTextForOneCredentialOrAll()
    {
        final AgentRevocationText.Builder builder = AgentRevocationText.builder()
            .owner(OWNER)
            .agentId("spk_5f2b8c1d9e7a4630")
            .nonce(9)
            .issuedAtMs(ISSUED)
            .chainId(CHAIN)
            .verifyingContract(CONTRACT);
        final String all = String.join("\n",
            "Service Agent Revocation",
            "owner:0x8ba1f109551bd432803012645ac136ddd64dba72",
            "agent_id:spk_5f2b8c1d9e7a4630",
            "credential:all",
            "nonce:9",
            "issued_at:1735689600000",
            "chain_id:8453",
            "verifying_contract:0x00000000000000000000000000000000000c0de1");
        final AgentRevocationText revokeAll = builder.build();
        assertEquals(all, revokeAll.text());
        assertTrue(revokeAll.revokesAll());

        final AgentRevocationText revokeOne = builder.credentialId("spk_0a1b2c3d4e5f6071").build();
        assertEquals(all.replace("credential:all", "credential:spk_0a1b2c3d4e5f6071"), revokeOne.text());
        assertEquals("spk_0a1b2c3d4e5f6071", revokeOne.credentialId());
        assertTrue(builder.credentialId("all").problem().startsWith("credential"));
    }

    @Test
    void ownerRevokeText()
    {
        final OwnerRevokeText text = OwnerRevokeText.builder()
            .owner(OWNER)
            .nonce(10)
            .issuedAtMs(ISSUED)
            .chainId(42161)
            .verifyingContract(CONTRACT)
            .build();
        assertEquals(String.join("\n",
            "Service Owner Revoke",
            "owner:0x8ba1f109551bd432803012645ac136ddd64dba72",
            "nonce:10",
            "issued_at:1735689600000",
            "chain_id:42161",
            "verifying_contract:0x00000000000000000000000000000000000c0de1"), text.text());
        assertEquals("nonce is required", OwnerRevokeText.builder().owner(OWNER).problem());
    }

    @Test
    void wsTokenText()
    {
        final WsTokenText text = WsTokenText.builder().owner(OWNER).nonce(7).issuedAtMs(ISSUED).chainId(42161)
            .verifyingContract(CONTRACT).build();
        assertEquals(String.join("\n",
            "Service WS Token",
            "account:0x8ba1f109551bd432803012645ac136ddd64dba72",
            "nonce:7",
            "issued_at:1735689600000",
            "chain_id:42161",
            "verifying_contract:" + CONTRACT), text.text());
        assertEquals(OWNER, text.account());
    }

    @Test
    void adminActionText()
    {
        final byte[] digest = new byte[32];
        for (int i = 0; i < 32; i++)
        {
            digest[i] = (byte)i;
        }
        assertEquals("Service Admin Action\ndigest:0x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
            AdminActionText.of(digest).text());
        final byte[] written = new byte[AdminActionText.LENGTH];
        AdminActionText.write(digest, 0, written);
        assertEquals(AdminActionText.of(digest).text(), new String(written, StandardCharsets.US_ASCII),
            "the verifier's allocation-free bytes are the text");
        assertThrows(IllegalArgumentException.class, () -> AdminActionText.of(new byte[31]));
        assertThrows(IllegalArgumentException.class, () -> AdminActionText.of(null));
    }

    @Property(tries = 300)
    void authorizationAlwaysHasThirteenLinesInOrder(
        @ForAll final Set<Scope> scopes,
        @ForAll final long nonce,
        @ForAll @LongRange(min = 1, max = 180L * 24 * 3600 * 1000) final long lifetime)
    {
        final AgentAuthorizationText.Builder builder = AgentAuthorizationText.builder()
            .owner(OWNER)
            .agent(AgentKey.secp256k1(AGENT))
            .kind(AgentKind.API)
            .scopes(scopes)
            .policy("p")
            .deliveryKey(DELIVERY_KEY)
            .nonce(nonce)
            .issuedAtMs(ISSUED)
            .expiresAtMs(ISSUED + lifetime)
            .chainId(CHAIN)
            .verifyingContract(CONTRACT);
        if (scopes.isEmpty())
        {
            assertTrue(builder.problem().startsWith("scopes"));
            return;
        }
        final String text = builder.build().text();
        final String[] lines = text.split("\n", -1);
        assertEquals(13, lines.length);
        assertFalse(text.endsWith("\n"));
        assertFalse(text.contains("\r"));
        final String[] names = {"app", "owner", "agent", "agent_kind", "scopes", "policy", "delivery_key", "nonce",
            "issued_at", "expires_at", "chain_id", "verifying_contract"};
        for (int i = 0; i < names.length; i++)
        {
            assertTrue(lines[i + 1].startsWith(names[i] + ":"), lines[i + 1]);
        }
        assertEquals("scopes:" + Scope.join(EnumSet.copyOf(scopes)), lines[5]);
        assertEquals("nonce:" + Long.toUnsignedString(nonce), lines[8]);
        // The fixed order: each scope's position in the line follows its declaration order.
        int previous = -1;
        for (final String wire : lines[5].substring("scopes:".length()).split(","))
        {
            final int ordinal = Scope.fromWire(wire).ordinal();
            assertTrue(ordinal > previous);
            previous = ordinal;
        }
    }
}
