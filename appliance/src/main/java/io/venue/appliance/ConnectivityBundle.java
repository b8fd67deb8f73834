package io.venue.appliance;

import io.venue.action.Address;
import io.venue.entry.lane.ConnectivityEntry;
import io.venue.transport.bsltcp.BslTcpLane;
import io.venue.codec.JsonWriter;

import java.util.List;
import java.util.Map;

/**
 * The body of GET /api/v1/bsl/connectivity: where to connect (each enabled lane's sections, in the order of
 * {@code lanes}), what to bind signatures to, and where the binary schemas are.
 */
final class ConnectivityBundle
{
    private ConnectivityBundle()
    {
    }

    static String json(final List<ConnectivityEntry> lanes, final long chainId, final Address verifyingContract)
    {
        final JsonWriter json = new JsonWriter().field("ok", true);
        for (final ConnectivityEntry entry : lanes)
        {
            json.object(entry.name());
            for (final Map.Entry<String, Object> field : entry.fields().entrySet())
            {
                final Object value = field.getValue();
                if (value instanceof String text)
                {
                    json.field(field.getKey(), text);
                }
                else if (value instanceof Boolean flag)
                {
                    json.field(field.getKey(), flag.booleanValue());
                }
                else
                {
                    json.field(field.getKey(), ((Long)value).longValue());
                }
            }
            json.end();
        }
        return json.object("actionSigning").field("chainId", chainId)
            .field("verifyingContract", verifyingContract.toString())
            .field("digest", "blake3-v2").field("scheme", "EcdsaSecp256k1").end()
            // every binary schema the venue speaks (the compact body, the BSL TCP session), served by the HTTP lane
            .object("schemas").field("route", BslTcpLane.SCHEMAS_ROUTE).field("byteOrder", "littleEndian").end()
            .toJson();
    }
}
