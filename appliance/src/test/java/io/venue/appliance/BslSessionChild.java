package io.venue.appliance;

import io.venue.action.ActionPayload;
import io.venue.action.Side;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.TimeInForce;
import io.venue.codec.Hex;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.signing.ActionSigner;
import io.venue.svc.SvcRequestSigner;
import io.venue.transport.bsl.CompactOrders;
import io.venue.transport.bsltcp.BslTcpClient;
import io.venue.transport.bsltcp.ClientMessages;

import java.util.List;

import static io.venue.appliance.ApplianceContext.DEMO_CHAIN_ID;
import static io.venue.appliance.ApplianceContext.DEMO_CONTRACT;
import static io.venue.appliance.DemoVenue.SPOT_MARKET;

/**
 * A market maker's process for {@code ProtectionsLaneTest}: logs a session-key BSL TCP session in, rests one order
 * (printing {@code ORDER <id>}), then keeps the session alive with heartbeats until it is killed.
 * Arguments: port, apiKeyId, apiSecret, apiPassphrase, the trader's private key (hex), the order's nonce and price.
 */
public final class BslSessionChild
{
    private BslSessionChild()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int port = Integer.parseInt(args[0]);
        final SvcRequestSigner key = SvcRequestSigner.hmac(args[1], args[2], args[3]);
        final Secp256k1KeyPair trader = Secp256k1KeyPair.fromPrivateKey(Hex.fromHex(args[4]));
        final long nonce = Long.parseLong(args[5]);
        final long price = Long.parseLong(args[6]);
        final ActionSigner signer = new ActionSigner(DEMO_CHAIN_ID, DEMO_CONTRACT, trader);
        try (BslTcpClient client = BslTcpClient.connect("127.0.0.1", port, 20_000))
        {
            client.send(ClientMessages.sessionKeyLogin(key, System.currentTimeMillis(), System.currentTimeMillis(),
                true));
            final BslTcpClient.Received login = client.readSkippingHeartbeats(20_000);
            System.out.println("LOGIN " + login.type());
            final SignedAction order = signer.sign(new ActionPayload(trader.address(), nonce, null,
                System.currentTimeMillis(), new SpotPlaceOrder(SPOT_MARKET, null, Side.BID, price, 10_000, null,
                TimeInForce.GTC, false, false, -1)), PreimageMode.RAW);
            client.send(ClientMessages.orders(1, CompactOrders.encode(SPOT_MARKET, List.of(order))));
            final BslTcpClient.Received answers = client.readSkippingHeartbeats(20_000);
            System.out.println("ORDER " + Hex.to0x(signer.digestV2(order.payload())) + " " + answers.get("accepted"));
            while (true)
            {
                Thread.sleep(200);
                client.send(ClientMessages.heartbeat());
            }
        }
    }
}
