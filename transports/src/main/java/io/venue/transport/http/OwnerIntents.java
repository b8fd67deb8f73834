package io.venue.transport.http;

import io.venue.action.Address;
import io.venue.auth.AgentAuthorizationText;
import io.venue.auth.AgentKey;
import io.venue.auth.AgentKind;
import io.venue.auth.AgentRevocationText;
import io.venue.auth.AgentRotationText;
import io.venue.auth.CredentialDelivery;
import io.venue.auth.CredentialSecrets;
import io.venue.auth.Credentials;
import io.venue.auth.OwnerRevokeText;
import io.venue.auth.OwnerSignedText;
import io.venue.auth.Scope;
import io.venue.codec.Hex;
import io.venue.codec.JsonWriter;
import io.venue.crypto.Eip191;
import io.venue.journal.sbe.AgentCreateEncoder;
import io.venue.journal.sbe.AgentKeyKind;
import io.venue.journal.sbe.AgentRevokeEncoder;
import io.venue.journal.sbe.AgentRotateEncoder;
import io.venue.journal.sbe.BooleanType;
import io.venue.journal.sbe.MessageHeaderEncoder;
import io.venue.journal.sbe.RejectCode;
import io.venue.journal.sbe.OwnerRevokeEncoder;
import org.agrona.ExpandableArrayBuffer;

import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import io.venue.auth.WsTokenText;
import io.venue.crypto.RecoveryStatus;
import io.venue.crypto.Secp256k1Recovery;
import io.venue.svc.SvcVerifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.function.Supplier;
import org.agrona.collections.LongArrayQueue;

/**
 * Reads the bodies of the agent routes (spec 3.3, 5.8) into owner intents: the text the owner wallet signed with
 * EIP-191, rebuilt here from the request's fields (so the wallet signs exactly what the venue applies), and the
 * command record that applies it. A new credential id is drawn for create and rotate, its first byte the current
 * credential key version; an HMAC (secp256k1) agent's secret and passphrase are derived from it
 * ({@link CredentialSecrets}) and returned once, sealed to the delivery key the owner signed
 * ({@link CredentialDelivery}), so only the requester that made the key reads them, whoever submits the body.
 * <p>
 * The signature is checked by the verifier pool, the nonce and the agent rules by the engine; here only what the
 * fields say on their face: shape, formats, the lifetime cap of the agent kind (spec 8.5), and an issue time within
 * {@link #MAX_ISSUED_SKEW_MS} of the server's clock, which bounds how long a signed intent can wait to be used and
 * anchors the rotation overlap ({@link AgentRotationText#OVERLAP_MS} after it). Thread safe.
 */
public final class OwnerIntents
{
    /** The four owner routes. */
    public enum Kind
    {
        CREATE, ROTATE, REVOKE, OWNER_REVOKE
    }

    /** An issue time further than this from the server's clock is refused: the machine headers' skew (spec 8.5). */
    public static final long MAX_ISSUED_SKEW_MS = SvcVerifier.MAX_SKEW_MS;

    private static final Pattern ADDRESS = Routes.ADDRESS;
    private static final Pattern SIGNATURE = Pattern.compile("0x[0-9a-f]{130}");
    private static final Pattern ACCOUNT_ID = Pattern.compile("0x[0-9a-f]{64}");
    private static final Pattern ED25519 = Pattern.compile(Pattern.quote(AgentKey.ED25519_PREFIX) + "[0-9a-f]{64}");
    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    /**
     * One owner intent ready for the verifier pool. {@code apiKeyId} is the new credential of a create or rotate
     * (null otherwise); {@code sealedCredential} (0x hex) is set for a secp256k1 agent's new credential only: its
     * secret and passphrase sealed to the signed delivery key.
     */
    public record Intent(Kind kind, byte[] owner, byte[] signature, byte[] text, byte[] command, int commandLength,
        String agentId, String apiKeyId, String sealedCredential, long validUntilMs)
    {
        /** Not the sealed credential: a log line has no use for it. */
        @Override
        public String toString()
        {
            return "Intent[" + kind + " agent " + agentId + " credential " + apiKeyId + "]";
        }
    }

    /** A request the lane refuses on its face: 400 with the field and the reason. */
    public static final class BadIntent extends Exception
    {
        private final String field;

