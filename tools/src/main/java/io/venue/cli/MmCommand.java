package io.venue.cli;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Book;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.codec.Hex;
import io.venue.crypto.CancelByIdText;
import io.venue.crypto.Eip191;
import io.venue.crypto.Eip712Order;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.codec.JsonWriter;
import io.venue.signing.ActionSigner;
import io.venue.transport.bsl.CompactOrders;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** The MM lane from the command line (docs/API.md, "MM order entry"). */
@Command(name = "mm", mixinStandardHelpOptions = true, description = "MM order entry.",
    subcommands = {MmCommand.Replace.class, MmCommand.Orders.class})
final class MmCommand
{
    /**
     * What every MM request from the command line has: the appliance, the key that signs the trader's orders, the
     * trader, the institutional agent's machine credential that signs the request, and the deployment.
     */
    abstract static class MmRequest
    {
        @Spec
        CommandSpec spec;

        @Option(names = "--url", required = true, description = "The appliance's base URL, e.g. http://127.0.0.1:8080.")
        String url;

        @ArgGroup(exclusive = false, multiplicity = "1",
            heading = "Key that signs the orders (the trader's or its agent's):%n")
        KeyInput key;

        @Option(names = "--trader", description = "The trader's account; default: the signing key's address.")
        String trader;

        @ArgGroup(exclusive = false, multiplicity = "1", heading = "The institutional agent's machine credential:%n")
        MachineCredential machine;

        @Mixin
        DeploymentOptions deployment;

        Secp256k1KeyPair signingKey() throws IOException
        {
            return Secp256k1KeyPair.fromPrivateKey(key.privateKey());
        }

        Address account(final Address signer)
        {
            return trader == null ? signer : Address.of(trader);
        }

        /** POSTs {@code body} to {@code route} with the machine headers over it and {@code more}; prints the answer. */
        HttpResponse<String> send(final String route, final byte[] body, final Map<String, String> more)
            throws IOException
        {
            final Map<String, String> headers = new HashMap<>(machine.headers("POST", route, body));
            headers.putAll(more);
            return Submit.send(url, route, body, headers, spec.commandLine().getOut(), spec.commandLine().getErr());
        }
    }
    /**
     * POST /api/v1/mm/orders/replace: signs the new order (EIP-712 {@code Order}) and the cancel of the old one
     * (EIP-191 {@code CancelById}) with the trader's key, and the request with an institutional agent's
     * SVC-* credential.
     */
    @Command(name = "replace", mixinStandardHelpOptions = true,
        description = "Cancel one of the trader's orders and place a new one, signed for the MM lane.")
    static final class Replace extends MmRequest implements Callable<Integer>
    {
        static final String ROUTE = "/api/v1/mm/orders/replace";

        @Option(names = "--cancel", required = true,
            description = "The id of the order to cancel (0x and 64 hex digits).")
        String cancel;

        @Option(names = "--market", required = true, description = "The market of the new order.")
        long market;

        @Option(names = "--side", required = true, description = "Bid or Ask.")
        String side;

        @Option(names = "--no-book",
            description = "The NO book of an outcome market (default: the YES book, or the spot book).")
        boolean noBook;

        @Option(names = "--price", required = true, description = "Micro-units of the quote asset per unit.")
        String price;

        @Option(names = "--qty", required = true, description = "Micro-units of the base asset (or shares).")
        String qty;

        @Option(names = "--expiry", defaultValue = "0", description = "Unix seconds; 0 for none (default).")
        String expiry;

        @Option(names = "--nonce", required = true, description = "The trader's action nonce for the new order.")
        String nonce;

        @Option(names = "--time-in-force", description = "gtc (the lane's default), ioc or post_only.")
        String timeInForce;

