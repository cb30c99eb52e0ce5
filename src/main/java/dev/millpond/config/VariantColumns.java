package dev.millpond.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * MILLPOND_VARIANT_COLUMNS: the source columns dual-written into {@code <source>_variant} VARIANT companions on
 * DuckLake. Empty means dual-write is off. Only the DuckLake destination accepts it (hoglake has no VARIANT type).
 *
 * @param sources safe identifiers, in the configured order, without duplicates (compared case-insensitively,
 *                because DuckDB identifiers are)
 */
public record VariantColumns(List<String> sources) {

    public static final String VARIABLE = "MILLPOND_VARIANT_COLUMNS";
    public static final String COMPANION_SUFFIX = "_variant";

    public VariantColumns {
        sources = List.copyOf(sources);
    }

    public static VariantColumns none() {
        return new VariantColumns(List.of());
    }

    public boolean enabled() {
        return !sources.isEmpty();
    }

    /**
     * Comma-separated names, blanks around entries ignored, empty entries skipped. A name ending in
     * {@code _variant} (any case) is refused: the operator lists the source, and a derived name would otherwise ask
     * for {@code x_variant_variant}.
     */
    static VariantColumns parse(String raw) {
        if (raw == null || raw.isBlank()) {
            return none();
        }
        List<String> sources = new ArrayList<>();
        Set<String> folded = new LinkedHashSet<>();
        for (String entry : raw.split(",", -1)) {
            String name = entry.strip();
            if (name.isEmpty()) {
                continue;
            }
            SafeIdentifier.require(VARIABLE, name);
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.endsWith(COMPANION_SUFFIX)) {
                throw new ConfigException(VARIABLE + " lists '" + name + "', which ends in " + COMPANION_SUFFIX
                        + ": list the source column, not the derived companion");
            }
            if (folded.add(lower)) {
                sources.add(name);
            }
        }
        return new VariantColumns(sources);
    }
}
