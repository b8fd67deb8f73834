package io.venue.transport.bsltcp;

import io.venue.action.Address;
import io.venue.auth.Scope;
import io.venue.bsltcp.sbe.LoginDecoder;
import io.venue.bsltcp.sbe.LoginKind;
import io.venue.bsltcp.sbe.LoginRejectReason;
import io.venue.codec.Hex;
import io.venue.crypto.Eip191;
import io.venue.crypto.RecoveryStatus;
import io.venue.crypto.Secp256k1Recovery;
import io.venue.entry.credential.MachineCredentials;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.svc.SvcAuthResult;
import io.venue.svc.SvcHeaders;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Authenticates a session's Login (docs/BSL-TCP.md). A session-key login is the shared credential check of the
 * order-entry core over SVC-* values carried in the message (the signed string's method {@value #METHOD} and path
 * {@value #PATH}, no body): an active institutional agent's credential holding quote, HMAC (version 2) or Ed25519
 * (version 3), its SVC-Nonce single use across the node's lanes. A wallet login is the account's own EIP-191 signature
 * of {@link WalletLoginText}, dated within the skew and single use. One per connection (its recovery's scratch).
 */
final class SessionLogin
{
    /** The method and path of a session-key login's signed string. */
    static final String METHOD = "BSLTCP";
    static final String PATH = "/bsl/tcp/login";
    /** A wallet login's timestamp may be this far from the server's clock either way (SVC-Timestamp's skew). */
    static final long WALLET_SKEW_MS = 30_000;

    /**
     * A login's outcome: the session's account (and its 20 bytes), the credential's id (a wallet session's
     * {@code wallet:<account>}: the MM windows' key scope), and the kind; or the refusal, with the journal's record.
     */
    record Outcome(String account, byte[] accountBytes, String apiKeyId, LoginKind kind, LoginRejectReason reason,
        String message, RequestRejectReason journalReason, String journalDetail)
    {
        static Outcome refused(final LoginRejectReason reason, final String message,
            final RequestRejectReason journalReason, final String journalDetail)
        {
            return new Outcome(null, null, null, null, reason, message, journalReason, journalDetail);
        }

        boolean accepted()
        {
            return reason == null;
        }
    }

    private final MachineCredentials.HeaderCheck svc;
    private final Secp256k1Recovery recovery;
    private final WalletLogins walletLogins;
    private final long chainId;
    private final Address verifyingContract;
    private final long startedMs;
    private final byte[] account = new byte[Address.LENGTH];
    private final byte[] signature = new byte[65];
    private final byte[] signer = new byte[Address.LENGTH];

    SessionLogin(final MachineCredentials credentials, final Secp256k1Recovery recovery,
        final WalletLogins walletLogins, final long chainId, final Address verifyingContract, final long startedMs)
    {
        this.svc = credentials == null ? null : credentials.headerCheck();
        this.recovery = recovery;
        this.walletLogins = walletLogins;
        this.chainId = chainId;
        this.verifyingContract = verifyingContract;
        this.startedMs = startedMs;
    }

    /** Checks a Login the frame check passed; its var fields are read here, in order. */
    Outcome authenticate(final LoginDecoder login, final long nowMs)
    {
        final LoginKind kind = login.kind();
        final long nonce = login.nonce();
        final long timestampMs = login.timestampMs();
        final short version = login.authVersion();
        login.getAccount(account, 0, Address.LENGTH);
        login.getWalletSignature(signature, 0, signature.length);
        final String apiKeyId = login.apiKeyId();
        final String passphrase = login.passphrase();
        final String svcSignature = login.svcSignature();
        if (kind == LoginKind.SESSION_KEY)
        {
            return sessionKey(version, nonce, timestampMs, apiKeyId, passphrase, svcSignature, nowMs);
        }
        if (kind == LoginKind.WALLET)
        {
            return wallet(nonce, timestampMs, nowMs);
        }
        return Outcome.refused(LoginRejectReason.MALFORMED, "kind is 0 (SESSION_KEY) or 1 (WALLET)",
            RequestRejectReason.TRANSPORT_AUTH_FAILED, "BSL TCP login: unknown kind");
    }

    private Outcome sessionKey(final short version, final long nonce, final long timestampMs, final String apiKeyId,
        final String passphrase, final String svcSignature, final long nowMs)
    {
        if (svc == null)
        {
            return Outcome.refused(LoginRejectReason.UNAUTHENTICATED, "this node takes no machine credentials",
                RequestRejectReason.TRANSPORT_AUTH_FAILED, "BSL TCP login: no machine credentials");
        }
        final Map<String, String> headers = new HashMap<>();
        headers.put(SvcHeaders.AUTH_VERSION, Integer.toString(version));
        headers.put(SvcHeaders.KEY, apiKeyId);
        headers.put(SvcHeaders.NONCE, Long.toUnsignedString(nonce));
        headers.put(SvcHeaders.TIMESTAMP, Long.toString(timestampMs));
        if (!passphrase.isEmpty())
        {
            headers.put(SvcHeaders.PASSPHRASE, passphrase);
        }
        headers.put(SvcHeaders.SIGNATURE, svcSignature);
        final MachineCredentials.Authenticated checked = svc.authenticate(headers::get, METHOD, PATH, null, nowMs);
        final MachineCredentials.Failure failure = checked.failure();
        if (failure != null)
        {
            return Outcome.refused(reason(failure.result()), failure.field() + ": " + failure.message(),
                failure.journalReason(), "BSL TCP " + failure.journalDetail());
        }
        if (!checked.key().institutional() || !checked.key().holds(Scope.QUOTE))
        {
            return Outcome.refused(LoginRejectReason.SCOPE_DENIED, "a BSL TCP session needs an institutional " +
                "agent's credential holding the quote scope", RequestRejectReason.TRANSPORT_AUTH_FAILED,
                "BSL TCP login: " + checked.apiKeyId() + " is not an institutional agent's credential holding quote");
        }
        final String owner = checked.key().account();
        return new Outcome(owner, Address.of(owner).toBytes(), checked.apiKeyId(), LoginKind.SESSION_KEY, null, null,
            null, null);
    }

    private Outcome wallet(final long nonce, final long timestampMs, final long nowMs)
    {
        if (timestampMs < nowMs - WALLET_SKEW_MS || timestampMs > nowMs + WALLET_SKEW_MS || timestampMs < startedMs)
        {
            return Outcome.refused(LoginRejectReason.SKEW, "timestampMs must be within " + WALLET_SKEW_MS +
                " ms of the server's clock (serverTimeMs) and not before the lane started at " + startedMs,
                RequestRejectReason.TIMESTAMP_SKEW, "BSL TCP wallet login dated " + timestampMs);
        }
        final Address claimed = new Address(account.clone());
        final byte[] hash = Eip191.personalHash(WalletLoginText.of(claimed, nonce, timestampMs, chainId,
            verifyingContract));
        if (recovery.recover(hash, 0, signature, 0, signer, 0) != RecoveryStatus.OK ||
            !Arrays.equals(signer, account))
        {
            return Outcome.refused(LoginRejectReason.UNAUTHENTICATED, "walletSignature is not the account's " +
                "signature of the login text (docs/BSL-TCP.md)", RequestRejectReason.TRANSPORT_AUTH_FAILED,
                "BSL TCP wallet login of " + claimed + ": the signature is not the account's");
        }
        final String taken = walletLogins.take(Hex.to0x(hash), timestampMs, nowMs);
        if (taken != null)
        {
            return Outcome.refused(taken.equals("used") ? LoginRejectReason.NONCE_REPLAYED :
                LoginRejectReason.THROTTLED, taken.equals("used") ? "this login text opened a session already: " +
                "sign a new one (another nonce or timestamp)" : "too many wallet logins in the last " +
                WALLET_SKEW_MS + " ms; retry later", RequestRejectReason.MACHINE_NONCE_REPLAYED,
                "BSL TCP wallet login of " + claimed + ": text " + taken);
        }
        return new Outcome(claimed.toString(), account.clone(), "wallet:" + claimed, LoginKind.WALLET, null, null,
            null, null);
    }

    private static LoginRejectReason reason(final SvcAuthResult result)
    {
        return switch (result)
        {
            case SKEW -> LoginRejectReason.SKEW;
            case NONCE_REPLAYED -> LoginRejectReason.NONCE_REPLAYED;
            case UNAUTHENTICATED -> LoginRejectReason.UNAUTHENTICATED;
            default -> LoginRejectReason.MALFORMED;
        };
    }
}
