package io.venue.appliance;

import io.venue.action.Address;
import io.venue.entry.lane.ConnectivityEntry;
import io.venue.transport.http.HttpGateway;
import io.venue.transport.http.HttpLane;
import io.venue.codec.JsonWriter;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The connectivity bundle built from the lanes' entries is, byte for byte, the one the appliance wrote itself before.
 */
class ConnectivityBundleTest
{
    @Test
    void theHttpLanesBundleIsTheOneWrittenBefore()
    {
        final Address contract = Address.of("0x" + "ab".repeat(20));
        final List<ConnectivityEntry> http = new HttpLane(new HttpGateway.Context().host("10.0.0.7").port(8443))
            .connectivity();
        // the appliance's own JsonWriter calls before the lanes described themselves
        final String before = new JsonWriter().field("ok", true)
            .object("http").field("baseUrl", "http://10.0.0.7:8443")
            .field("submitRoute", "/api/v1/trading/actions").field("mmReplaceRoute", "/api/v1/mm/orders/replace")
            .field("adminRoute", "/api/v1/admin/actions").field("tls", false).end()
            .object("bsl").field("orderEntryRoute", "/api/v1/bsl/orders/compact").field("resultMode", "ack")
            .field("responseMode", "detailed").field("schema", "venue-bsl.xml, schema 4, version 1").end()
            .object("actionSigning").field("chainId", 1).field("verifyingContract", contract.toString())
            .field("digest", "blake3-v2").field("scheme", "EcdsaSecp256k1").end()
            .object("schemas").field("route", "/api/v1/public/schemas").field("byteOrder", "littleEndian").end()
            .toJson();
        assertEquals(before, ConnectivityBundle.json(http, 1, contract));
    }

    @Test
    void everyLanesSectionsComeBeforeTheSigningBinding()
    {
        final String json = ConnectivityBundle.json(
            List.of(ConnectivityEntry.of("fix").field("port", 9878L).field("tls", true)
            .field("senderCompId", "VENUE").build()), 8453, ApplianceContext.DEMO_CONTRACT);
        assertEquals("{\"ok\":true,\"fix\":{\"port\":9878,\"tls\":true,\"senderCompId\":\"VENUE\"},\"actionSigning\":" +
            "{\"chainId\":8453," + "\"verifyingContract\":\"0x" + "5e".repeat(20) + "\",\"digest\":\"blake3-v2\"," +
            "\"scheme\":\"EcdsaSecp256k1\"},\"schemas\":{\"route\":\"/api/v1/public/schemas\"," +
            "\"byteOrder\":\"littleEndian\"}}", json);
    }
}