        public BadIntent(final String field, final String message)
        {
            super(message, null, false, false);
            this.field = field;
        }

        public String field()
        {
            return field;
        }
    }

    /**
     * Where the lane asks whether a credential id is active (the node's agent directory, from the event journal): a
     * create or rotate body sent again after the engine applied it names the same credential
     * ({@link CredentialSecrets#apiKeyIdFor}), which is then delivered again, sealed to the same signed key.
     */
    public OwnerIntents issued(final Predicate<String> issued)
    {
        this.issued = issued;
        return this;
    }

    /**
     * Whether the engine's {@code code} for {@code intent} means that this very intent was applied before (its nonce
     * is used and the credential it names is active), so that its requester is to get its credential again: sealed to
     * the delivery key the owner signed, it opens for nobody else.
     */
    public boolean deliversAgain(final Intent intent, final RejectCode code)
    {
        return intent.sealedCredential() != null &&
            (code == RejectCode.NONCE_BELOW_FLOOR || code == RejectCode.NONCE_REPLAYED) &&
            issued.test(intent.apiKeyId());
    }

    /**
     * A wallet's signed request for a token, its signer recovered; {@code textHash} is the EIP-191 hash that
     * {@link #useOnce} takes once the signer is known to act for the account.
     */
    public record WalletToken(String account, String signer, long ttlMs, String textHash, long issuedAtMs)
    {
    }

    /**
     * Token texts remembered as used at most, about 150 MB; past it the route refuses (503) until older ones age out.
     * The edge throttle lets one address use about 600 texts a minute, so filling it takes over 1,600 addresses.
     */
    public static final int MAX_USED_TOKEN_TEXTS = 1_000_000;
    /** How far ahead of the server's clock a token text's issue time may be. */
    public static final long TOKEN_TEXT_FUTURE_MS = 1_000;

    private final long chainId;
    private final Address verifyingContract;
    private final CredentialSecrets secrets;
    private final SecureRandom random;
    private final LongSupplier clockMs;
    private final ThreadLocal<Secp256k1Recovery> recovery;
    /** The EIP-191 hashes of the token texts already used, and when each was taken, in that order, for ageing out. */
    private final Set<String> usedTokenTexts = new HashSet<>();
    private final ArrayDeque<String> usedInOrder = new ArrayDeque<>();
    private final LongArrayQueue usedAtMs = new LongArrayQueue();
    /**
     * This lane's memory of used texts starts empty: a text the node before it (this process before a restart, or the
     * old primary) may have taken must be refused. A token text may not be dated more than
     * {@link #TOKEN_TEXT_FUTURE_MS} ahead, so a node only ever took texts issued before its own time plus that; texts
     * issued at least that long after this lane started cannot have been taken by an earlier one.
     */
    private final long acceptsTextsFromMs;
    private Predicate<String> issued = apiKeyId -> false;

    /**
     * @param recovery makes the secp256k1 recovery of a wallet-signed token request, one per I/O thread.
     */
    public OwnerIntents(
        final long chainId, final Address verifyingContract, final CredentialSecrets secrets, final SecureRandom random,
        final LongSupplier clockMs, final Supplier<Secp256k1Recovery> recovery)
    {
        this.chainId = chainId;
        this.verifyingContract = verifyingContract;
        this.secrets = secrets;
        this.random = random;
        this.clockMs = clockMs;
        this.recovery = ThreadLocal.withInitial(recovery);
        this.acceptsTextsFromMs = clockMs.getAsLong() + TOKEN_TEXT_FUTURE_MS;
    }

