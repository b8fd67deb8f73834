package io.venue.crypto;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Secp256k1RecoveriesTest
{
    @Test
    void autoChoosesNativeWhereTheLibraryLoads()
    {
        final Secp256k1Recoveries choice = Secp256k1Recoveries.select(Secp256k1Recoveries.AUTO);

        assertTrue(choice.isNative());
        assertEquals(NativeSecp256k1Recovery.NAME, choice.name());
        assertInstanceOf(NativeSecp256k1Recovery.class, choice.newRecovery());
        assertTrue(Secp256k1Recoveries.passesSelfTest(choice.newRecovery()));
    }

    @Test
    void nativeCanBeRequired()
    {
        assertTrue(Secp256k1Recoveries.select(" Native ").isNative());
    }

    @Test
    void systemPropertyForcesBouncyCastle()
    {
        final String previous = System.getProperty(Secp256k1Recoveries.PROPERTY);
        System.setProperty(Secp256k1Recoveries.PROPERTY, "bouncycastle");
        try
        {
            final Secp256k1Recoveries choice = Secp256k1Recoveries.select();

            assertFalse(choice.isNative());
            assertEquals(BouncyCastleSecp256k1Recovery.NAME, choice.name());
            assertEquals("venue.secp256k1=bouncycastle", choice.reason());
            final Secp256k1Recovery recovery = choice.newRecovery();
            assertInstanceOf(BouncyCastleSecp256k1Recovery.class, recovery);
            assertEquals(BouncyCastleSecp256k1Recovery.NAME, recovery.name());
        }
        finally
        {
            if (null == previous)
            {
                System.clearProperty(Secp256k1Recoveries.PROPERTY);
            }
            else
            {
                System.setProperty(Secp256k1Recoveries.PROPERTY, previous);
            }
        }
    }

    @Test
    void defaultWithoutThePropertyIsAuto()
    {
        if (null == System.getProperty(Secp256k1Recoveries.PROPERTY))
        {
            assertTrue(Secp256k1Recoveries.select().isNative());
        }
    }

    @Test
    void withoutTheNativeLibraryAutoFallsBackAndNativeFailsStartUp() throws Exception
    {
        final String auto = runWithoutNativeJar(Secp256k1Recoveries.AUTO);
        assertTrue(auto.contains("chosen=bouncycastle self-test=true"), auto);
        assertTrue(auto.contains("secp256k1 recovery: bouncycastle (fallback: native library unavailable"), auto);

        final String required = runWithoutNativeJar(Secp256k1Recoveries.NATIVE);
        assertTrue(required.contains("refused: java.lang.IllegalStateException: venue.secp256k1=native but"), required);
    }

    // A child JVM whose class path lacks the jar holding libsecp256k1-jni.so.
    private static String runWithoutNativeJar(final String mode) throws Exception
    {
        final String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(entry -> !entry.contains("secp256k1-kmp-jni-jvm-linux"))
            .collect(Collectors.joining(File.pathSeparator));
        final Process process = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", classPath,
            SelectionProbe.class.getName(),
            mode)
            .redirectErrorStream(true)
            .start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        return output;
    }

    /** Entry point of the child JVM above. */
    static final class SelectionProbe
    {
        public static void main(final String[] args)
        {
            try
            {
                final Secp256k1Recoveries choice = Secp256k1Recoveries.select(args[0]);
                System.out.println(
                    "chosen=" + choice.name() + " self-test=" +
                    Secp256k1Recoveries.passesSelfTest(choice.newRecovery()));
            }
            catch (final IllegalStateException ex)
            {
                System.out.println("refused: " + ex);
            }
        }
    }

    @Test
    void unknownModeIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> Secp256k1Recoveries.select("openssl"));
    }
}