        @Override
        public Integer call() throws Exception
        {
            final Secp256k1KeyPair signer = signingKey();
            final Address account = account(signer.address());
            final long nonceValue = WireValues.u64(nonce);
            final long priceValue = WireValues.u64(price);
            final long qtyValue = WireValues.u64(qty);
            final long expiryValue = WireValues.u64(expiry);
            final int sideCode = Eip712Order.sideCode(WireValues.parse(Side.class, side), noBook ? Book.NO : null);
            final byte[] orderHash = new byte[32];
            new Eip712Order(deployment.chainId, deployment.contractAddress())
                .hash(market, account, sideCode, priceValue, qtyValue, expiryValue, nonceValue, orderHash, 0);
            final Secp256k1Signer legs = new Secp256k1Signer(signer);
            final JsonWriter body = new JsonWriter()
                .raw("cancel", new JsonWriter().field("orderId", cancel).field("signature", Hex.to0x(legs.sign(
                    Eip191.personalHash(CancelByIdText.text(OrderId.of(cancel), account)), PreimageMode.RAW))).toJson())
                .raw("place", new JsonWriter().field("marketId", market).field("trader", account.toString())
                    .field("side", sideCode).unsigned("price", priceValue).unsigned("qty", qtyValue)
                    .unsigned("expiry", expiryValue).unsigned("nonce", nonceValue)
                    .field("signature", Hex.to0x(legs.sign(orderHash, PreimageMode.RAW))).toJson());
            if (timeInForce != null)
            {
                body.field("timeInForce", timeInForce);
            }
            spec.commandLine().getErr().println("new order id (EIP-712 Order hash): " + Hex.to0x(orderHash));
            final HttpResponse<String> answer = send(ROUTE, body.toJson().getBytes(StandardCharsets.UTF_8), Map.of());
            return Submit.accepted(answer) ? 0 : 1;
        }
    }

    /**
     * POST /api/v1/bsl/orders/compact: orders of the trader, each signed as a trading-route action (consecutive nonces
     * from {@code --nonce}), in one compact binary body, with an institutional agent's SVC-* credential.
     */
    @Command(name = "orders", mixinStandardHelpOptions = true,
        description = "Send compact binary orders of the trader on one market, each signed, in one request.")
    static final class Orders extends MmRequest implements Callable<Integer>
    {
        static final String ROUTE = "/api/v1/bsl/orders/compact";

        @Option(names = "--market", required = true, description = "The market of the request's places.")
        long market;

        @Option(names = "--book", description = "YES or NO: the book of the places on an outcome market.")
        String book;

        @Option(names = "--nonce", required = true,
            description = "The first order's action nonce; the next ones count up.")
        String nonce;

        @Option(names = "--result-mode",
            description = "ack (the lane's default: only refused orders are listed) or detailed.")
        String resultMode;

        @picocli.CommandLine.Parameters(arity = "1..*", paramLabel = "ORDER", description = "In body order: " +
            "place:Bid|Ask:PRICE:QTY[:gtc|ioc|fok|post_only], cancel:ORDER_ID, amend:ORDER_ID:PRICE:QTY.")
        List<String> orders;

        @Override
        public Integer call() throws Exception
        {
            final ActionSigner signer = new ActionSigner(deployment.chainId,
                deployment.contractAddress(), signingKey());
            final Address account = account(signer.address());
            long next = WireValues.u64(nonce);
            final List<SignedAction> signed = new ArrayList<>();
            for (final String order : orders)
            {
                final ActionPayload payload = new ActionPayload(account, next++, null,
                    System.currentTimeMillis(), action(order));
                signed.add(signer.sign(payload, PreimageMode.RAW));
                if (payload.action() instanceof SpotPlaceOrder)
                {
                    spec.commandLine().getErr()
                        .println("order id of " + order + ": " + Hex.to0x(signer.digestV2(payload)));
                }
            }
            final Map<String, String> headers = new HashMap<>(Map.of("Content-Type", "application/octet-stream"));
            if (resultMode != null)
            {
                headers.put("x-bsl-result-mode", resultMode);
            }
            final HttpResponse<String> answer = send(ROUTE,
                CompactOrders.encode(market, signed), headers);
            // 0 only when every order was accepted
            return answer != null && answer.statusCode() == 200 && answer.body().contains("\"refused\":0,") ? 0 : 1;
        }

        private Action action(final String order)
        {
            return OrderSpecs.parse(spec.commandLine(), market, book, order);
        }
    }
}
