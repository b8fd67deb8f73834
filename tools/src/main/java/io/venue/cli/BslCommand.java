package io.venue.cli;

import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.SignedAction;
import io.venue.action.SpotPlaceOrder;
import io.venue.codec.Hex;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;
import io.venue.signing.ActionSigner;
import io.venue.transport.bsl.CompactOrders;
import io.venue.transport.bsltcp.BslTcpClient;
import io.venue.transport.bsltcp.ClientMessages;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** The BSL Direct TCP lane from the command line (docs/BSL-TCP.md): log in, send compact orders, print the answers. */
@Command(name = "bsl", mixinStandardHelpOptions = true, description = "BSL Direct TCP sessions.",
    subcommands = {BslCommand.Connect.class, BslCommand.Send.class, BslCommand.DeadMan.class})
final class BslCommand
{
    /** How long to wait for each answer of the server. */
    static final int WAIT_MS = 30_000;

    /** A session: the lane's address, the login (an agent's machine credential, or the account's own key). */
    abstract static class Session
    {
        @Spec
        CommandSpec spec;

        @Option(names = "--host", defaultValue = "127.0.0.1", description = "The lane's host (default 127.0.0.1).")
        String host;

        @Option(names = "--port", required = true, description = "The lane's port (the bundle's bslTcp.port).")
        int port;

        @ArgGroup(exclusive = false, multiplicity = "1",
            heading = "Key that signs the orders (the trader's or its agent's), and a wallet login:%n")
        KeyInput key;

        @Option(names = "--trader", description = "The trader's account; default: the signing key's address.")
        String trader;

        @ArgGroup(exclusive = false, heading = "A session-key login: the institutional agent's credential%n")
        MachineCredential machine;

        @Option(names = "--wallet-nonce", description = "A wallet login (no machine credential): its text's nonce.")
        String walletNonce;

        @Option(names = "--result-mode", defaultValue = "ack", description = "ack (default) or detailed.")
        String resultMode;

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

        /** Connects and logs in; prints the server's answer; null when the login was not accepted. */
        BslTcpClient open() throws IOException
        {
            if ((machine == null) == (walletNonce == null))
            {
                throw new ParameterException(spec.commandLine(), "log in with either a machine credential " +
                    "(--key-id, its secret, --svc-nonce) or --wallet-nonce");
            }
            if (!resultMode.equals("ack") && !resultMode.equals("detailed"))
            {
                throw new ParameterException(spec.commandLine(), "--result-mode is ack or detailed");
            }
            final boolean detailed = resultMode.equals("detailed");
            final byte[] login;
            if (machine != null)
            {
                login = ClientMessages.sessionKeyLogin(machine.credential.signer(machine.keyId),
                    WireValues.u64(machine.svcNonce), System.currentTimeMillis(), detailed);
            }
            else
            {
                final Secp256k1KeyPair wallet = signingKey();
                login = ClientMessages.walletLogin(new Secp256k1Signer(wallet), account(wallet.address()),
                    WireValues.u64(walletNonce), System.currentTimeMillis(), deployment.chainId,
                    deployment.contractAddress(), detailed);
            }
            final BslTcpClient client = BslTcpClient.connect(host, port, WAIT_MS);
            client.send(login);
            final BslTcpClient.Received answer = client.readSkippingHeartbeats(WAIT_MS);
            out().println(answer);
            if (!answer.type().equals("LoginAccepted"))
            {
                client.close();
                return null;
            }
            return client;
        }

        PrintWriter out()
        {
            return spec.commandLine().getOut();
        }

        /** Logs out and prints the server's Logout. */
        void logout(final BslTcpClient client) throws IOException
        {
            client.send(ClientMessages.logout("venue bsl: done"));
            out().println(client.readSkippingHeartbeats(WAIT_MS));
            client.close();
        }
    }

    /** Logs in, prints the LoginAccepted (or the refusal) and logs out: a check of the credential and the route. */
    @Command(name = "connect", mixinStandardHelpOptions = true, description = "Log in, print the answer, log out.")
    static final class Connect extends Session implements Callable<Integer>
    {
        @Override
        public Integer call() throws Exception
        {
            final BslTcpClient client = open();
            if (client == null)
            {
                return 1;
            }
            logout(client);
            return 0;
        }
    }

    /**
     * Logs in and arms the session account's dead-man timer (DeadMan, docs/BSL-TCP.md), renews it
     * {@code --renewals} times every {@code --every-ms}, prints each ProtectionAck and logs out. A countdown of 0
     * disarms. Logging out ends the session: a session-key session's orders are then swept after the grace window (its
     * cancel-on-disconnect), a wallet session's are not, and the timer runs on until its deadline.
     */
    @Command(name = "dead-man", mixinStandardHelpOptions = true,
        description = "Log in, arm (renew, or with 0 disarm) the dead-man timer of the account, log out.")
    static final class DeadMan extends Session implements Callable<Integer>
    {
        @Option(names = "--countdown-ms", required = true,
            description = "The countdown: the node's bounds (default 1000 to 600000), or 0 to disarm.")
        long countdownMs;

