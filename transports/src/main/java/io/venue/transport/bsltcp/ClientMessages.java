package io.venue.transport.bsltcp;

import io.venue.action.Address;
import io.venue.bsltcp.sbe.HeartbeatEncoder;
import io.venue.bsltcp.sbe.LoginEncoder;
import io.venue.bsltcp.sbe.LoginKind;
import io.venue.bsltcp.sbe.CancelOnDisconnectEncoder;
import io.venue.bsltcp.sbe.DeadManEncoder;
import io.venue.bsltcp.sbe.LogoutEncoder;
import io.venue.bsltcp.sbe.MessageHeaderEncoder;
import io.venue.bsltcp.sbe.OrdersEncoder;
import io.venue.bsltcp.sbe.ResultMode;
import io.venue.codec.Hex;
import io.venue.crypto.Eip191;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1Signer;
import io.venue.svc.SvcHeaders;
import io.venue.svc.SvcRequestSigner;
import org.agrona.ExpandableArrayBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;

/**
 * The messages a client sends, each as a whole frame (the 4-byte little-endian length, then the SBE message): for the
 * {@code venue bsl} command, the system tests and anyone checking docs/BSL-TCP.md's examples. Allocates; not for a hot
 * path.
 */
public final class ClientMessages
{
    private static final byte[] NO_ACCOUNT = new byte[Address.LENGTH];
    private static final byte[] NO_SIGNATURE = new byte[65];

    private ClientMessages()
    {
    }

    /** A session-key login signed by {@code signer} (HMAC or Ed25519) with SVC-Nonce {@code nonce}. */
    public static byte[] sessionKeyLogin(final SvcRequestSigner signer, final long nonce, final long timestampMs,
        final boolean detailed)
    {
        final Map<String, String> headers = signer.sign(nonce, timestampMs, SessionLogin.METHOD, SessionLogin.PATH,
            null, null);
        final String passphrase = headers.get(SvcHeaders.PASSPHRASE);
        return login(LoginKind.SESSION_KEY, detailed, Short.parseShort(headers.get(SvcHeaders.AUTH_VERSION)), nonce,
            timestampMs, NO_ACCOUNT, NO_SIGNATURE, headers.get(SvcHeaders.KEY), passphrase == null ? "" : passphrase,
            headers.get(SvcHeaders.SIGNATURE));
    }

    /** A wallet login of {@code account}, its text ({@link WalletLoginText}) signed by {@code wallet}. */
    public static byte[] walletLogin(final Secp256k1Signer wallet, final Address account, final long nonce,
        final long timestampMs, final long chainId, final Address verifyingContract, final boolean detailed)
    {
        final byte[] signature = wallet.sign(Eip191.personalHash(WalletLoginText.of(account, nonce, timestampMs,
            chainId, verifyingContract)), PreimageMode.RAW);
        return login(LoginKind.WALLET, detailed, (short)0, nonce, timestampMs, account.toBytes(), signature, "", "",
            "");
    }

    /** Any login, as the fields say (tests of refusals). */
    public static byte[] login(final LoginKind kind, final boolean detailed, final short authVersion, final long nonce,
        final long timestampMs, final byte[] account, final byte[] walletSignature, final String apiKeyId,
        final String passphrase, final String svcSignature)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(256);
        final LoginEncoder login = new LoginEncoder().wrapAndApplyHeader(buffer, BslFraming.LENGTH_FIELD_BYTES,
            new MessageHeaderEncoder()).kind(kind).resultMode(detailed ? ResultMode.DETAILED : ResultMode.ACK)
            .authVersion(authVersion).nonce(nonce).timestampMs(timestampMs).putAccount(account, 0, Address.LENGTH)
            .putWalletSignature(walletSignature, 0, 65).apiKeyId(apiKeyId).passphrase(passphrase)
            .svcSignature(svcSignature);
        return framed(buffer, login.encodedLength());
    }

    /** Orders request {@code seq} carrying {@code body} (a compact body of venue-bsl.xml) as it is. */
    public static byte[] orders(final long seq, final byte[] body)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(body.length + 32);
        final OrdersEncoder orders = new OrdersEncoder().wrapAndApplyHeader(buffer, BslFraming.LENGTH_FIELD_BYTES,
            new MessageHeaderEncoder()).seq(seq).putBody(body, 0, body.length);
        return framed(buffer, orders.encodedLength());
    }

    public static byte[] heartbeat()
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(32);
        final HeartbeatEncoder heartbeat = new HeartbeatEncoder().wrapAndApplyHeader(buffer,
            BslFraming.LENGTH_FIELD_BYTES, new MessageHeaderEncoder()).lastProcessedSeq(0);
        return framed(buffer, heartbeat.encodedLength());
    }

    /** DeadMan (version 2): {@code market} -1 for every market; {@code countdownMs} 0 disarms. */
    public static byte[] deadMan(final long requestId, final long market, final long countdownMs)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        final DeadManEncoder deadMan = new DeadManEncoder().wrapAndApplyHeader(buffer, BslFraming.LENGTH_FIELD_BYTES,
            new MessageHeaderEncoder()).requestId(requestId).market(market < 0 ? 0 : market)
            .allMarkets((short)(market < 0 ? 1 : 0)).countdownMs(countdownMs);
        return framed(buffer, deadMan.encodedLength());
    }

    /** CancelOnDisconnect (version 2): {@code market} -1 for every market. */
    public static byte[] cancelOnDisconnect(final long requestId, final long market, final boolean armed)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        final CancelOnDisconnectEncoder message = new CancelOnDisconnectEncoder().wrapAndApplyHeader(buffer,
            BslFraming.LENGTH_FIELD_BYTES, new MessageHeaderEncoder()).requestId(requestId)
            .market(market < 0 ? 0 : market).allMarkets((short)(market < 0 ? 1 : 0)).armed((short)(armed ? 1 : 0));
        return framed(buffer, message.encodedLength());
    }

    public static byte[] logout(final String reason)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64);
        final LogoutEncoder logout = new LogoutEncoder().wrapAndApplyHeader(buffer, BslFraming.LENGTH_FIELD_BYTES,
            new MessageHeaderEncoder()).lastProcessedSeq(0).reason(reason);
        return framed(buffer, logout.encodedLength());
    }

    /** The frame as lowercase hex, 16 bytes a line (docs' worked examples). */
    public static String hexDump(final byte[] frame)
    {
        final StringBuilder dump = new StringBuilder();
        for (int i = 0; i < frame.length; i += 16)
        {
            final String line = Hex.to0x(Arrays.copyOfRange(frame, i, Math.min(frame.length, i + 16))).substring(2);
            dump.append(String.format("%04x ", i));
            for (int j = 0; j < line.length(); j += 2)
            {
                dump.append(' ').append(line, j, j + 2);
            }
            dump.append('\n');
        }
        return dump.toString();
    }

    private static byte[] framed(final ExpandableArrayBuffer buffer, final int bodyLength)
    {
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + bodyLength;
        buffer.putInt(0, length, ByteOrder.LITTLE_ENDIAN);
        return Arrays.copyOf(buffer.byteArray(), BslFraming.LENGTH_FIELD_BYTES + length);
    }
}
