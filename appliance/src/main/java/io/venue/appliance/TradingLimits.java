package io.venue.appliance;

import io.venue.action.Fields;
import io.venue.codec.JsonWriter;
import io.venue.engine.EngineConfig;

/**
 * The limits of the trading route and of the books and orders (spec 8.1, 8.2), as configured: GET /api/v1/bsl/limits.
 */
final class TradingLimits
{
    private TradingLimits()
    {
    }

    static String json(final EngineConfig config, final ApplianceContext context)
    {
        return new JsonWriter().object("accountLimiter").field("maxActionsPerWindow", config.actionsPerWindow())
            .field("windowMs", config.actionWindowMs()).field("burst", config.actionsPerWindow()).end()
            .object("edgeThrottle").field("requestsPerSecond", context.edgeIpRate())
            .field("burst", context.edgeIpBurst()).end()
            .field("maxOpenOrdersPerAccount", config.maxOpenOrdersPerAccount())
            .field("maxOpenOrdersPerAccountAndMarket", config.maxOpenOrdersPerAccountAndMarket())
            .field("maxPriceLevelsPerSide", config.maxLevelsPerSide())
            .field("maxLegsPerBatch", Fields.MAX_BATCH_LEGS)
            .field("matchingShards", config.shards()).field("groupCommands", config.groupCommands())
            .object("crossShardCredit").field("active", config.crossShardCreditActive())
            .field("haircutPpm", config.crossShardHaircutPpm())
            .field("maxAccountLocked", config.crossShardMaxAccountLocked())
            .field("maxMarketLocked", config.crossShardMaxMarketLocked())
            .field("killSwitch", config.crossShardKillSwitch()).end()
            .toJson();
    }
}
