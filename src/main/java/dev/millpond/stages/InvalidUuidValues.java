package dev.millpond.stages;

import dev.millpond.config.FilterValues;

import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;

/**
 * Reports a filter value set's entries that are not UUIDs when it is compared against a uuid column: one
 * {@code errors_total{type="filter_value_invalid"}} per set, and one warning deduplicated on field, set size and
 * first offender — never on the whole value list, which a dynamic source rebuilds on every change.
 */
final class InvalidUuidValues {
    private final String variable;
    private final String field;
    private final MillpondMetrics metrics;
    private final OnceWarnings warnings;
    /** The value set reported last; weakly, so a replaced allowlist is not kept alive by its report. */
    private java.lang.ref.WeakReference<FilterValues> reported = new java.lang.ref.WeakReference<>(null);

    InvalidUuidValues(String variable, String field, MillpondMetrics metrics, OnceWarnings warnings) {
        this.variable = variable;
        this.field = field;
        this.metrics = metrics;
        this.warnings = warnings;
    }

    void report(FilterValueSet set) {
        if (set.values() == reported.get()) {
            return;
        }
        reported = new java.lang.ref.WeakReference<>(set.values());
        FilterValues.Strings.Uuids uuids = set.uuids();
        int bad = uuids.unparseable();
        if (bad == 0) {
            return;
        }
        metrics.error(ErrorType.FILTER_VALUE_INVALID);
        String first = uuids.firstBad();
        warnings.warn("invalid\u0000" + set.size() + '\u0000' + first, () -> variable + "='" + field
                + "' is a uuid column; " + bad + " of " + set.size() + " filter values are not UUIDs and"
                + " cannot match (first: '" + first + "')");
    }
}
