package io.venue.transport.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.handler.ssl.SniHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.DomainWildcardMappingBuilder;
import io.netty.util.Mapping;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A lane's TLS (the HTTP lane's, and the BSL TCP lane's with the same certificates): a default certificate and key
 * (PEM, the key PKCS#8) and, optionally, one pair per host name a client may ask for by SNI. A client that names no
 * host, or one with no pair of its own, gets the default. JDK provider, TLS 1.2 and 1.3 only. Built (and so every
 * file read and checked) when the settings are concluded, so a bad file stops the node before it serves.
 */
public final class ServerTls
{
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final SslContext fallback;
    private final Mapping<String, SslContext> byHost;
    private final List<String> hosts;

    private ServerTls(final SslContext fallback, final Mapping<String, SslContext> byHost, final List<String> hosts)
    {
        this.fallback = fallback;
        this.byHost = byHost;
        this.hosts = List.copyOf(hosts);
    }

    /**
     * Reads the default pair and the SNI pairs ({@code sni}: host name to its certificate and key files), refusing
     * with a message that names the file and the setting when one does not read.
     */
    public static ServerTls load(final Path cert, final Path key, final Map<String, Path[]> sni)
    {
        final SslContext fallback = context(cert, key, "http.tls.cert.file / http.tls.key.file");
        final DomainWildcardMappingBuilder<SslContext> mapping = new DomainWildcardMappingBuilder<>(fallback);
        final List<String> hosts = new ArrayList<>();
        for (final Map.Entry<String, Path[]> host : new LinkedHashMap<>(sni).entrySet())
        {
            final String name = host.getKey().toLowerCase(Locale.ROOT);
            mapping.add(name, context(host.getValue()[0], host.getValue()[1], "the SNI pair of " + name));
            hosts.add(name);
        }
        return new ServerTls(fallback, mapping.build(), hosts);
    }

    /** The SNI host names with a certificate of their own, as configured. */
    public List<String> hosts()
    {
        return hosts;
    }

    /** A new connection's TLS handler: one that picks its context by the ClientHello's server name. */
    public ChannelHandler handler(final ByteBufAllocator allocator)
    {
        return hosts.isEmpty() ? fallback.newHandler(allocator) : new SniHandler(byHost);
    }

    private static SslContext context(final Path cert, final Path key, final String setting)
    {
        for (final Path file : new Path[] {cert, key})
        {
            if (!Files.isReadable(file) || Files.isDirectory(file))
            {
                throw new IllegalArgumentException(setting + ": " + file + " is not a readable file");
            }
        }
        try
        {
            final File certFile = cert.toFile();
            final File keyFile = key.toFile();
            return SslContextBuilder.forServer(certFile, keyFile).sslProvider(SslProvider.JDK).protocols(PROTOCOLS)
                .build();
        }
        catch (final Exception ex)
        {
            // a certificate that is no PEM, a key that is not PKCS#8 or does not match the certificate
            throw new IllegalArgumentException(setting + ": " + cert + " and " + key + " do not make a TLS " +
                "certificate and key (PEM certificate, unencrypted PKCS#8 PEM key that belongs to it): " +
                ex.getMessage(), ex);
        }
    }
}
