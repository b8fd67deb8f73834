package io.venue.appliance;

import java.nio.file.Path;

/** What the appliance prints once it serves: where it listens, what it binds signatures to, how to place an order. */
final class Banner
{
    private Banner()
    {
    }

    static String text(final Appliance appliance, final ApplianceContext context)
    {
        final StringBuilder b = new StringBuilder();
        if (!appliance.isServing())
        {
            return b.append("venue appliance is a standby: following, HTTP starts on ")
                .append(context.httpHost()).append(':') .append(context.httpPort())
                .append(" once promoted\ndata folder: ").append(context.dataDir().toAbsolutePath())
                .append("\npromote it with: scripts/run-appliance.sh promote --data ")
                .append(context.dataDir().toAbsolutePath())
                .toString();
        }
        final String url = appliance.baseUrl();
        b.append("venue appliance serving on ").append(url).append('\n');
        b.append("data folder: ").append(context.dataDir().toAbsolutePath())
            .append(" (journal/commands, journal/events, state, snapshots)\n");
        b.append("connectivity (GET ").append(url).append("/api/v1/bsl/connectivity):\n  ")
            .append(appliance.connectivityJson()).append('\n');
        if (context.demo())
        {
            final Path cwd = Path.of("").toAbsolutePath();
            final Path key = relative(cwd, appliance.demoAccountKeyFile());
            b.append("demo account ").append(appliance.demoAccount()).append(" (key ").append(key)
                .append("): 100,000 USDC and 10 BTC\n");
            b.append("operator key: ").append(relative(cwd, appliance.operatorKeyFile())).append('\n');
            b.append("markets: 1 = BTC-USDC spot, 2 = YES/NO outcome in USDC (GET ").append(url)
                .append("/api/v1/public/exchange-info)\n");
            b.append("place an order (bid 0.01 BTC at 50,000 USDC; prices and quantities in micro-units):\n");
            // the CLI's defaults are the demo deployment's; any other must be named or the signature binds elsewhere
            final boolean demoDeployment = context.chainId() == ApplianceContext.DEMO_CHAIN_ID &&
                context.verifyingContract().equals(ApplianceContext.DEMO_CONTRACT);
            b.append("  tools/bin/venue sign place --key-file ").append(key)
                .append(demoDeployment ? "" :
                    " --chain-id " + context.chainId() + " --contract " + context.verifyingContract())
                .append(" --nonce 1 --market 1 --side Bid --price 50000000000 --qty 10000 --submit ")
                .append(url).append('\n');
        }
        b.append("metrics (to the addresses of metrics.allow, loopback by default): GET ").append(url)
            .append("/api/v1/admin/metrics\n");
        b.append("Ctrl-C stops it cleanly; a restart recovers from the journals.");
        return b.toString();
    }

    private static Path relative(final Path cwd, final Path file)
    {
        final Path absolute = file.toAbsolutePath();
        return absolute.startsWith(cwd) ? cwd.relativize(absolute) : absolute;
    }
}
