package dev.millpond.stages;

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
    private FilterValueSet reported;

    InvalidUuidValues(String variable, String field, MillpondMetrics metrics, OnceWarnings warnings) {
        this.variable = variable;
        this.field = field;
        this.metrics = metrics;
        this.warnings = warnings;
    }

    void report(FilterValueSet set) {
        if (set == reported) {
            return;
        }
        reported = set;
        var bad = set.uuids().unparseable();
        if (bad.isEmpty()) {
            return;
        }
        metrics.error(ErrorType.FILTER_VALUE_INVALID);
        String first = bad.get(0);
        warnings.warn("invalid\u0000" + set.size() + '\u0000' + first, () -> variable + "='" + field
                + "' is a uuid column; " + bad.size() + " of " + set.size() + " filter values are not UUIDs and"
                + " cannot match (first: '" + first + "')");
    }
}
