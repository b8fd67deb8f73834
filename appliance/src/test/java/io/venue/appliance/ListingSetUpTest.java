package io.venue.appliance;

import io.venue.codec.Hex;
import io.venue.crypto.Secp256k1KeyPair;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A production-style node (no demo) whose listing comes from its configuration: created by operator actions at the
 * first start, left alone at the next, extended when the file grows, and a start refused when the file contradicts
 * the journal.
 */
class ListingSetUpTest
{
    private static final String ASSETS =
        "\"assets\":[{\"asset\":1,\"symbol\":\"USDC\"},{\"asset\":7,\"symbol\":\"ETH\"}]";
    private static final String SPOT =
        "{\"marketId\":3,\"kind\":\"SPOT\",\"baseAsset\":7,\"quoteAsset\":1,\"tickSize\":10000," +
        "\"lotSize\":1000,\"minQty\":1000}";
    private static final String OUTCOME =
        "{\"marketId\":4,\"kind\":\"OUTCOME\",\"collateralAsset\":1,\"tickSize\":10000," +
        "\"lotSize\":1000000,\"minQty\":1000000}";

    @TempDir
    Path folder;

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    private Appliance start(final String listing) throws Exception
    {
        Files.writeString(folder.resolve("listing.json"), listing);
        final Path keyFile = folder.resolve("operator.key");
        if (!Files.exists(keyFile))
        {
            KeyFiles.writePrivate(keyFile, Hex.to0x(Secp256k1KeyPair.generate(new SecureRandom()).privateKey()) + "\n");
        }
        final Secp256k1KeyPair operator = VenueHttp.key(keyFile);
        final ApplianceContext context = new ApplianceContext().dataDir(folder.resolve("data")).httpPort(0);
        ApplianceConfigFile.apply(context, "demo", "false", folder);
        // a production node names its deployment: the demo's, which the test's clients sign for
        ApplianceConfigFile.apply(context, "chain.id", Long.toString(ApplianceContext.DEMO_CHAIN_ID), folder);
        ApplianceConfigFile.apply(context, "verifying.contract", ApplianceContext.DEMO_CONTRACT.toString(), folder);
        ApplianceConfigFile.apply(context, "operators", operator.address().toString(), folder);
        ApplianceConfigFile.apply(context, "listing.file", "listing.json", folder);
        ApplianceConfigFile.apply(context, "listing.operator.key.file", "operator.key", folder);
        log.reset();
        return Appliance.start(context, new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    private String log()
    {
        return log.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theConfiguredListingIsCreatedOnceExtendedAndNeverChangedSilently() throws Exception
    {
        try (Appliance appliance = start("{" + ASSETS + ",\"markets\":[" + SPOT + "]}"))
        {
            assertTrue(log().contains("3 of 3 assets and markets created"), log());
            final String info = new VenueHttp(appliance.baseUrl()).get("/api/v1/public/exchange-info").body();
            assertTrue(
                info.contains("\"marketId\":3,\"kind\":\"SPOT\"") && info.contains("\"symbol\":\"ETH-USDC\""), info);
        }
        // started again for its log only
        final Appliance unchanged = start("{" + ASSETS + ",\"markets\":[" + SPOT + "]}");
        try (unchanged)
        {
            assertTrue(log().contains("0 of 3 assets and markets created"), log());
        }
        try (Appliance appliance = start("{" + ASSETS + ",\"markets\":[" + SPOT + "," + OUTCOME + "]}"))
        {
            assertTrue(log().contains("1 of 4 assets and markets created"), log());
            assertEquals(2, appliance.directory().markets().size());
        }
        final IllegalStateException drift = assertThrows(IllegalStateException.class,
            () -> start("{" + ASSETS.replace("]", ",{\"asset\":9,\"symbol\":\"SOL\"}]") + ",\"markets\":[" +
                SPOT.replace("\"tickSize\":10000", "\"tickSize\":5000") + "]}"));
        assertTrue(drift.getMessage().contains("the listing file says"), drift.getMessage());
        // the contradicting file changed nothing, not even the entries before the contradiction
        try (Appliance appliance = start("{" + ASSETS + ",\"markets\":[" + SPOT + "," + OUTCOME + "]}"))
        {
            assertTrue(log().contains("0 of 4 assets and markets created"), log());
            assertTrue(!new VenueHttp(appliance.baseUrl()).get("/api/v1/public/exchange-info").body().contains("SOL"));
        }
        final IllegalArgumentException kind = assertThrows(IllegalArgumentException.class,
            () -> start("{\"markets\":[{\"marketId\":3,\"kind\":\"FUTURE\"}]}"));
        assertTrue(kind.getMessage().contains("market kind is SPOT or OUTCOME, not FUTURE"), kind.getMessage());
        final IllegalStateException orphan = assertThrows(IllegalStateException.class,
            () -> start("{" + ASSETS + ",\"markets\":[" + SPOT + "," + SPOT.replace("\"marketId\":3", "\"marketId\":5")
                .replace("\"baseAsset\":7", "\"baseAsset\":8") + "]}"));
        assertTrue(orphan.getMessage().contains("names asset 8"), orphan.getMessage());
        final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
            () -> start("{" + ASSETS + ",\"markets\":[" + SPOT + "," + SPOT + "]}"));
        assertTrue(twice.getMessage().contains("market 3 is listed twice"), twice.getMessage());
    }
}