    /**
     * A token request signed by a wallet (spec 5.7): {@code account}, {@code nonce}, {@code issuedAtMs},
     * {@code signature} and an optional {@code ttlMs}. The signer is recovered here, on the calling (I/O) thread: one
     * recovery per request, behind the edge throttle. Whether the signer may act for the account is the caller's
     * question; then {@link #useOnce} makes the text single use.
     */
    public WalletToken walletToken(final Map<?, ?> body) throws BadIntent
    {
        final Fields fields = new Fields(body);
        fields.allow("account", "nonce", "issuedAtMs", "signature", "ttlMs");
        final Address account = fields.address("account");
        final long issuedAtMs = issuedAt(fields);
        final long nonce = fields.u64("nonce");
        final long ttlMs = body.get("ttlMs") == null ? 0 : fields.millis("ttlMs");
        final WsTokenText text = build("", () -> WsTokenText.builder().owner(account).nonce(nonce)
            .issuedAtMs(issuedAtMs).chainId(chainId).verifyingContract(verifyingContract).build());
        final byte[] signature = fields.signature("signature");
        final byte[] hash = Eip191.personalHash(text.text());
        final byte[] signer = new byte[20];
        if (recovery.get().recover(hash, 0, signature, 0, signer, 0) != RecoveryStatus.OK)
        {
            throw new BadIntent("signature", "not a valid secp256k1 signature");
        }
        if (issuedAtMs > clockMs.getAsLong() + TOKEN_TEXT_FUTURE_MS)
        {
            throw new BadIntent("issuedAtMs",
                "a token text may be dated at most " + TOKEN_TEXT_FUTURE_MS + " ms ahead of the " +
                "server's time " + clockMs.getAsLong() + " (serverTimeMs)");
        }
        if (issuedAtMs < acceptsTextsFromMs)
        {
            throw new BadIntent("issuedAtMs",
                "this node takes token texts issued from " + acceptsTextsFromMs + " on (just " +
                "after it started, so no text can be used twice across a restart or a failover): sign a new one");
        }
        return new WalletToken(account.toString(), Hex.to0x(signer), ttlMs, Hex.to0x(hash), issuedAtMs);
    }

    /**
     * Takes the request's text as used. Texts are remembered until they are too old to pass the issue-time check
     * again, at most {@link #MAX_USED_TOKEN_TEXTS} of them.
     *
     * @return null when taken; otherwise why not: "used" (the text obtained a token already) or "full".
     */
    public synchronized String useOnce(final WalletToken request)
    {
        // a text is accepted only within the skew of its issue time, and taken within the skew of arrival: after twice
        // the skew since it was taken it can never pass the issue-time check again
        final long now = clockMs.getAsLong();
        while (!usedAtMs.isEmpty() && usedAtMs.peekLong() < now - 2 * MAX_ISSUED_SKEW_MS)
        {
            usedAtMs.pollLong();
            usedTokenTexts.remove(usedInOrder.poll());
        }
        if (usedTokenTexts.contains(request.textHash()))
        {
            return "used";
        }
        if (usedTokenTexts.size() >= MAX_USED_TOKEN_TEXTS)
        {
            return "full";
        }
        usedTokenTexts.add(request.textHash());
        usedInOrder.add(request.textHash());
        usedAtMs.addLong(now);
        return null;
    }

    /** The body as a JSON object, or the reason it is not one. */
    public static Map<?, ?> object(final byte[] body) throws BadIntent
    {
        final Object json;
        try
        {
            json = JsonReader.read(body);
        }
        catch (final JsonReader.JsonException ex)
        {
            throw new BadIntent("", "the body is not valid JSON: " + ex.getMessage());
        }
        if (!(json instanceof Map<?, ?> map))
        {
            throw new BadIntent("", "the body must be a JSON object");
        }
        return map;
    }

    /**
     * @param pathAgentId the {id} of /api/agents/{id}/rotate; null for the other routes.
     */
    public Intent parse(final Kind kind, final String pathAgentId, final byte[] body) throws BadIntent
    {
        final Fields fields = new Fields(object(body));
        return switch (kind)
        {
            case CREATE -> create(fields);
            case ROTATE -> rotate(fields, pathAgentId);
            case REVOKE -> revoke(fields);
            case OWNER_REVOKE -> ownerRevoke(fields);
        };
    }

