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

    private IncludeValuesSeries() {
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
