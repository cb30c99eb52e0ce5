package dev.millpond.includevalues;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every {@code millpond_include_values_*} series of one Prometheus scrape, keyed by the name without that prefix
 * plus its own label ({@code refused_total{reason=empty}}); the base labels are checked and dropped. Comparing the
 * whole map asserts each gauge and counter at once, and that no other include-values series exists.
 */
final class IncludeValuesSeries {

    static final String PREFIX = "millpond_include_values_";
    private static final Pattern LINE = Pattern.compile("^" + PREFIX + "(\\w+)(?:\\{([^}]*)\\})?\\s+(\\S+)$",
            Pattern.MULTILINE);
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    /** The unlabelled series, which exist at 0 from the first scrape whatever the configuration. */
    static final Map<String, Double> AT_STARTUP = Map.of("size", 0.0, "pending_removals", 0.0,
            "last_success_timestamp_seconds", 0.0, "poll_failures_total", 0.0, "shadow_only_static", 0.0,
            "shadow_only_remote", 0.0, "pinned", 0.0, "pinned_only", 0.0);

    private IncludeValuesSeries() {
    }

    /** {@link #AT_STARTUP} with the series that moved since. */
    static Map<String, Double> atStartupAnd(Map<String, Double> moved) {
        Map<String, Double> all = new TreeMap<>(AT_STARTUP);
        all.putAll(moved);
        return all;
    }

    static Map<String, Double> in(String scrape, String pipeline) {
        Map<String, Double> series = new TreeMap<>();
        Matcher line = LINE.matcher(scrape);
        while (line.find()) {
            StringBuilder key = new StringBuilder(line.group(1));
            boolean hasPipeline = false;
            Matcher label = LABEL.matcher(line.group(2) == null ? "" : line.group(2));
            while (label.find()) {
                switch (label.group(1)) {
                    case "pipeline" -> hasPipeline = label.group(2).equals(pipeline);
                    case "broker_source" -> { }
                    default -> key.append('{').append(label.group(1)).append('=').append(label.group(2)).append('}');
                }
            }
            if (!hasPipeline) {
                throw new AssertionError("series without pipeline=" + pipeline + ": " + line.group());
            }
            series.put(key.toString(), Double.parseDouble(line.group(3)));
        }
        return series;
    }
}
