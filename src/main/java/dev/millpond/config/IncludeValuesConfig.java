package dev.millpond.config;

import java.util.Objects;
import java.util.Optional;

/**
 * The dynamic allowlist source (MILLPOND_INCLUDE_VALUES_*) and the static keep values it builds on. Kept apart from
 * {@link RecordHandlingConfig} so the keep filter and this source can evolve independently.
 *
 * @param mode         static when no URL is set, otherwise MILLPOND_INCLUDE_VALUES_MODE
 * @param staticValues the keep filter (MILLPOND_FILTER_KEEP_FIELD_NAME + MILLPOND_FILTER_VALUES) as the record-handling
 *                     group parsed it; always present when a URL is set
 * @param polling      present exactly when a URL is set
 */
public record IncludeValuesConfig(
        IncludeValuesMode mode,
        Optional<FilterSpec> staticValues,
        Optional<IncludeValuesPolling> polling) {

    public IncludeValuesConfig {
        Objects.requireNonNull(mode, "mode");
        if ((mode == IncludeValuesMode.STATIC) != polling.isEmpty()) {
            throw new IllegalArgumentException("polling settings exist exactly in the URL modes");
        }
        if (polling.isPresent() && staticValues.isEmpty()) {
            throw new IllegalArgumentException("a URL mode needs the static keep values");
        }
    }

    /** The polling settings; fails in static mode. */
    public IncludeValuesPolling requirePolling() {
        return polling.orElseThrow(() -> new IllegalStateException("MILLPOND_INCLUDE_VALUES_URL is not set"));
    }
}
