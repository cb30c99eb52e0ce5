package dev.millpond.config;

import java.util.Locale;
import java.util.Optional;

/** The partition transforms hoglake accepts from a writer: its vocabulary, spelled as on the wire. */
public enum HoglakeTransform {
    IDENTITY,
    YEAR,
    MONTH,
    DAY,
    HOUR,
    BUCKET;

    /** The wire literal ({@code identity}, {@code bucket}, …). */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Case-insensitive lookup of a wire literal. */
    public static Optional<HoglakeTransform> fromWireName(String name) {
        for (HoglakeTransform t : values()) {
            if (t.wireName().equalsIgnoreCase(name)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
