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
import java.nio.file.Path;
import java.security.SecureRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `venue mm replace` against a real appliance on loopback: the demo account makes an institutional agent with the
 * quote scope, rests a bid, and the agent's credential replaces it with the trader's signatures on both legs.
 */
class MmCommandTest
{
    @TempDir
    Path folder;

    private Appliance appliance;
    private String traderKey;

    @BeforeEach
    void start() throws Exception
    {
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0).edgeExempt("127.0.0.1"),
            new PrintStream(OutputStream.nullOutputStream()));
        traderKey = appliance.demoAccountKeyFile().toString();
    }

    @AfterEach
    void stop()
    {
        appliance.close();
    }

    @Test
    void anInstitutionalAgentReplacesTheTradersBid()
    {
        final CliRun agent = CliRun.of("agent", "create", "--key-file", traderKey, "--nonce", "0", "--kind", "institutional",
            "--agent", Secp256k1KeyPair.generate(new SecureRandom()).address().toString(), "--scopes", "quote",
            "--submit", appliance.baseUrl());
        assertEquals(0, agent.exitCode(), agent.err() + agent.out());
        final CliRun bid = CliRun.of("sign", "place", "--key-file", traderKey, "--nonce", "1", "--market", "1", "--side", "Bid",
            "--price", "50000000000", "--qty", "10000", "--submit", appliance.baseUrl());
        assertEquals(0, bid.exitCode(), bid.err() + bid.out());
        final String resting = bid.outField("orderId");

        final String[] replace = {"mm", "replace", "--url", appliance.baseUrl(), "--key-file", traderKey, "--cancel", resting,
            "--market", "1", "--side", "Bid", "--price", "49000000000", "--qty", "10000", "--nonce", "2",
            "--key-id", agent.outField("apiKeyId"), "--secret", agent.outField("apiSecret"),
            "--passphrase", agent.outField("apiPassphrase"), "--svc-nonce", "1"};
        final CliRun replaced = CliRun.of(replace);
        assertEquals(0, replaced.exitCode(), replaced.err() + replaced.out());
        assertTrue(replaced.out().contains("\"ok\":true"), replaced.out());
        final String newId = replaced.outField("orderId");
        assertTrue(replaced.err().contains("new order id (EIP-712 Order hash): " + newId), replaced.err());
        assertTrue(replaced.out().contains("\"remainingActions\":3999"), "the MM budget comes with the answer: " + replaced.out());

        // the same request again: the SVC-Nonce is single use
        final CliRun again = CliRun.of(replace);
        assertEquals(1, again.exitCode());
        assertTrue(again.err().contains("HTTP 409"), again.err());
    }
}
