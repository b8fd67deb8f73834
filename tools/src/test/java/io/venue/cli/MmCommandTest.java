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
import java.util.Arrays;

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
        final CliRun agent = CliRun.of("agent", "create", "--key-file", traderKey, "--nonce", "0", "--kind",
            "institutional",
            "--agent", Secp256k1KeyPair.generate(new SecureRandom()).address().toString(), "--scopes", "quote",
            "--submit", appliance.baseUrl());
        assertEquals(0, agent.exitCode(), agent.err() + agent.out());
        final CliRun bid = CliRun.of("sign", "place", "--key-file", traderKey, "--nonce", "1", "--market", "1",
            "--side", "Bid", "--price", "50000000000", "--qty", "10000", "--submit", appliance.baseUrl());
        assertEquals(0, bid.exitCode(), bid.err() + bid.out());
        final String resting = bid.outField("orderId");

        final String[] replace = {"mm", "replace", "--url", appliance.baseUrl(), "--key-file", traderKey, "--cancel",
            resting, "--market", "1", "--side", "Bid", "--price", "49000000000", "--qty", "10000", "--nonce", "2",
            "--key-id", agent.outField("apiKeyId"), "--secret", agent.outField("apiSecret"),
            "--passphrase", agent.outField("apiPassphrase"), "--svc-nonce", "1"};
        final CliRun replaced = CliRun.of(replace);
        assertEquals(0, replaced.exitCode(), replaced.err() + replaced.out());
        assertTrue(replaced.out().contains("\"ok\":true"), replaced.out());
        final String newId = replaced.outField("orderId");
        assertTrue(replaced.err().contains("new order id (EIP-712 Order hash): " + newId), replaced.err());
        assertTrue(replaced.out().contains("\"remainingActions\":3999"),
            "the MM budget comes with the answer: " + replaced.out());

        // the same request again: the SVC-Nonce is single use
        final CliRun again = CliRun.of(replace);
        assertEquals(1, again.exitCode());
        assertTrue(again.err().contains("HTTP 409"), again.err());
    }

    @Test
    void compactOrdersPlaceAndCancelTheTradersBids()
    {
        final CliRun agent = CliRun.of("agent", "create", "--key-file", traderKey, "--nonce", "0", "--kind",
            "institutional",
            "--agent", Secp256k1KeyPair.generate(new SecureRandom()).address().toString(), "--scopes", "quote",
            "--submit", appliance.baseUrl());
        assertEquals(0, agent.exitCode(), agent.err() + agent.out());
        final String[] credential = {"--key-id", agent.outField("apiKeyId"), "--secret", agent.outField("apiSecret"),
            "--passphrase", agent.outField("apiPassphrase")};

        final CliRun placed = CliRun.of(
            concat(new String[]{"mm", "orders", "--url", appliance.baseUrl(), "--key-file", traderKey,
            "--market", "1", "--nonce", "1", "--result-mode", "detailed", "--svc-nonce", "1",
            "place:Bid:49000000000:10000", "place:Bid:48000000000:10000:post_only"}, credential));
        assertEquals(0, placed.exitCode(), placed.err() + placed.out());
        assertTrue(placed.out().contains("\"orders\":2,\"accepted\":2,\"refused\":0,"), placed.out());
        final String first = placed.err().lines().filter(line -> line.startsWith("order id of place:Bid:49000000000"))
            .findFirst().orElseThrow().replaceAll(".*: ", "");
        final String second = placed.err().lines().filter(line -> line.startsWith("order id of place:Bid:48000000000"))
            .findFirst().orElseThrow().replaceAll(".*: ", "");

        // a cancel of the first bid, and one of an order that is not there: exit 1, the refusal listed (ack mode)
        final CliRun cancelled = CliRun.of(
            concat(new String[]{"mm", "orders", "--url", appliance.baseUrl(), "--key-file",
            traderKey, "--market", "1", "--nonce", "3", "--svc-nonce", "2", "cancel:" + first,
            "cancel:0x" + "00".repeat(32)}, credential));
        assertEquals(1, cancelled.exitCode(), cancelled.err() + cancelled.out());
        assertTrue(cancelled.out().contains("\"orders\":2,\"accepted\":1,\"refused\":1,\"results\":[{\"index\":1,"),
            cancelled.out());
        assertTrue(cancelled.out().contains("UNKNOWN_ORDER"), cancelled.out());

        // an amend moves the second bid
        final CliRun amended = CliRun.of(concat(new String[]{"mm", "orders", "--url", appliance.baseUrl(), "--key-file",
            traderKey, "--market", "1", "--nonce", "5", "--svc-nonce", "3", "amend:" + second + ":47000000000:10000"},
            credential));
        assertEquals(0, amended.exitCode(), amended.err() + amended.out());
        assertTrue(amended.out().contains("\"orders\":1,\"accepted\":1,\"refused\":0,"), amended.out());

        final CliRun bad = CliRun.of(
            concat(new String[]{"mm", "orders", "--url", appliance.baseUrl(), "--key-file", traderKey,
            "--market", "1", "--nonce", "6", "--svc-nonce", "4", "place:Up:1:1"}, credential));
        assertEquals(2, bad.exitCode(), bad.err());
        assertTrue(bad.err().contains("place:Up:1:1"), bad.err());
    }

    private static String[] concat(final String[] first, final String[] second)
    {
        final String[] all = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }
}
