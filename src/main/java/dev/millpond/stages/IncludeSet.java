package dev.millpond.stages;

import dev.millpond.config.FilterValues;

import java.util.Objects;

/**
 * One immutable snapshot of the keep filter's allowlist. The keep filter reads the current snapshot from a
 * {@code Supplier<IncludeSet>} once per batch, so a publisher on another thread (the include-values poller) can
 * swap the whole set atomically; today the static MILLPOND_FILTER_VALUES list is the only source.
 */
public record IncludeSet(FilterValues values) {
    public IncludeSet {
        Objects.requireNonNull(values, "values");
    }
}
