package dev.millpond.maintenance.metrics;

import dev.millpond.vocabulary.Identifiers;

import java.time.Duration;
import java.util.List;

/**
 * One exporter query: DuckDB SQL over the attached lake (the catalog tables are {@code __ducklake_metadata_lake.*}).
 * Each value column {@code c} of its rows becomes the gauge {@code ducklake_<name>_<c>}; the {@code labels} columns
 * become labels (with {@code tenant} on every series).
 */
public record CatalogQuery(String name, String sql, Duration interval, List<String> labels) {

    public CatalogQuery {
        // The safe-identifier rule is also Prometheus's label-name rule, and keeps ducklake_<name>_<c> a valid
        // metric name.
        if (!Identifiers.isSafe(name)) {
            throw new IllegalArgumentException("query name '" + name + "' must match " + Identifiers.RULE);
        }
        if (sql == null || sql.isBlank()) {
            throw new IllegalArgumentException("query " + name + " has no sql");
        }
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("query " + name + " needs a positive interval");
        }
        labels = List.copyOf(labels);
        labels.forEach(l -> {
            if (!Identifiers.isSafe(l)) {
                throw new IllegalArgumentException("query " + name + ": label '" + l + "' is not a metric label name");
            }
        });
    }

    public String metricName(String column) {
        return "ducklake_" + name + "_" + column;
    }
}
