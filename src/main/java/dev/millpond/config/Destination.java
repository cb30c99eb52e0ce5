package dev.millpond.config;

import java.util.Locale;

/** MILLPOND_DESTINATION: trimmed, lower-cased, empty means ducklake. */
public enum Destination {
    DUCKLAKE("ducklake"),
    HOGLAKE("hoglake");

    private final String wireName;

    Destination(String wireName) {
        this.wireName = wireName;
    }

    /** The name as operators write it and as it appears in the default group id. */
    public String wireName() {
        return wireName;
    }

    public static Destination parse(String raw) {
        String v = raw == null ? "" : raw.strip().toLowerCase(Locale.ROOT);
        if (v.isEmpty()) {
            return DUCKLAKE;
        }
        for (Destination d : values()) {
            if (d.wireName.equals(v)) {
                return d;
            }
        }
        throw new ConfigException("MILLPOND_DESTINATION must be 'ducklake' or 'hoglake', got '" + raw + "'");
    }
}
