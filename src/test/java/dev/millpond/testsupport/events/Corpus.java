package dev.millpond.testsupport.events;

import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the benchmark produces: {@code -Dbench.corpus=NAME}. Each corpus is seeded by the event's id, so a run is
 * reproducible and event {@code id} is the same bytes in every run.
 *
 * <ul>
 *   <li>{@code posthog} (default): ~1.19 KB PostHog-shaped events, 9 top-level keys ({@link PostHogEvents});</li>
 *   <li>{@code small}: ~314-byte events, 10 top-level keys ({@link SampleEvents});</li>
 *   <li>{@code posthog8k}: ~8.2 KB PostHog-shaped events, the same 9 top-level keys ({@link LargePostHogEvents});</li>
 *   <li>{@code posthog-variant}: PostHog-shaped events with four JSON object columns, one in eight hostile for VARIANT
 *       dual-write ({@link VariantPostHogEvents});</li>
 *   <li>{@code wide<N>}, e.g. {@code wide10}, {@code wide100}, {@code wide1000}: flat events of exactly N top-level
 *       keys of mixed types ({@link WideEvents}).</li>
 * </ul>
 *
 * @param name        as given to {@code -Dbench.corpus}
 * @param description as the benchmark's lines print it
 * @param generator   the event with a given id
 */
public record Corpus(String name, String description, LongFunction<byte[]> generator) {

    private static final Pattern WIDE = Pattern.compile("wide(\\d+)");

    /** The corpus {@code name}; fails naming the known ones. */
    public static Corpus named(String name) {
        switch (name) {
            case "posthog" -> {
                return new Corpus(name, "PostHog-shaped", PostHogEvents::event);
            }
            case "small" -> {
                return new Corpus(name, "small", SampleEvents::event);
            }
            case "posthog8k" -> {
                return new Corpus(name, "8 KB PostHog-shaped", LargePostHogEvents::event);
            }
            case "posthog-variant" -> {
                return new Corpus(name, "PostHog-shaped, hostile for VARIANT", VariantPostHogEvents::event);
            }
            default -> {
                Matcher m = WIDE.matcher(name);
                if (m.matches()) {
                    int columns = Integer.parseInt(m.group(1));
                    if (columns >= 2) {
                        return new Corpus(name, String.format("%,d-column flat", columns),
                                id -> WideEvents.event(id, columns));
                    }
                }
                throw new IllegalArgumentException("-Dbench.corpus=" + name + " is none of posthog, small,"
                        + " posthog8k, posthog-variant, wide<N> (N >= 2 top-level keys, e.g. wide10, wide100, wide1000)");
            }
        }
    }

    public byte[] event(long id) {
        return generator.apply(id);
    }
}
