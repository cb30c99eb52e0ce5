package dev.millpond.sinks.ducklake;

import org.apache.arrow.vector.types.pojo.Field;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * MILLPOND_VARIANT_COLUMNS on the payload side: which batch fields must never reach the INSERT because they would
 * write into a VARIANT companion, and which configured sources a batch carries.
 *
 * <p>A payload key equal (in any case) to a configured {@code <source>_variant}, or to any live VARIANT column, is
 * stripped: sent as-is it would evolve a VARCHAR companion (which can never become VARIANT) or be implicitly cast
 * into one. The second rule protects a companion from pods whose MILLPOND_VARIANT_COLUMNS is unset or stale.
 */
final class VariantCompanions {

    static final String SUFFIX = "_variant";

    private final List<String> sources;
    private final Set<String> foldedCompanions;

    VariantCompanions(List<String> sources) {
        this.sources = List.copyOf(sources);
        this.foldedCompanions = sources.stream().map(s -> fold(companionOf(s))).collect(Collectors.toUnmodifiableSet());
    }

    record Stripped(List<Field> kept, List<String> dropped) {
    }

    static String companionOf(String source) {
        return source + SUFFIX;
    }

    Stripped strip(List<Field> columns, LiveSchema live) {
        List<Field> kept = new ArrayList<>();
        List<String> dropped = new ArrayList<>();
        for (Field field : columns) {
            String name = field.getName();
            boolean liveVariant = live.find(name).map(c -> c.type().equals("VARIANT")).orElse(false);
            if (foldedCompanions.contains(fold(name)) || liveVariant) {
                dropped.add(name);
            } else {
                kept.add(field);
            }
        }
        return new Stripped(List.copyOf(kept), List.copyOf(dropped));
    }

    /** A configured source a batch carries: its spelling in the batch, and its companion column. */
    record Source(String batchName, String companion) {
    }

    /** The configured sources this batch carries. */
    List<Source> sourcesIn(List<Field> columns) {
        List<Source> present = new ArrayList<>();
        for (String source : sources) {
            for (Field field : columns) {
                if (fold(field.getName()).equals(fold(source))) {
                    present.add(new Source(field.getName(), companionOf(source)));
                }
            }
        }
        return present;
    }

    boolean enabled() {
        return !sources.isEmpty();
    }

    private static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
