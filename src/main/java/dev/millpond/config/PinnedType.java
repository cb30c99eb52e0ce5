package dev.millpond.config;

import java.util.Locale;

/** A MILLPOND_TYPED_COLUMNS target type, by its wire name. */
public enum PinnedType {
    TIMESTAMPTZ("timestamptz"),
    BIGINT("bigint"),
    DOUBLE("double"),
    BOOLEAN("boolean"),
    VARCHAR("varchar"),
    UUID("uuid");

    private final String wireName;

    PinnedType(String wireName) {
        this.wireName = wireName;
    }

    /** The name in MILLPOND_TYPED_COLUMNS and the {@code target_type} metric label. */
    public String wireName() {
        return wireName;
    }

    /** Lower-cased lookup; null when the name is not in the allowlist. */
    static PinnedType fromWireName(String raw) {
        String name = raw.toLowerCase(Locale.ROOT);
        for (PinnedType t : values()) {
            if (t.wireName.equals(name)) {
                return t;
            }
        }
        return null;
    }
}