    private Intent create(final Fields fields) throws BadIntent
    {
        fields.allow("userWalletAddress", "agent", "agentKind", "scopes", "policy", "deliveryKey", "nonce",
            "issuedAtMs", "expiresAtMs", "authorization");
        final Fields authorization = fields.object("authorization");
        authorization.allow("signature", "accountIdHex");
        final Address owner = fields.address("userWalletAddress");
        final String accountId = authorization.optionalString("accountIdHex");
        if (accountId != null && !ACCOUNT_ID.matcher(accountId).matches())
        {
            throw new BadIntent("authorization.accountIdHex", ADDRESS.matcher(accountId).matches() ?
                "a 20-byte wallet address is not an account id: put the owner wallet in userWalletAddress and omit " +
                "accountIdHex" :
                "the internal account id is 0x and 64 lowercase hex digits; omit it unless you know it");
        }
        if (accountId != null && !accountId.equals(accountIdOf(owner)))
        {
            throw new BadIntent("authorization.accountIdHex",
                "names another account than the owner wallet's " + accountIdOf(owner));
        }
        final AgentKey agent = fields.agentKey("agent");
        final AgentKind kind = AgentKind.fromWire(fields.string("agentKind"));
        if (kind == null)
        {
            throw new BadIntent("agentKind", "one of api, institutional, browser, mobile");
        }
        final Set<Scope> scopes = fields.scopes("scopes");
        final long issuedAtMs = issuedAt(fields);
        final long expiresAtMs = fields.millis("expiresAtMs");
        final long nonce = fields.u64("nonce");
        final String policy = fields.string("policy");
        final String deliveryKey = deliveryKey(fields, agent);
        final AgentAuthorizationText text = build("",
            () -> AgentAuthorizationText.builder().owner(owner).agent(agent).kind(kind)
            .scopes(scopes).policy(policy).deliveryKey(deliveryKey).nonce(nonce).issuedAtMs(issuedAtMs)
            .expiresAtMs(expiresAtMs)
            .chainId(chainId).verifyingContract(verifyingContract).build());
        final byte[] signature = authorization.signature("signature");
        final byte[] intentDigest = Eip191.personalHash(text.text());
        final String apiKeyId = secrets.apiKeyIdFor(intentDigest);
        final ExpandableArrayBuffer out = new ExpandableArrayBuffer(256 + text.policy().length());
        final AgentCreateEncoder create = new AgentCreateEncoder()
            .wrapAndApplyHeader(out, 0, new MessageHeaderEncoder());
        create.putOwner(owner.toBytes(), 0, 20);
        out.putLong(create.offset() + AgentCreateEncoder.agentIdEncodingOffset(), keyIdBits(apiKeyId),
            ByteOrder.BIG_ENDIAN);
        create.keyKind(keyKind(agent)).putAgentKey(keyBytes(agent), 0, 32)
            // FQN-CLASH: the journal's AgentKind (AgentKind here is the auth model's)
            .agentKind(io.venue.journal.sbe.AgentKind.valueOf(kind.name()))
            .issuedAtMs(issuedAtMs).expiresAtMs(expiresAtMs).nonce(nonce)
            .putIntentDigest(intentDigest, 0, 32);
        out.putByte(create.offset() + AgentCreateEncoder.scopesEncodingOffset(), scopeBits(scopes));
        create.policy(text.policy());
        return intent(Kind.CREATE, text, signature, out, MessageHeaderEncoder.ENCODED_LENGTH + create.encodedLength(),
            apiKeyId, apiKeyId, deliveryKey, expiresAtMs);
    }

    private Intent rotate(final Fields fields, final String agentId) throws BadIntent
    {
        fields.allow("userWalletAddress", "newAgent", "deliveryKey", "nonce", "issuedAtMs", "signature");
        final Address owner = fields.address("userWalletAddress");
        final AgentKey agent = fields.agentKey("newAgent");
        final String deliveryKey = deliveryKey(fields, agent);
        final long issuedAtMs = issuedAt(fields);
        final long nonce = fields.u64("nonce");
        final AgentRotationText text = build("agentId", () -> AgentRotationText.builder().owner(owner).agentId(agentId)
            .newAgent(agent).deliveryKey(deliveryKey).nonce(nonce).issuedAtMs(issuedAtMs).chainId(chainId)
            .verifyingContract(verifyingContract).build());
        final byte[] signature = fields.signature("signature");
        final byte[] intentDigest = Eip191.personalHash(text.text());
        final String apiKeyId = secrets.apiKeyIdFor(intentDigest);
        final ExpandableArrayBuffer out = new ExpandableArrayBuffer(256);
        final AgentRotateEncoder rotate = new AgentRotateEncoder()
            .wrapAndApplyHeader(out, 0, new MessageHeaderEncoder());
        rotate.putOwner(owner.toBytes(), 0, 20);
        out.putLong(rotate.offset() + AgentRotateEncoder.agentIdEncodingOffset(), keyIdBits(agentId),
            ByteOrder.BIG_ENDIAN);
        out.putLong(rotate.offset() + AgentRotateEncoder.newCredentialIdEncodingOffset(), keyIdBits(apiKeyId),
            ByteOrder.BIG_ENDIAN);
        final long overlapUntilMs = issuedAtMs + AgentRotationText.OVERLAP_MS;
        rotate.keyKind(keyKind(agent)).putAgentKey(keyBytes(agent), 0, 32).overlapUntilMs(overlapUntilMs)
            .issuedAtMs(issuedAtMs).nonce(nonce).putIntentDigest(intentDigest, 0, 32);
        return intent(Kind.ROTATE, text, signature, out, MessageHeaderEncoder.ENCODED_LENGTH + rotate.encodedLength(),
            agentId, apiKeyId, deliveryKey, overlapUntilMs);
    }

