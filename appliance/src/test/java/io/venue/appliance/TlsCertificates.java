package io.venue.appliance;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Self-signed certificates made at test time (the JDK's keytool in a child process, then PEM written here), so no key
 * material is checked in.
 */
final class TlsCertificates
{
    private TlsCertificates()
    {
    }

    /** Writes {@code <name>.cert.pem} and {@code <name>.key.pem} into {@code folder} for CN={@code name}. */
    static X509Certificate make(final Path folder, final String name) throws IOException, InterruptedException,
        GeneralSecurityException
    {
        final Path store = Files.createTempDirectory(folder, "ks").resolve(name + ".p12");
        final Process keytool = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair", "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", "changeit",
            "-alias", "venue", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2", "-dname", "CN=" + name,
            "-ext", "SAN=dns:" + name + ",ip:127.0.0.1").redirectErrorStream(true).start();
        final String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0)
        {
            throw new IOException("keytool failed: " + output);
        }
        final KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store))
        {
            keys.load(in, "changeit".toCharArray());
        }
        final Certificate certificate = keys.getCertificate("venue");
        final Base64.Encoder pem = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
        Files.writeString(folder.resolve(name + ".cert.pem"), "-----BEGIN CERTIFICATE-----\n" +
            pem.encodeToString(certificate.getEncoded()) + "\n-----END CERTIFICATE-----\n");
        // getEncoded of a private key is its PKCS#8 form
        Files.writeString(folder.resolve(name + ".key.pem"), "-----BEGIN PRIVATE KEY-----\n" +
            pem.encodeToString(keys.getKey("venue", "changeit".toCharArray()).getEncoded()) +
            "\n-----END PRIVATE KEY-----\n");
        Files.delete(store);
        return (X509Certificate)certificate;
    }

    /** A client context trusting exactly {@code certificates}. */
    static SSLContext trusting(final X509Certificate... certificates) throws IOException, GeneralSecurityException
    {
        final KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        for (int i = 0; i < certificates.length; i++)
        {
            trusted.setCertificateEntry("c" + i, certificates[i]);
        }
        final TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
