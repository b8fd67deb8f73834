package io.venue.cli;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.Amend;
import io.venue.action.Batch;
import io.venue.action.Book;
import io.venue.action.Cancel;
import io.venue.action.CancelAll;
import io.venue.action.CancelByClientOrderId;
import io.venue.action.ClientOrderId;
import io.venue.action.Merge;
import io.venue.action.OrderId;
import io.venue.action.Side;
import io.venue.action.SignedAction;
import io.venue.action.Split;
import io.venue.action.SpotPlaceOrder;
import io.venue.action.StpMode;
import io.venue.action.TimeInForce;
import io.venue.action.json.CanonicalJson;
import io.venue.action.json.ParseResult;
import io.venue.action.json.SignedActionParser;
import io.venue.codec.Hex;
import io.venue.crypto.OrderIds;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.signing.ActionSigner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * Builds an action from options, signs it, and prints the SignedAction body (stdout) with its digest and
 * order ids (stderr), ready for POST /api/v1/trading/actions.
 */
@Command(name = "sign", mixinStandardHelpOptions = true,
    description = "Build and sign an action; print the SignedAction JSON body.",
    subcommands = {
        SignCommand.Place.class,
        SignCommand.CancelOrder.class,
        SignCommand.AmendOrder.class,
        SignCommand.CancelAllOrders.class,
        SignCommand.CancelByClientId.class,
        SignCommand.SplitShares.class,
        SignCommand.MergeShares.class,
        SignCommand.PayloadFile.class,
    })
final class SignCommand
{
    /** Shared flow: payload, signature, output. */
    abstract static class SignAction implements Callable<Integer>
    {
        @Spec
        CommandSpec spec;

        @Mixin
        SigningOptions signing;

        @Option(names = "--submit", paramLabel = "URL",
            description =
                "POST the signed body to the appliance at this base URL (e.g. http://127.0.0.1:8080) and print its " +
                "answer; exit 0 only when it says ok.")
        String submitUrl;

        abstract ActionPayload payload(Address keyAddress) throws Exception;

        @Override
        public Integer call() throws Exception
        {
            final Secp256k1KeyPair key = Secp256k1KeyPair.fromPrivateKey(signing.key.privateKey());
            final ActionSigner signer = new ActionSigner(signing.deployment.chainId,
                signing.deployment.contractAddress(), key);
            final ActionPayload payload = payload(key.address());
            final SignedAction signed = signing.adminText() ? signer.signAdminText(payload) :
                signer.sign(payload, signing.preimageMode());
            final PrintWriter out = spec.commandLine().getOut();
            out.println(new String(CanonicalJson.signedActionBody(signed), StandardCharsets.US_ASCII));
            out.flush();
            final PrintWriter err = spec.commandLine().getErr();
            final byte[] digest = signer.digestV2(payload);
            err.println("digest " + Hex.to0x(digest));
            if (payload.action() instanceof SpotPlaceOrder)
            {
                err.println("order id " + Hex.to0x(digest));
            }
            else if (payload.action() instanceof Batch batch)
            {
                for (int i = 0; i < batch.legs().size(); i++)
                {
                    if (batch.legs().get(i) instanceof SpotPlaceOrder)
                    {
                        err.println("leg " + i + " order id " + OrderIds.batchLeg(digest, i));
                    }
                }
            }
            err.flush();
            return submitUrl == null ? 0 : Submit.post(submitUrl, CanonicalJson.signedActionBody(signed), out, err);
        }

        ActionPayload payload(final Address keyAddress, final Action action)
        {
            return new ActionPayload(signing.accountOr(keyAddress), signing.nonceValue(), signing.clientOrderIdValue(),
                signing.tsValue(), action);
        }
    }

    @Command(name = "place", mixinStandardHelpOptions = true,
        description = "SpotPlaceOrder (spot, or outcome with --book).")
    static final class Place extends SignAction
    {
        @Option(names = "--market", required = true, description = "Market id (u32).")
        long market;

        @Option(names = "--book", description = "YES or NO: only for outcome markets.")
        String book;

        @Option(names = "--side", required = true, description = "Bid or Ask.")
        String side;

        @Option(names = "--price", required = true, description = "Price in micro-units (1e6 scale).")
        String price;

        @Option(names = "--qty", required = true, description = "Quantity in micro-units (1e6 scale).")
        String qty;

        @Option(names = "--stp", description = "cancel_maker, cancel_taker, reject or skip_self. Default: none (null).")
        String stp;

        @Option(names = "--tif", defaultValue = "gtc",
            description = "gtc, ioc, fok or post_only (default: ${DEFAULT-VALUE}).")
        String tif;

