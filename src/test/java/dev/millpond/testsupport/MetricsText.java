package dev.millpond.testsupport;

import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a sample out of Prometheus's text exposition (what {@code /metrics} serves). Apart from {@link AppProcess} so a
 * test of the registry alone reads its scrape without depending on the packaged-app helper (and its lane).
 */
public final class MetricsText {

    private MetricsText() {
    }

    /**
     * Sum of a metric's samples whose label set contains every given {@code name="value"} pair; empty when the series
     * does not exist.
     */
    public static OptionalDouble metric(String exposition, String name, String... labelPairs) {
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "(\\{[^}]*\\})?\\s+(\\S+)", Pattern.MULTILINE);
        Matcher m = line.matcher(exposition);
        double sum = 0;
        boolean found = false;
        while (m.find()) {
            String labels = m.group(1) == null ? "" : m.group(1);
            boolean all = true;
            for (int i = 0; i + 1 < labelPairs.length; i += 2) {
                if (!labels.contains(labelPairs[i] + "=\"" + labelPairs[i + 1] + "\"")) {
                    all = false;
                    break;
                }
            }
            if (all) {
                sum += Double.parseDouble(m.group(2));
                found = true;
            }
        }
        return found ? OptionalDouble.of(sum) : OptionalDouble.empty();
    }
}
