package dev.millpond.maintenance.metrics;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * One exporter query: DuckDB SQL over the attached lake (the catalog tables are {@code __ducklake_metadata_lake.*}).
 * Each value column {@code c} of its rows becomes the gauge {@code ducklake_<name>_<c>}; the {@code labels} columns
 * become labels (with {@code tenant} on every series).
 */
public record CatalogQuery(String name, String sql, Duration interval, List<String> labels) {

    /** Prometheus's label-name rule, which also keeps {@code ducklake_<name>_<c>} a valid metric name. */
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

    public CatalogQuery {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("query name '" + name + "' must match " + NAME.pattern());
        }
        if (sql == null || sql.isBlank()) {
            throw new IllegalArgumentException("query " + name + " has no sql");
        }
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("query " + name + " needs a positive interval");
        }
        labels = List.copyOf(labels);
        labels.forEach(l -> {
            if (!NAME.matcher(l).matches()) {
                throw new IllegalArgumentException("query " + name + ": label '" + l + "' is not a metric label name");
            }
        });
    }

    public String metricName(String column) {
        return "ducklake_" + name + "_" + column;
    }
}
