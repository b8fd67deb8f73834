package io.venue.auth;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CredentialSecretsTest
{
    @Test
    void secretsAreDerivedPerKeyIdAndKey()
    {
        final byte[] key = new byte[32];
        final CredentialSecrets secrets = new CredentialSecrets(key);
        final String secret = secrets.apiSecret("spk_0000000000000001");
        assertTrue(Credentials.isApiSecret(secret), secret);
        assertTrue(Credentials.isPassphrase(secrets.passphrase("spk_0000000000000001")));
        assertEquals(secret, new CredentialSecrets(key.clone()).apiSecret("spk_0000000000000001"),
            "the same on every node");
        assertNotEquals(secret, secrets.apiSecret("spk_0000000000000002"));
        key[0] = 1;
        assertEquals(secret, secrets.apiSecret("spk_0000000000000001"), "the key was copied");
        assertNotEquals(secret, new CredentialSecrets(key).apiSecret("spk_0000000000000001"));
        assertThrows(IllegalArgumentException.class, () -> new CredentialSecrets(new byte[31]));
    }
}
