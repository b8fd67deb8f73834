package io.venue.engine.state;

import java.util.Locale;

/**
 * The maps of the engine state: their file names in the state folder, their record layouts and their slot
 * in {@link StateMeta}. Renaming a file or changing a size is a format change: bump
 * {@link StateMeta#FORMAT_VERSION}.
 */
public enum StoreFile
{
    NONCE_WINDOWS("nonce-windows.cm3", 0, AddressKey.SIZE, NonceWindow.SIZE),
    BALANCES("balances.cm3", 1, AccountIdKey.SIZE, Balance.SIZE),
    POSITIONS("positions.cm3", 2, AccountIdKey.SIZE, Position.SIZE),
    OPEN_ORDERS("open-orders.cm3", 3, OrderIdKey.SIZE, OpenOrder.SIZE),
    AGENTS("agents.cm3", 4, NumberKey.SIZE, Agent.SIZE),
    CREDENTIALS("credentials.cm3", 5, NumberKey.SIZE, Credential.SIZE),
    ASSETS("assets.cm3", 6, NumberKey.SIZE, AssetRecord.SIZE),
    MARKETS("markets.cm3", 7, NumberKey.SIZE, MarketRecord.SIZE),
    PROTECTIONS("protections.cm3", 8, NumberKey.SIZE, ProtectionRecord.SIZE),
    FIX_ONBOARDING("fix-onboarding.cm3", 9, NumberKey.SIZE, FixOnboardingRecord.SIZE);

    private final String fileName;
    private final int metaSlot;
    private final int keySize;
    private final int valueSize;

    StoreFile(final String fileName, final int metaSlot, final int keySize, final int valueSize)
    {
        this.fileName = fileName;
        this.metaSlot = metaSlot;
        this.keySize = keySize;
        this.valueSize = valueSize;
    }

    public String fileName()
    {
        return fileName;
    }

    int metaSlot()
    {
        return metaSlot;
    }

    public int keySize()
    {
        return keySize;
    }

    public int valueSize()
    {
        return valueSize;
    }

    /** The map's name inside its file header. */
    String mapName()
    {
        return name().toLowerCase(Locale.ROOT);
    }
}
