package io.venue.cli;

import io.venue.action.Address;
import io.venue.action.Book;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.codec.Hex;
import io.venue.crypto.CancelByIdText;
import io.venue.crypto.Eip191;
import io.venue.crypto.Eip712Order;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.transport.http.JsonWriter;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;

/** The MM lane from the command line (docs/API.md, "MM order entry"). */
@Command(name = "mm", mixinStandardHelpOptions = true, description = "MM order entry.",
    subcommands = MmCommand.Replace.class)
final class MmCommand
{
    /**
     * POST /api/v1/mm/orders/replace: signs the new order (EIP-712 {@code Order}) and the cancel of the old one (EIP-191
     * {@code CancelById}) with the trader's key, and the request with an institutional agent's SVC-* credential.
     */
    @Command(name = "replace", mixinStandardHelpOptions = true,
        description = "Cancel one of the trader's orders and place a new one, signed for the MM lane.")
    static final class Replace implements Callable<Integer>
    {
        static final String ROUTE = "/api/v1/mm/orders/replace";

        @Spec
        CommandSpec spec;

        @Option(names = "--url", required = true, description = "The appliance's base URL, e.g. http://127.0.0.1:8080.")
        String url;

        @ArgGroup(exclusive = false, multiplicity = "1", heading = "Key that signs both legs (the trader's):%n")
        KeyInput key;

        @Option(names = "--trader", description = "The trader's account; default: the signing key's address.")
        String trader;

        @Option(names = "--cancel", required = true, description = "The id of the order to cancel (0x and 64 hex digits).")
        String cancel;

        @Option(names = "--market", required = true, description = "The market of the new order.")
        long market;

        @Option(names = "--side", required = true, description = "Bid or Ask.")
        String side;

        @Option(names = "--no-book", description = "The NO book of an outcome market (default: the YES book, or the spot book).")
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

        @ArgGroup(exclusive = false, multiplicity = "1", heading = "The institutional agent's machine credential:%n")
        MachineCredential machine;

        @Mixin
        DeploymentOptions deployment;

        @Override
        public Integer call() throws Exception
        {
            final Secp256k1KeyPair signer = Secp256k1KeyPair.fromPrivateKey(key.privateKey());
            final Address account = trader == null ? signer.address() : Address.of(trader);
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
            final byte[] bytes = body.toJson().getBytes(StandardCharsets.UTF_8);
            final Map<String, String> headers = machine.headers("POST", ROUTE, bytes);
            spec.commandLine().getErr().println("new order id (EIP-712 Order hash): " + Hex.to0x(orderHash));
            return Submit.post(url, ROUTE, bytes, headers, spec.commandLine().getOut(), spec.commandLine().getErr());
        }
    }
}
