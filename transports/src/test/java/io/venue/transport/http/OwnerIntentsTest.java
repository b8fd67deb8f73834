package io.venue.transport.http;

import io.venue.action.Address;
import io.venue.auth.CredentialDelivery;
import io.venue.auth.CredentialSecrets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import io.venue.auth.WsTokenText;
import io.venue.codec.Hex;
import io.venue.crypto.BouncyCastleSecp256k1Recovery;
import io.venue.crypto.Eip191;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent routes' bodies on their face: what becomes a command, and that anything else is a {@link
 * OwnerIntents.BadIntent} naming the field, never another exception.
 */
class OwnerIntentsTest
{
    private static final long NOW = 1_800_000_000_000L;
    private static final String OWNER = "0x" + "11".repeat(20);
    private static final String SIGNATURE = "0x" + "22".repeat(65);
    private final OwnerIntents intents = new OwnerIntents(8453, Address.of("0x" + "5e".repeat(20)),
        new CredentialSecrets(new byte[32]), new SecureRandom(), () -> NOW, BouncyCastleSecp256k1Recovery::new);

    private static final CredentialDelivery.Requester REQUESTER = new CredentialDelivery.Requester(new SecureRandom());

    /** A create body; a secp256k1 agent's carries the requester's delivery key. */
    private static String create(final String agent)
    {
        final String delivery = agent.startsWith("0x") ?
            "\"deliveryKey\":\"" + REQUESTER.keyText() + "\"," : "";
        return "{\"userWalletAddress\":\"" + OWNER + "\",\"agent\":\"" + agent + "\",\"agentKind\":\"api\"," +
            "\"scopes\":[\"trade\",\"read\"],\"policy\":\"\"," + delivery + "\"nonce\":3,\"issuedAtMs\":" + NOW +
            ",\"expiresAtMs\":" + (NOW + 1000) + ",\"authorization\":{\"signature\":\"" + SIGNATURE + "\"}}";
    }

