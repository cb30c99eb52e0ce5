package dev.millpond.maintenance.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The queries one exporter runs: the built-ins, overridden or extended by a YAML file (a user query wins over the
 * built-in of the same name), minus the disabled names. The file's shape:
 * <pre>
 * queries:
 *   - name: events_rows            # gauges ducklake_events_rows_&lt;value column&gt;
 *     sql: SELECT count(*) AS count FROM lake.main.events
 *     interval_seconds: 300        # optional, default 300
 *     labels: [team]               # optional: label columns; every other column is a value
 * </pre>
 */
public final class QueryCatalog {

    private QueryCatalog() {
    }

    public static List<CatalogQuery> resolve(List<CatalogQuery> builtins, List<CatalogQuery> user, Set<String> disabled) {
        Map<String, CatalogQuery> byName = new LinkedHashMap<>();
        builtins.forEach(q -> byName.put(q.name(), q));
        user.forEach(q -> byName.put(q.name(), q));
        disabled.forEach(byName::remove);
        return List.copyOf(byName.values());
    }

    public static List<CatalogQuery> load(Path file) throws IOException {
        JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
        List<CatalogQuery> queries = new ArrayList<>();
        if (root == null || root.path("queries").isMissingNode()) {
            return queries;
        }
        if (!root.path("queries").isArray()) {
            throw new IOException(file + ": 'queries' must be a list");
        }
        for (JsonNode q : root.path("queries")) {
            List<String> labels = new ArrayList<>();
            q.path("labels").forEach(l -> labels.add(l.asText()));
            try {
                queries.add(new CatalogQuery(q.path("name").asText(""), q.path("sql").asText(""),
                        Duration.ofSeconds(q.path("interval_seconds").asLong(300)), labels));
            } catch (IllegalArgumentException e) {
                throw new IOException(file + ": " + e.getMessage(), e);
            }
        }
        return queries;
    }
}
