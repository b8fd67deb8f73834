package io.venue.cli;

import io.venue.appliance.Appliance;
import io.venue.appliance.ApplianceContext;
import io.venue.crypto.Secp256k1KeyPair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `venue bsl` against a real appliance's BSL TCP lane on loopback: a session-key login and a wallet login, orders from
 * the command line and from a file, and a refused login.
 */
class BslCommandTest
{
    @TempDir
    Path folder;

    private Appliance appliance;
    private String traderKey;

    @BeforeEach
    void start() throws Exception
    {
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).bslTcpPort(0)
            .lanes(List.of("http", "bsl-tcp")).edgeExempt("127.0.0.1"),
            new PrintStream(OutputStream.nullOutputStream()));
        traderKey = appliance.demoAccountKeyFile().toString();
    }

    @AfterEach
    void stop()
    {
        appliance.close();
    }

    @Test
    void anAgentSessionSendsOrdersAndAWalletSessionCancelsThem() throws Exception
    {
        final CliRun agent = CliRun.of("agent", "create", "--key-file", traderKey, "--nonce", "0", "--kind",
            "institutional", "--agent", Secp256k1KeyPair.generate(new SecureRandom()).address().toString(),
            "--scopes", "quote", "--submit", appliance.baseUrl());
        assertEquals(0, agent.exitCode(), agent.err() + agent.out());
        final String port = Integer.toString(appliance.bslTcpPort());
        final String[] credential = {"--key-id", agent.outField("apiKeyId"), "--secret", agent.outField("apiSecret"),
            "--passphrase", agent.outField("apiPassphrase")};

        final CliRun connected = CliRun.of(concat(new String[] {"bsl", "connect", "--port", port, "--key-file",
            traderKey, "--svc-nonce", "1"}, credential));
        assertEquals(0, connected.exitCode(), connected.err() + connected.out());
        assertTrue(connected.out().startsWith("LoginAccepted{"), connected.out());
        assertTrue(connected.out().contains("Logout{"), connected.out());

        final CliRun sent = CliRun.of(concat(new String[] {"bsl", "send", "--port", port, "--key-file", traderKey,
            "--svc-nonce", "2", "--market", "1", "--nonce", "1", "--result-mode", "detailed",
            "place:Bid:50000000000:10000", "place:Bid:49000000000:10000"}, credential));
        assertEquals(0, sent.exitCode(), sent.err() + sent.out());
        assertTrue(sent.out().contains("OrderAnswers{seq=1, resultMode=DETAILED, orders=2, accepted=2, refused=0, " +
            "windowMs=1000, usedActions=2, remainingActions=3998"), sent.out());
        final String firstId = sent.err().substring(sent.err().indexOf(": 0x") + 2).substring(0, 66);

        final Path file = folder.resolve("cancels.txt");
        Files.writeString(file, "# the first bid\ncancel:" + firstId + "\n");
        final CliRun cancelled = CliRun.of("bsl", "send", "--port", port, "--key-file", traderKey, "--wallet-nonce",
            "1", "--market", "1", "--nonce", "3", "--file", file.toString());
        assertEquals(0, cancelled.exitCode(), cancelled.err() + cancelled.out());
        assertTrue(cancelled.out().contains("accepted=1, refused=0"), cancelled.out());

        // the SVC-Nonce 2 again: the login is refused, nothing sent
        final CliRun replayed = CliRun.of(concat(new String[] {"bsl", "connect", "--port", port, "--key-file",
            traderKey, "--svc-nonce", "2"}, credential));
        assertEquals(1, replayed.exitCode(), replayed.out());
        assertTrue(replayed.out().startsWith("LoginRejected{reason=NONCE_REPLAYED"), replayed.out());
    }

    private static String[] concat(final String[] first, final String[] second)
    {
        final String[] all = new String[first.length + second.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }
}