    private Intent revoke(final Fields fields) throws BadIntent
    {
        fields.allow("userWalletAddress", "agentId", "credentialId", "nonce", "issuedAtMs", "signature");
        final Address owner = fields.address("userWalletAddress");
        final String agentId = fields.string("agentId");
        final String credentialId = fields.optionalString("credentialId");
        final long issuedAtMs = issuedAt(fields);
        final long nonce = fields.u64("nonce");
        final AgentRevocationText text = build("agentId",
            () -> AgentRevocationText.builder().owner(owner).agentId(agentId)
            .credentialId(credentialId).nonce(nonce).issuedAtMs(issuedAtMs).chainId(chainId)
            .verifyingContract(verifyingContract) .build());
        final byte[] signature = fields.signature("signature");
        final ExpandableArrayBuffer out = new ExpandableArrayBuffer(256);
        final AgentRevokeEncoder revoke = new AgentRevokeEncoder()
            .wrapAndApplyHeader(out, 0, new MessageHeaderEncoder());
        revoke.putOwner(owner.toBytes(), 0, 20);
        out.putLong(revoke.offset() + AgentRevokeEncoder.agentIdEncodingOffset(), keyIdBits(agentId),
            ByteOrder.BIG_ENDIAN);
        out.putLong(revoke.offset() + AgentRevokeEncoder.credentialIdEncodingOffset(),
            credentialId == null ? 0 : keyIdBits(credentialId), ByteOrder.BIG_ENDIAN);
        revoke.allCredentials(credentialId == null ? BooleanType.TRUE : BooleanType.FALSE)
            .issuedAtMs(issuedAtMs).nonce(nonce) .putIntentDigest(Eip191.personalHash(text.text()), 0, 32);
        return intent(Kind.REVOKE, text, signature, out, MessageHeaderEncoder.ENCODED_LENGTH + revoke.encodedLength(),
            agentId, null, null, issuedAtMs);
    }

    private Intent ownerRevoke(final Fields fields) throws BadIntent
    {
        fields.allow("userWalletAddress", "nonce", "issuedAtMs", "signature");
        final Address owner = fields.address("userWalletAddress");
        final long issuedAtMs = issuedAt(fields);
        final long nonce = fields.u64("nonce");
        final OwnerRevokeText text = build("",
            () -> OwnerRevokeText.builder().owner(owner).nonce(nonce).issuedAtMs(issuedAtMs)
            .chainId(chainId).verifyingContract(verifyingContract).build());
        final byte[] signature = fields.signature("signature");
        final ExpandableArrayBuffer out = new ExpandableArrayBuffer(128);
        final OwnerRevokeEncoder revoke = new OwnerRevokeEncoder()
            .wrapAndApplyHeader(out, 0, new MessageHeaderEncoder());
        revoke.putOwner(owner.toBytes(), 0, 20).issuedAtMs(issuedAtMs).nonce(nonce)
            .putIntentDigest(Eip191.personalHash(text.text()), 0, 32);
        return intent(Kind.OWNER_REVOKE, text, signature, out,
            MessageHeaderEncoder.ENCODED_LENGTH + revoke.encodedLength(),
            null, null, null, issuedAtMs);
    }

