package io.venue.crypto;

import io.venue.action.Address;
import io.venue.action.Book;
import io.venue.action.Side;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Sign;
import org.web3j.crypto.StructuredDataEncoder;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class Eip712OrderTest
{
    @Property(tries = 200)
    void hashEqualsWeb3jsStructuredDataEncoder(
        @ForAll final long chainId,
        @ForAll @Size(20) final byte[] contract,
        @ForAll final long marketId,
        @ForAll @Size(20) final byte[] trader,
        @ForAll @IntRange(max = 3) final int side,
        @ForAll final long price,
        @ForAll final long qty,
        @ForAll final long expiry,
        @ForAll final long nonce) throws Exception
    {
        final Eip712Order eip712 = new Eip712Order(chainId, new Address(contract));
        final byte[] out = new byte[35];
        eip712.hash(marketId, new Address(trader), side, price, qty, expiry, nonce, out, 3);

        final StructuredDataEncoder encoder = new StructuredDataEncoder(
            typedData(chainId, new Address(contract), marketId, new Address(trader), side, price, qty, expiry, nonce));
        assertArrayEquals(encoder.hashStructuredData(), Arrays.copyOfRange(out, 3, 35));
        assertArrayEquals(encoder.hashDomain(), eip712.domainSeparator());
    }

    @Test
    void productionDomainAndASignatureMatchWeb3jsSignTypedData() throws Exception
    {
        final Address contract = Address.of("0x5fbdb2315678afecb367f032d93f642f64180aa3");
        final Address trader = Address.of("0x7e5f4552091a69125d5dfcb7b8c2659029395bdf");
        final byte[] one = new byte[32];
        one[31] = 1;

        final byte[] hash = new byte[32];
        new Eip712Order(42161, contract).hash(
            7, trader, Eip712Order.sideCode(Side.ASK, Book.NO), 550_000, 2_000_000, 1_700_000_000L, 42, hash, 0);
        final byte[] signature = new Secp256k1Signer(Secp256k1KeyPair.fromPrivateKey(one)).sign(hash);

        final String json = typedData(42161, contract, 7, trader, 3, 550_000, 2_000_000, 1_700_000_000L, 42);
        assertArrayEquals(Web3jInterop.toBytes(Sign.signTypedData(json, ECKeyPair.create(one))), signature);
        final byte[] address = new byte[20];
        assertEquals(RecoveryStatus.OK, new NativeSecp256k1Recovery().recover(hash, 0, signature, 0, address, 0));
        assertArrayEquals(trader.toBytes(), address);
    }

    @Test
    void typeStringsAreTheSpecsAndWeb3jsEncoding() throws Exception
    {
        final StructuredDataEncoder encoder = new StructuredDataEncoder(
            typedData(1, Address.of("0x0000000000000000000000000000000000000001"), 0,
                Address.of("0x0000000000000000000000000000000000000002"), 0, 0, 0, 0, 0));

        assertEquals(Eip712Order.ORDER_TYPE, encoder.encodeType("Order"));
        assertEquals(Eip712Order.DOMAIN_TYPE, encoder.encodeType("EIP712Domain"));
    }

    @Test
    void sideCodes()
    {
        assertEquals(0, Eip712Order.sideCode(Side.BID, Book.YES));
        assertEquals(1, Eip712Order.sideCode(Side.ASK, Book.YES));
        assertEquals(2, Eip712Order.sideCode(Side.BID, Book.NO));
        assertEquals(3, Eip712Order.sideCode(Side.ASK, Book.NO));
        assertEquals(0, Eip712Order.sideCode(Side.BID, null));
        assertEquals(1, Eip712Order.sideCode(Side.ASK, null));
    }

    @Test
    void sideCodeAboveThreeIsRefused()
    {
        final Address address = Address.of("0x0000000000000000000000000000000000000001");
        final Eip712Order eip712 = new Eip712Order(1, address);
        assertThrows(IllegalArgumentException.class, () -> eip712.hash(0, address, 4, 0, 0, 0, 0, new byte[32], 0));
        assertThrows(IllegalArgumentException.class, () -> eip712.hash(0, address, -1, 0, 0, 0, 0, new byte[32], 0));
    }

    private static String typedData(
        final long chainId,
        final Address contract,
        final long marketId,
        final Address trader,
        final int side,
        final long price,
        final long qty,
        final long expiry,
        final long nonce)
    {
        return "{\"types\":{" +
            "\"EIP712Domain\":[" +
            "{\"name\":\"name\",\"type\":\"string\"}," +
            "{\"name\":\"version\",\"type\":\"string\"}," +
            "{\"name\":\"chainId\",\"type\":\"uint256\"}," +
            "{\"name\":\"verifyingContract\",\"type\":\"address\"}]," +
            "\"Order\":[" +
            "{\"name\":\"marketId\",\"type\":\"uint256\"}," +
            "{\"name\":\"trader\",\"type\":\"address\"}," +
            "{\"name\":\"side\",\"type\":\"uint8\"}," +
            "{\"name\":\"price\",\"type\":\"uint256\"}," +
            "{\"name\":\"qty\",\"type\":\"uint256\"}," +
            "{\"name\":\"expiry\",\"type\":\"uint64\"}," +
            "{\"name\":\"nonce\",\"type\":\"uint64\"}]}," +
            "\"primaryType\":\"Order\"," +
            "\"domain\":{\"name\":\"ServiceSpotCLOB\",\"version\":\"1\"," +
            "\"chainId\":\"" + Long.toUnsignedString(chainId) + "\"," +
            "\"verifyingContract\":\"" + contract + "\"}," +
            "\"message\":{" +
            "\"marketId\":\"" + Long.toUnsignedString(marketId) + "\"," +
            "\"trader\":\"" + trader + "\"," +
            "\"side\":" + side + "," +
            "\"price\":\"" + Long.toUnsignedString(price) + "\"," +
            "\"qty\":\"" + Long.toUnsignedString(qty) + "\"," +
            "\"expiry\":\"" + Long.toUnsignedString(expiry) + "\"," +
            "\"nonce\":\"" + Long.toUnsignedString(nonce) + "\"}}";
    }
}
