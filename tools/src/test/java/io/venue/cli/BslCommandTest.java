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
            .lanes(List.of("http", "bsl-tcp")).edgeExempt("127.0.0.1")
            // a session-key session's orders are swept this long after it logs out: longer than the test
            .protectionGraceMs(600_000),
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

        // the dead-man timer of the account: armed, renewed once, then disarmed; a countdown out of bounds refused
        final CliRun armed = CliRun.of(concat(new String[] {"bsl", "dead-man", "--port", port, "--key-file",
            traderKey, "--svc-nonce", "3", "--countdown-ms", "60000", "--market", "1", "--renewals", "1",
            "--every-ms", "10"}, credential));
        assertEquals(0, armed.exitCode(), armed.err() + armed.out());
        assertTrue(armed.out().contains("ProtectionAck{requestId=1, result=ARMED"), armed.out());
        assertTrue(armed.out().contains("ProtectionAck{requestId=2, result=RENEWED"), armed.out());
        final CliRun disarmed = CliRun.of("bsl", "dead-man", "--port", port, "--key-file", traderKey,
            "--wallet-nonce", "2", "--countdown-ms", "0", "--market", "1");
        assertEquals(0, disarmed.exitCode(), disarmed.err() + disarmed.out());
        assertTrue(disarmed.out().contains("result=DISARMED"), disarmed.out());
        final CliRun tooShort = CliRun.of("bsl", "dead-man", "--port", port, "--key-file", traderKey,
            "--wallet-nonce", "3", "--countdown-ms", "5");
        assertEquals(1, tooShort.exitCode(), tooShort.out());
        assertTrue(tooShort.out().contains("result=OUT_OF_BOUNDS"), tooShort.out());
    }

    private static String[] concat(final String[] first, final String[] second)
    {
        final String[] all = new String[first.length + second.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }
}
