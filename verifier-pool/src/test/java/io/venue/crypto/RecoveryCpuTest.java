package io.venue.crypto;

import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class RecoveryCpuTest
{
    @Test
    void timesEveryNthRecoveryAndAnswersExactlyAsTheRecoveryItWraps()
    {
        assumeTrue(RecoveryCpu.supported(), "this JVM reads no thread CPU time");
        final SecureRandom random = new SecureRandom();
        final Secp256k1Signer signer = new Secp256k1Signer(Secp256k1KeyPair.generate(random));
        final Secp256k1Recovery plain = Secp256k1Recoveries.select().newRecovery();
        final RecoveryCpu cpu = new RecoveryCpu(4);
        final Secp256k1Recovery timed = cpu.timing(Secp256k1Recoveries.select().newRecovery());
        assertEquals(plain.name(), timed.name());
        for (int i = 0; i < 40; i++)
        {
            final byte[] hash = new byte[32];
            random.nextBytes(hash);
            final byte[] signature = signer.sign(hash);
            if (i % 5 == 0)
            {
                signature[64] = 9; // a bad v: the same refusal either way
            }
            final byte[] expected = new byte[20];
            final byte[] actual = new byte[20];
            Arrays.fill(expected, (byte)1);
            Arrays.fill(actual, (byte)1);
            assertEquals(plain.recover(hash, 0, signature, 0, expected, 0),
                timed.recover(hash, 0, signature, 0, actual, 0));
            assertArrayEquals(expected, actual);
        }
        assertEquals(10, cpu.samples());
        assertTrue(cpu.cpuNs() > 0, "ten recoveries took no CPU time");
    }

    @Test
    void refusesAPeriodBelowOne()
    {
        assertThrows(IllegalArgumentException.class, () -> new RecoveryCpu(0));
    }
}
