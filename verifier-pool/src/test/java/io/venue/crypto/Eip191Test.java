package io.venue.crypto;

import io.venue.action.Address;
import io.venue.action.OrderId;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Sign;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class Eip191Test
{
    @Property(tries = 200)
    void personalHashIsWeb3jsEthereumMessageHash(@ForAll @Size(max = 1200) final byte[] message)
    {
        assertArrayEquals(Sign.getEthereumMessageHash(message), Eip191.personalHash(message));
    }

    @ParameterizedTest
    @ValueSource(ints = { 0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 12345 })
    void lengthDigitsAreDecimalAtEveryWidth(final int length)
    {
        final byte[] message = Blake3Test.officialInput(length);
        final byte[] framed = new byte[length + 6];
        System.arraycopy(message, 0, framed, 2, length);
        final byte[] out = new byte[36];

        Eip191.personalHash(new Keccak256(), framed, 2, length, out, 4);

        assertArrayEquals(Sign.getEthereumMessageHash(message), Arrays.copyOfRange(out, 4, 36));
    }

    @Test
    void thirtyTwoByteShortcutEqualsTheGeneralForm()
    {
        final byte[] hash = Secp256k1Recoveries.SELF_TEST_HASH;
        final byte[] out = new byte[32];
        Eip191.personalHash32(new Keccak256(), hash, 0, out, 0);

        assertArrayEquals(Eip191.personalHash(hash), out);
    }

    @Test
    void cancelByIdTextIsThreeLinesWithoutTrailingLineFeed()
    {
        final OrderId orderId = OrderId.of("0x" + "ab".repeat(32));
        final Address trader = Address.of("0x00112233445566778899aabbccddeeff00112233");

        assertEquals(
            "Service CancelById\n" +
            "orderId:0xabababababababababababababababababababababababababababababababab\n" +
            "trader:0x00112233445566778899aabbccddeeff00112233",
            CancelByIdText.text(orderId, trader));
    }

    @Test
    void cancelByIdSignedWithOurSignerIsWeb3jsPersonalSign() throws Exception
    {
        final byte[] one = new byte[32];
        one[31] = 1;
        final Secp256k1KeyPair keyPair = Secp256k1KeyPair.fromPrivateKey(one);
        final String text = CancelByIdText.text(OrderId.of("0x" + "0f".repeat(32)), keyPair.address());
        final byte[] textBytes = text.getBytes(StandardCharsets.UTF_8);

        final byte[] signature = new Secp256k1Signer(keyPair).sign(Eip191.personalHash(text));

        assertArrayEquals(Web3jInterop.toBytes(Sign.signPrefixedMessage(textBytes, ECKeyPair.create(one))), signature);
        final byte[] address = new byte[20];
        assertEquals(
            RecoveryStatus.OK,
            new NativeSecp256k1Recovery().recover(Eip191.personalHash(textBytes), 0, signature, 0, address, 0));
        assertArrayEquals(keyPair.address().toBytes(), address);
    }
}