        @Option(names = "--market", description = "Only this market's orders; default: every market.")
        Long market;

        @Option(names = "--renewals", defaultValue = "0", description = "How many times to renew it (default 0).")
        int renewals;

        @Option(names = "--every-ms", defaultValue = "1000",
            description = "The wait between renewals (default 1000).")
        long everyMs;

        @Override
        public Integer call() throws Exception
        {
            if (countdownMs < 0 || renewals < 0 || everyMs < 1 || market != null && market < 0)
            {
                throw new ParameterException(spec.commandLine(), "--countdown-ms, --renewals and --market are not " +
                    "negative, --every-ms is at least 1");
            }
            final BslTcpClient client = open();
            if (client == null)
            {
                return 1;
            }
            boolean applied = true;
            for (int request = 0; request <= renewals; request++)
            {
                if (request > 0)
                {
                    // a heartbeat keeps a session that waits longer than its interval
                    Thread.sleep(everyMs);
                    client.send(ClientMessages.heartbeat());
                }
                client.send(ClientMessages.deadMan(request + 1, market == null ? -1 : market, countdownMs));
                final BslTcpClient.Received ack = client.readSkippingHeartbeats(WAIT_MS);
                out().println(ack);
                final Object result = ack.get("result");
                applied &= "ARMED".equals(result) || "RENEWED".equals(result) || "DISARMED".equals(result);
            }
            logout(client);
            return applied ? 0 : 1;
        }
    }

    /**
     * Logs in and sends one Orders request: the orders from the command line or a file (one a line, # comments), each
     * signed as a trading-route action with consecutive nonces from {@code --nonce}; prints the answer.
     */
    @Command(name = "send", mixinStandardHelpOptions = true,
        description = "Log in and send compact orders of the trader on one market in one request.")
    static final class Send extends Session implements Callable<Integer>
    {
        @Option(names = "--market", required = true, description = "The market of the request's places.")
        long market;

        @Option(names = "--book", description = "YES or NO: the book of the places on an outcome market.")
        String book;

        @Option(names = "--nonce", required = true,
            description = "The first order's action nonce; the next ones count up.")
        String nonce;

        @Option(names = "--file", description = "A file of orders, one a line (" + OrderSpecs.FORMS + ").")
        Path file;

        @Parameters(arity = "0..*", paramLabel = "ORDER", description = "In body order: " + OrderSpecs.FORMS + ".")
        List<String> orders;

        @Override
        public Integer call() throws Exception
        {
            final List<String> specs = new ArrayList<>(orders == null ? List.of() : orders);
            if (file != null)
            {
                for (final String line : Files.readAllLines(file))
                {
                    final String trimmed = line.strip();
                    if (!trimmed.isEmpty() && !trimmed.startsWith("#"))
                    {
                        specs.add(trimmed);
                    }
                }
            }
            if (specs.isEmpty() || specs.size() > CompactOrders.MAX_ORDERS)
            {
                throw new ParameterException(spec.commandLine(), "1 to " + CompactOrders.MAX_ORDERS + " orders");
            }
            final ActionSigner signer = new ActionSigner(deployment.chainId, deployment.contractAddress(),
                signingKey());
            final Address account = account(signer.address());
            long next = WireValues.u64(nonce);
            final List<SignedAction> signed = new ArrayList<>();
            for (final String order : specs)
            {
                final ActionPayload payload = new ActionPayload(account, next++, null, System.currentTimeMillis(),
                    OrderSpecs.parse(spec.commandLine(), market, book, order));
                signed.add(signer.sign(payload, PreimageMode.RAW));
                if (payload.action() instanceof SpotPlaceOrder)
                {
                    spec.commandLine().getErr().println("order id of " + order + ": " +
                        Hex.to0x(signer.digestV2(payload)));
                }
            }
            final BslTcpClient client = open();
            if (client == null)
            {
                return 1;
            }
            client.send(ClientMessages.orders(1, CompactOrders.encode(market, signed)));
            final BslTcpClient.Received answer = client.readSkippingHeartbeats(WAIT_MS);
            out().println(answer);
            logout(client);
            // 0 only when every order was accepted
            return answer.type().equals("OrderAnswers") &&
                ((Integer)answer.get("accepted")).intValue() == signed.size() ? 0 : 1;
        }
    }
}
