package io.venue.entry.credential;

import io.venue.auth.Credentials;
import io.venue.journal.sbe.RequestRejectReason;
import io.venue.svc.SvcCredential;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.bouncycastle.crypto.generators.Ed25519KeyPairGenerator;
import org.bouncycastle.crypto.params.Ed25519KeyGenerationParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A session's logon by API key, secret and passphrase (a FIX Logon, a TCP login): what passes and what is refused. */
class MachineCredentialsTest
{
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String HMAC_KEY = Credentials.newApiKeyId(RANDOM);
    private static final String SECRET = Credentials.newApiSecret(RANDOM);
    private static final String PASSPHRASE = Credentials.newPassphrase(RANDOM);
    private static final String ED25519_KEY = Credentials.newApiKeyId(RANDOM);

    private final Map<String, ApiKey> keys = Map.of(
        HMAC_KEY, new ApiKey(SvcCredential.hmac(HMAC_KEY, SECRET, PASSPHRASE), "0x" + "1".repeat(40), 0, true),
        ED25519_KEY,
        new ApiKey(SvcCredential.ed25519(ED25519_KEY, ed25519PublicKey()), "0x" + "2".repeat(40), 0, true));
    private final MachineCredentials credentials = new MachineCredentials(keys::get, null, 1_000);

    private static byte[] ed25519PublicKey()
    {
        final Ed25519KeyPairGenerator generator = new Ed25519KeyPairGenerator();
        generator.init(new Ed25519KeyGenerationParameters(RANDOM));
        return ((Ed25519PublicKeyParameters)generator.generateKeyPair().getPublic()).getEncoded();
    }

    @Test
    void anActiveHmacCredentialWithItsSecretAndPassphraseLogsOn()
    {
        assertNull(credentials.logon(HMAC_KEY, SECRET, PASSPHRASE, 5_000));
    }

    @Test
    void everyWrongPartIsRefusedAlikeAndJournaledAsATransportAuthFailure()
    {
        final MachineCredentials.Failure wrongSecret = credentials.logon(HMAC_KEY, Credentials.newApiSecret(RANDOM),
            PASSPHRASE, 5);
        final MachineCredentials.Failure wrongPassphrase = credentials.logon(HMAC_KEY, SECRET,
            Credentials.newPassphrase(RANDOM), 5);
        final MachineCredentials.Failure unknownKey = credentials.logon(Credentials.newApiKeyId(RANDOM), SECRET,
            PASSPHRASE, 5);
        final MachineCredentials.Failure noKey = credentials.logon(null, SECRET, PASSPHRASE, 5);
        final MachineCredentials.Failure noSecret = credentials.logon(HMAC_KEY, null, PASSPHRASE, 5);
        // an Ed25519 credential's holder never shows a secret: it cannot log on with one, whatever it sends
        final MachineCredentials.Failure ed25519 = credentials.logon(ED25519_KEY, SECRET, PASSPHRASE, 5);
        for (final MachineCredentials.Failure failure : new MachineCredentials.Failure[] {
            wrongSecret, wrongPassphrase, unknownKey, noKey, noSecret, ed25519})
        {
            assertNotNull(failure);
            // the same words whichever part was wrong: a stranger learns nothing about which keys exist
            assertEquals(wrongSecret.message(), failure.message());
            assertEquals(RequestRejectReason.TRANSPORT_AUTH_FAILED, failure.journalReason());
            assertEquals(5, failure.serverTimeMs());
        }
    }

    @Property(tries = 200)
    void noOtherSecretOrPassphraseLogsOn(@ForAll final String secret, @ForAll final String passphrase)
    {
        if (secret.equals(SECRET) && passphrase.equals(PASSPHRASE))
        {
            return;
        }
        assertNotNull(credentials.logon(HMAC_KEY, secret, passphrase, 1));
        assertNotNull(
            credentials.logon(HMAC_KEY, SECRET, passphrase.equals(PASSPHRASE) ? passphrase + "x" : passphrase, 1));
    }
}
