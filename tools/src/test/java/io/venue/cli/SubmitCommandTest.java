package io.venue.cli;

import io.venue.appliance.Appliance;
import io.venue.appliance.ApplianceContext;
import io.venue.appliance.KeyFiles;
import io.venue.action.ActionPayload;
import io.venue.action.Deposit;
import io.venue.action.json.CanonicalJson;
import io.venue.codec.Hex;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The banner's copy-paste command, {@code venue sign place ... --submit URL}, against a real appliance on loopback. */
class SubmitCommandTest
{
    @TempDir
    Path folder;

    private Appliance appliance;

    @BeforeEach
    void start() throws Exception
    {
        appliance = Appliance.start(new ApplianceContext().dataDir(folder).httpPort(0),
            new PrintStream(OutputStream.nullOutputStream()));
    }

    @AfterEach
    void stop()
    {
        appliance.close();
    }

    private CliRun place(final String url, final String nonce)
    {
        return CliRun.of("sign", "place", "--key-file", appliance.demoAccountKeyFile().toString(), "--nonce", nonce,
            "--market", "1", "--side", "Bid", "--price", "50000000000", "--qty", "10000", "--submit", url);
    }

    @Test
    void placesAnOrderAndReportsRefusals()
    {
        final CliRun placed = place(appliance.baseUrl(), "1");
        assertEquals(0, placed.exitCode(), placed.err());
        assertTrue(placed.err().contains("HTTP 200"), placed.err());
        assertTrue(placed.out().contains("{\"ok\":true,\"sequence\":7,"), placed.out());

        final CliRun replayed = place(appliance.baseUrl(), "1");
        assertEquals(1, replayed.exitCode());
        assertTrue(replayed.out().contains("\"code\":\"nonce_replayed\""), replayed.out());
    }

    /** An operator action signed the documented way (docs/MESSAGE-TEXTS.md section 6) funds an account. */
    @Test
    void signsAnOperatorActionOverItsAdminText() throws Exception
    {
        final Secp256k1KeyPair trader = Secp256k1KeyPair.generate(new SecureRandom());
        final Secp256k1KeyPair operator = Secp256k1KeyPair.fromPrivateKey(Hex.fromHex(
            Files.readString(appliance.operatorKeyFile()).trim()));
        // the demo set-up used the operator's nonces 0 to 5
        final ActionPayload payload = new ActionPayload(operator.address(), 6, null, System.currentTimeMillis(),
            new Deposit(trader.address(), 1, 100_000_000_000L));
        final Path deposit = Files.write(folder.resolve("deposit.json"), CanonicalJson.toBytes(payload));
        final CliRun signed = CliRun.of("sign", "payload", deposit.toString(), "--key-file",
            appliance.operatorKeyFile().toString(), "--mode", "admin-text", "--submit", appliance.baseUrl());
        assertEquals(0, signed.exitCode(), signed.err() + signed.out());
        final Path traderKeyFile = folder.resolve("trader.key");
        KeyFiles.writePrivate(traderKeyFile, Hex.to0x(trader.privateKey()));
        final String traderKey = traderKeyFile.toString();
        final CliRun bid = CliRun.of("sign", "place", "--key-file", traderKey, "--nonce", "0", "--market", "1",
            "--side", "Bid", "--price", "50000000000", "--qty", "10000", "--submit", appliance.baseUrl());
        assertEquals(0, bid.exitCode(), "funded by the deposit: " + bid.out());

        final CliRun trade = CliRun.of("sign", "place", "--key-file", traderKey, "--nonce", "1", "--market", "1",
            "--side", "Bid", "--price", "50000000000", "--qty", "10000", "--mode", "admin-text");
        assertEquals(2, trade.exitCode(), trade.out());
        assertTrue(trade.err().contains("only an admin action is signed over the admin text"), trade.err());
    }

    @Test
    void anUnreachableApplianceIsAClearFailure()
    {
        final CliRun run = place("http://127.0.0.1:1", "1");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().contains("could not submit to http://127.0.0.1:1/api/v1/trading/actions"), run.err());
    }
}