    private Intent intent(
        final Kind kind, final OwnerSignedText text, final byte[] signature, final ExpandableArrayBuffer command,
        final int length, final String agentId, final String apiKeyId, final String deliveryKey,
        final long validUntilMs)
    {
        final byte[] bytes = new byte[length];
        command.getBytes(0, bytes);
        // a secp256k1 agent's new credential (the only intents with a delivery key): its secret, sealed
        final String sealed = deliveryKey == null ? null : Hex.to0x(CredentialDelivery.seal(deliveryKey, apiKeyId,
            secrets.apiSecret(apiKeyId), secrets.passphrase(apiKeyId), random));
        return new Intent(kind, text.owner().toBytes(), signature, text.text().getBytes(StandardCharsets.UTF_8), bytes,
            length, agentId, apiKeyId, sealed, validUntilMs);
    }

    /** The body's {@code deliveryKey}: required for a secp256k1 agent, refused for an Ed25519 one. */
    private static String deliveryKey(final Fields fields, final AgentKey agent) throws BadIntent
    {
        final String deliveryKey = fields.optionalString("deliveryKey");
        final String problem = CredentialDelivery.problem(agent, deliveryKey);
        if (problem != null)
        {
            throw new BadIntent("deliveryKey", problem);
        }
        return deliveryKey;
    }

    /**
     * The body of POST /api/agents/create for {@code text}, signed by its owner ({@code signature}, 0x hex): what
     * {@link #parse} takes for {@link Kind#CREATE}, for clients (the CLI, the load generator).
     */
    public static String createBody(final AgentAuthorizationText text, final String signature)
    {
        final List<String> scopes = new ArrayList<>();
        for (final Scope scope : text.scopes())
        {
            scopes.add(JsonWriter.quote(scope.wire()));
        }
        return new JsonWriter().field("userWalletAddress", text.owner().toString()).field("agent", text.agent().text())
            .field("agentKind", text.kind().wire()).raw("scopes", JsonWriter.array(scopes))
            .field("policy", text.policy()).field("deliveryKey", text.deliveryKey())
            .unsigned("nonce", text.nonce()).field("issuedAtMs", text.issuedAtMs())
            .field("expiresAtMs", text.expiresAtMs())
            .raw("authorization", new JsonWriter().field("signature", signature).toJson()).toJson();
    }

    /** The internal 32-byte id of an account: its 20-byte address after 12 zero bytes. */
    public static String accountIdOf(final Address account)
    {
        return "0x" + "0".repeat(24) + Hex.toHex(account.toBytes());
    }

    private long issuedAt(final Fields fields) throws BadIntent
    {
        final long issuedAtMs = fields.millis("issuedAtMs");
        final long now = clockMs.getAsLong();
        if (Math.abs(issuedAtMs - now) > MAX_ISSUED_SKEW_MS)
        {
            throw new BadIntent("issuedAtMs", "is " + (issuedAtMs - now) + " ms from the server's time " + now +
                " (serverTimeMs); at most " + MAX_ISSUED_SKEW_MS + " ms either way: sign a fresh intent");
        }
        return issuedAtMs;
    }

    private interface TextBuild<T>
    {
        T build();
    }

    /** Runs a text builder, turning the field it names as invalid into a 400. */
    private static <T> T build(final String field, final TextBuild<T> builder) throws BadIntent
    {
        try
        {
            return builder.build();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new BadIntent(field, ex.getMessage());
        }
    }

    private static long keyIdBits(final String apiKeyId)
    {
        return Long.parseUnsignedLong(apiKeyId.substring(Credentials.API_KEY_ID_PREFIX.length()), 16);
    }

    private static AgentKeyKind keyKind(final AgentKey agent)
    {
        return agent.isEd25519() ? AgentKeyKind.ED25519 : AgentKeyKind.SECP256K1;
    }

    private static byte[] keyBytes(final AgentKey agent)
    {
        final byte[] key = new byte[32];
        final byte[] bytes = agent.toBytes();
        System.arraycopy(bytes, 0, key, 0, bytes.length);
        return key;
    }

    private static byte scopeBits(final Set<Scope> scopes)
    {
        int bits = 0;
        for (final Scope scope : scopes)
        {
            bits |= scope.bit();
        }
        return (byte)bits;
    }