    private OwnerIntents.Intent parse(final OwnerIntents.Kind kind, final String id, final String body)
        throws OwnerIntents.BadIntent
    {
        return intents.parse(kind, id, body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aCreateBecomesTheSignedTextTheCommandAndACredential() throws Exception
    {
        final OwnerIntents.Intent intent = parse(OwnerIntents.Kind.CREATE, null, create("0x" + "33".repeat(20)));
        final String text = new String(intent.text(), StandardCharsets.UTF_8);
        assertTrue(text.startsWith("Service Agent Authorization\napp:" +
            "service-trading\nowner:" + OWNER + "\nagent:0x3333"), text);
        assertTrue(text.contains("\nscopes:trade,read\n"), text);
        assertEquals(intent.agentId(), intent.apiKeyId());
        assertTrue(text.contains("\npolicy:\ndelivery_key:" + REQUESTER.keyText() + "\nnonce:3\n"), text);
        assertTrue(intent.apiKeyId().startsWith("spk_01"), "issued under key version 1: " + intent.apiKeyId());
        final CredentialDelivery.Opened opened = REQUESTER.open(intent.sealedCredential(), intent.apiKeyId());
        assertEquals(new CredentialSecrets(new byte[32]).apiSecret(intent.apiKeyId(), 1), opened.apiSecret(),
            "derived, not stored, and sealed to the delivery key");
        assertEquals(new CredentialSecrets(new byte[32]).passphrase(intent.apiKeyId(), 1), opened.apiPassphrase());
        assertFalse(intent.sealedCredential().contains(opened.apiSecret().substring(4)));
        final CredentialDelivery.Requester other = new CredentialDelivery.Requester(new SecureRandom());
        assertThrows(IllegalArgumentException.class, () -> other.open(intent.sealedCredential(), intent.apiKeyId()),
            "another key does not open it");
        assertEquals(NOW + 1000, intent.validUntilMs());
        assertEquals(40, intent.command()[2], "an AgentCreate record");

        final OwnerIntents.Intent ed = parse(OwnerIntents.Kind.CREATE, null,
            create("ed25519:" + "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"));
        assertNull(ed.sealedCredential(), "an Ed25519 agent has no secret");
    }

    @Test
    void aNewCredentialIsIssuedUnderTheCurrentKeyVersion() throws Exception
    {
        final byte[] one = new byte[32];
        final byte[] two = new byte[32];
        Arrays.fill(two, (byte)2);
        final CredentialSecrets secrets = new CredentialSecrets(Map.of(1, one, 2, two));
        final OwnerIntents.Intent intent = new OwnerIntents(8453, Address.of("0x" + "5e".repeat(20)), secrets,
            new SecureRandom(), () -> NOW, BouncyCastleSecp256k1Recovery::new)
            .parse(OwnerIntents.Kind.CREATE, null, create("0x" + "33".repeat(20)).getBytes(StandardCharsets.UTF_8));
        assertTrue(intent.apiKeyId().startsWith("spk_02"), intent.apiKeyId());
        final CredentialDelivery.Opened opened = REQUESTER.open(intent.sealedCredential(), intent.apiKeyId());
        assertEquals(secrets.apiSecret(intent.apiKeyId(), 2), opened.apiSecret());
        assertNotEquals(secrets.apiSecret(intent.apiKeyId(), 1), opened.apiSecret());
    }

    @Test
    void aSecp256k1AgentNeedsADeliveryKeyAndAnEd25519AgentTakesNone()
    {
        final String good = create("0x" + "33".repeat(20));
        assertField("deliveryKey", good.replace("\"deliveryKey\":\"" + REQUESTER.keyText() + "\",", ""));
        assertField("deliveryKey", good.replace(REQUESTER.keyText(), "x25519:" + "00".repeat(32)));
        assertField("deliveryKey",
            create("ed25519:" + "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
                .replace("\"policy\":\"\",", "\"policy\":\"\",\"deliveryKey\":\"" + REQUESTER.keyText() + "\","));
    }

    @Test
    void refusalsNameTheField()
    {
        final String good = create("0x" + "33".repeat(20));
        assertField("userWalletAddress", good.replace(OWNER, "0x12"));
        assertField("authorization.accountIdHex",
            good.replace("{\"signature\"", "{\"accountIdHex\":\"" + OWNER + "\",\"signature\""));
        assertField("issuedAtMs", good.replace("\"issuedAtMs\":" + NOW, "\"issuedAtMs\":" + (NOW - 31_000)));
        assertField("scopes", good.replace("[\"trade\",\"read\"]", "[\"trade\",\"trade\"]"));
        assertField("agentKind", good.replace("\"api\"", "\"robot\""));
        assertField("nonce", good.replace("\"nonce\":3", "\"nonce\":-3"));
        assertField("extra", good.replace("{\"userWalletAddress\"", "{\"extra\":1,\"userWalletAddress\""));
        assertField("authorization.signature", good.replace(SIGNATURE, "0x00"));
        assertField("",
            good.replace("\"expiresAtMs\":" + (NOW + 1000), "\"expiresAtMs\":" + (NOW + 181L * 24 * 3_600_000)));
        assertThrows(OwnerIntents.BadIntent.class,
            () -> parse(OwnerIntents.Kind.ROTATE, "spk_nothex", "{\"userWalletAddress\":\"" +
            OWNER + "\",\"newAgent\":\"" + OWNER + "\",\"nonce\":1,\"issuedAtMs\":" + NOW + ",\"signature\":\"" +
            SIGNATURE + "\"}"));
    }

    private void assertField(final String field, final String body)
    {
        final OwnerIntents.BadIntent bad = assertThrows(OwnerIntents.BadIntent.class,
            () -> parse(OwnerIntents.Kind.CREATE, null, body),
            body);
        assertEquals(field, bad.field(), bad.getMessage());
    }

    @Property(tries = 2000)
    void mutatedBodiesAreIntentsOrRefusalsNeverOtherExceptions(@ForAll final long seed,
        @ForAll final OwnerIntents.Kind kind)
    {
        final Random random = new Random(seed);
        final byte[] body = create("0x" + "33".repeat(20)).getBytes(StandardCharsets.UTF_8);
        for (int i = random.nextInt(3); i >= 0; i--)
        {
            body[random.nextInt(body.length)] = (byte)random.nextInt(128);
        }
        try
        {
            intents.parse(kind, "spk_0123456789abcdef", body);
        }
        catch (final OwnerIntents.BadIntent refused)
        {
            assertTrue(refused.getMessage() != null && !refused.getMessage().isEmpty());
        }
    }

    private static final Secp256k1KeyPair WALLET = Secp256k1KeyPair.generate(new SecureRandom());

    /** A token request for the wallet's own account, really signed. */
    private static byte[] tokenRequest(final long nonce, final long issuedAtMs)
    {
        final WsTokenText text = WsTokenText.builder().owner(WALLET.address()).nonce(nonce)
            .issuedAtMs(issuedAtMs).chainId(8453).verifyingContract(Address.of("0x" + "5e".repeat(20))).build();
        final String signature = Hex.to0x(new Secp256k1Signer(WALLET)
            .sign(Eip191.personalHash(text.text()), PreimageMode.RAW));
        return ("{\"account\":\"" + WALLET.address() + "\",\"nonce\":" + nonce + ",\"issuedAtMs\":" + issuedAtMs +
            ",\"signature\":\"" + signature + "\",\"ttlMs\":60000}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aWalletTokenTextRecoversItsSignerAndIsTakenOnce() throws Exception
    {
        // the lane started at NOW: it takes texts dated from a second later (and at most a second ahead of its clock)
        final long issued = NOW + OwnerIntents.TOKEN_TEXT_FUTURE_MS;
        final OwnerIntents.WalletToken request = intents.walletToken(OwnerIntents.object(tokenRequest(1, issued)));
        assertEquals(WALLET.address().toString(), request.signer());
        assertEquals(WALLET.address().toString(), request.account());
        assertNull(intents.useOnce(request));
        assertEquals("used", intents.useOnce(request));
        final OwnerIntents.BadIntent early = assertThrows(OwnerIntents.BadIntent.class,
            () -> intents.walletToken(OwnerIntents.object(tokenRequest(2, issued - 1))));
        assertEquals("issuedAtMs", early.field(),
            "a text an earlier node could have taken: this lane's memory of used texts is empty");
        final OwnerIntents.BadIntent ahead = assertThrows(OwnerIntents.BadIntent.class,
            () -> new OwnerIntents(8453, Address.of("0x" + "5e".repeat(20)), new CredentialSecrets(new byte[32]),
                new SecureRandom(), () -> NOW - 10_000, BouncyCastleSecp256k1Recovery::new)
                .walletToken(OwnerIntents.object(tokenRequest(3, issued))));
        assertTrue(ahead.getMessage().contains("ahead"), ahead.getMessage());
    }

    @Property(tries = 500)
    void mutatedTokenRequestsAreTokensOrRefusalsNeverOtherExceptions(@ForAll final long seed)
    {
        final Random random = new Random(seed);
        final byte[] body = tokenRequest(Math.floorMod(seed, 1000), NOW + OwnerIntents.TOKEN_TEXT_FUTURE_MS);
        for (int i = random.nextInt(3); i >= 0; i--)
        {
            body[random.nextInt(body.length)] = (byte)random.nextInt(128);
        }
        try
        {
            final OwnerIntents.WalletToken request = intents.walletToken(OwnerIntents.object(body));
            assertTrue(request.signer().startsWith("0x") && request.signer().length() == 42);
        }
        catch (final OwnerIntents.BadIntent refused)
        {
            assertTrue(refused.getMessage() != null && !refused.getMessage().isEmpty());
        }
    }
}