        @Option(names = "--market-order", description = "Set is_market.")
        boolean isMarket;

        @Option(names = "--reduce-only", description = "Set reduce_only.")
        boolean reduceOnly;

        @Option(names = "--expires-at", description = "Unix milliseconds. Default: null.")
        Long expiresAt;

        @Override
        ActionPayload payload(final Address keyAddress)
        {
            return payload(keyAddress, new SpotPlaceOrder(market, WireValues.parse(Book.class, book),
                WireValues.parse(Side.class, side), WireValues.u64(price), WireValues.u64(qty),
                WireValues.parse(StpMode.class, stp), WireValues.parse(TimeInForce.class, tif), isMarket, reduceOnly,
                expiresAt == null ? SpotPlaceOrder.NO_EXPIRY : expiresAt));
        }
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true, description = "Cancel one order by id.")
    static final class CancelOrder extends SignAction
    {
        @Option(names = "--order-id", required = true, description = "0x + 64 lowercase hex.")
        String orderId;

        @Override
        ActionPayload payload(final Address keyAddress)
        {
            return payload(keyAddress, new Cancel(OrderId.of(orderId)));
        }
    }

    @Command(name = "amend", mixinStandardHelpOptions = true, description = "Amend an order's price and quantity.")
    static final class AmendOrder extends SignAction
    {
        @Option(names = "--order-id", required = true, description = "0x + 64 lowercase hex.")
        String orderId;

        @Option(names = "--price", required = true, description = "New price in micro-units.")
        String price;

        @Option(names = "--qty", required = true, description = "New quantity in micro-units.")
        String qty;

        @Override
        ActionPayload payload(final Address keyAddress)
        {
            return payload(keyAddress, new Amend(OrderId.of(orderId), WireValues.u64(price), WireValues.u64(qty)));
        }
    }

    @Command(name = "cancel-all", mixinStandardHelpOptions = true,
        description = "Cancel all orders, in one market or all.")
    static final class CancelAllOrders extends SignAction
    {
        @Option(names = "--in-market", description = "Only this market. Default: every market.")
        Long market;

        @Override
        ActionPayload payload(final Address keyAddress)
        {
            return payload(keyAddress, new CancelAll(market == null ? CancelAll.ALL_MARKETS : market));
        }
    }

    @Command(name = "cancel-by-client-id", mixinStandardHelpOptions = true,
        description = "Cancel the order with this client order id.")
    static final class CancelByClientId extends SignAction
    {
        @Option(names = "--cancel-client-order-id", required = true, description = "0x + 32 lowercase hex.")
        String target;

        @Override
        ActionPayload payload(final Address keyAddress)
        {
            return payload(keyAddress, new CancelByClientOrderId(ClientOrderId.of(target)));
        }
    }

    /** Split and Merge take the same options and differ only in the variant they sign. */
    abstract static class ShareConversion extends SignAction
    {
        @Option(names = "--market", required = true, description = "Outcome market id.")
        long market;

        @Option(names = "--qty", required = true, description = "Micro-units.")
        String qty;

        abstract Action action(long market, long qty);

        @Override
        ActionPayload payload(final Address keyAddress)
        {
            return payload(keyAddress, action(market, WireValues.u64(qty)));
        }
    }

    @Command(name = "split", mixinStandardHelpOptions = true, description = "Collateral into YES + NO shares.")
    static final class SplitShares extends ShareConversion
    {
        @Override
        Action action(final long market, final long qty)
        {
            return new Split(market, qty);
        }
    }

    @Command(name = "merge", mixinStandardHelpOptions = true, description = "YES + NO shares back into collateral.")
    static final class MergeShares extends ShareConversion
    {
        @Override
        Action action(final long market, final long qty)
        {
            return new Merge(market, qty);
        }
    }

    @Command(name = "payload", mixinStandardHelpOptions = true,
        description = "Sign a payload written as JSON (any variant, e.g. Batch or an admin action); " +
            "--nonce and the other header options are ignored.")
    static final class PayloadFile extends SignAction
    {
        @Parameters(index = "0", description = "File holding the ActionPayload JSON, or - for standard input.")
        String file;

        @Override
        ActionPayload payload(final Address keyAddress) throws Exception
        {
            final byte[] json = "-".equals(file) ? System.in.readAllBytes() : Files.readAllBytes(Path.of(file));
            final ParseResult result = new SignedActionParser().parsePayload(json);
            if (!result.isOk())
            {
                throw new IllegalArgumentException(result.code() + " at " + result.field() + ": " + result.message());
            }
            return result.payload();
        }
    }
}