    /** Typed access to one JSON object's members, every problem a {@link BadIntent} naming the field. */
    static final class Fields
    {
        private final Map<?, ?> map;
        private final String prefix;

        Fields(final Map<?, ?> map)
        {
            this(map, "");
        }

        private Fields(final Map<?, ?> map, final String prefix)
        {
            this.map = map;
            this.prefix = prefix;
        }

        void allow(final String... names) throws BadIntent
        {
            final List<String> allowed = List.of(names);
            for (final Object key : map.keySet())
            {
                if (!allowed.contains(key))
                {
                    throw new BadIntent(prefix + key, "unknown field; this route takes " + String.join(", ", names));
                }
            }
        }

        private Object required(final String name) throws BadIntent
        {
            final Object value = map.get(name);
            if (value == null)
            {
                throw new BadIntent(prefix + name, "is required");
            }
            return value;
        }

        Fields object(final String name) throws BadIntent
        {
            if (!(required(name) instanceof Map<?, ?> inner))
            {
                throw new BadIntent(prefix + name, "must be an object");
            }
            return new Fields(inner, prefix + name + ".");
        }

        String string(final String name) throws BadIntent
        {
            if (!(required(name) instanceof String text))
            {
                throw new BadIntent(prefix + name, "must be a string");
            }
            return text;
        }

        String optionalString(final String name) throws BadIntent
        {
            return map.get(name) == null ? null : string(name);
        }

        Address address(final String name) throws BadIntent
        {
            final String text = string(name);
            if (!ADDRESS.matcher(text).matches())
            {
                throw new BadIntent(prefix + name, "an address is 0x and 40 lowercase hex digits");
            }
            return Address.of(text);
        }

        byte[] signature(final String name) throws BadIntent
        {
            final String text = string(name);
            if (!SIGNATURE.matcher(text).matches())
            {
                throw new BadIntent(prefix + name, "a signature is 0x and 130 lowercase hex digits (r, s, v)");
            }
            return Hex.fromHex(text);
        }

        AgentKey agentKey(final String name) throws BadIntent
        {
            final String text = string(name);
            if (ADDRESS.matcher(text).matches())
            {
                return AgentKey.secp256k1(Address.of(text));
            }
            if (ED25519.matcher(text).matches())
            {
                try
                {
                    return AgentKey.ed25519(Hex.fromHex("0x" + text.substring(AgentKey.ED25519_PREFIX.length())));
                }
                catch (final IllegalArgumentException ex)
                {
                    throw new BadIntent(prefix + name, ex.getMessage());
                }
            }
            throw new BadIntent(prefix + name,
                "an agent key is a secp256k1 address (0x and 40 lowercase hex digits) or " +
                AgentKey.ED25519_PREFIX + " and 64 lowercase hex digits");
        }

        Set<Scope> scopes(final String name) throws BadIntent
        {
            if (!(required(name) instanceof List<?> list) || list.isEmpty())
            {
                throw new BadIntent(prefix + name, "must be a non-empty array of scopes");
            }
            final EnumSet<Scope> scopes = EnumSet.noneOf(Scope.class);
            for (final Object item : list)
            {
                final Scope scope = item instanceof String text ? Scope.fromWire(text) : null;
                if (scope == null || !scopes.add(scope))
                {
                    throw new BadIntent(prefix + name,
                        "each scope once, of trade, cancel, quote, mint_redeem, read, drop_copy");
                }
            }
            return scopes;
        }

        /** A u64 as a JSON integer (values above 2^63 - 1 become negative longs, as the texts expect). */
        long u64(final String name) throws BadIntent
        {
            final Object value = required(name);
            if (value instanceof Long number && number >= 0)
            {
                return number;
            }
            if (value instanceof BigInteger big && big.signum() > 0 && big.compareTo(U64_MAX) <= 0)
            {
                return big.longValue();
            }
            throw new BadIntent(prefix + name, "must be an integer from 0 to 18446744073709551615");
        }

        long millis(final String name) throws BadIntent
        {
            if (!(required(name) instanceof Long number) || number < 0)
            {
                throw new BadIntent(prefix + name, "must be Unix milliseconds, a non-negative integer");
            }
            return number;
        }
    }
}
