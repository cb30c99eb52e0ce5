package dev.millpond.config;

import java.util.Locale;

/** Where the effective allowlist comes from (docs/configuration.md, "Dynamic allowlist"). */
public enum IncludeValuesMode {
    /** No URL: the static MILLPOND_FILTER_VALUES list, or no keep filter at all. */
    STATIC("static"),
    /** URL set: the static list stays effective; the endpoint is polled for diff gauges only. */
    SHADOW("shadow"),
    /** URL set: the polled set ∪ the static pins is effective. */
    AUTHORITATIVE("authoritative");

    private final String wireName;

    IncludeValuesMode(String wireName) {
        this.wireName = wireName;
    }

    /** The value of MILLPOND_INCLUDE_VALUES_MODE and of the {@code mode} label. */
    public String wireName() {
        return wireName;
    }

    /** MILLPOND_INCLUDE_VALUES_MODE, lower-cased; {@code static} is not settable, it is the absence of a URL. */
    static IncludeValuesMode parseUrlMode(String raw) {
        String v = raw.strip().toLowerCase(Locale.ROOT);
        if (v.equals(SHADOW.wireName)) {
            return SHADOW;
        }
        if (v.equals(AUTHORITATIVE.wireName)) {
            return AUTHORITATIVE;
        }
        throw new ConfigException("MILLPOND_INCLUDE_VALUES_MODE must be shadow or authoritative, got '" + raw + "'");
    }
}
