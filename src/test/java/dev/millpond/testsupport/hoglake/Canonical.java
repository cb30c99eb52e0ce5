package dev.millpond.testsupport.hoglake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;

/**
 * The canonical form two commit requests are compared in under one idempotency key: column stats sorted by field id
 * within each file, the files of each append and the appends themselves sorted by their JSON, partition values kept in
 * order, and every other field (read_snapshot, author, message, expected_table_uuid) included.
 */
final class Canonical {
    private Canonical() {
    }

    static String commitRequest(JsonNode body) {
        ObjectNode copy = body.deepCopy();
        copy.remove("idempotency_key");
        JsonNode appends = copy.get("appends");
        if (appends instanceof ArrayNode appendArray) {
            List<String> sortedAppends = new ArrayList<>();
            for (JsonNode append : appendArray) {
                ObjectNode a = (ObjectNode) append;
                List<String> files = new ArrayList<>();
                for (JsonNode f : a.path("files")) {
                    ObjectNode file = (ObjectNode) f;
                    if (file.get("column_stats") instanceof ArrayNode stats) {
                        List<JsonNode> sorted = new ArrayList<>();
                        stats.forEach(sorted::add);
                        sorted.sort(Comparator.comparingLong(s -> s.path("field_id").asLong()));
                        ArrayNode out = JsonNodeFactory.instance.arrayNode();
                        sorted.forEach(out::add);
                        file.set("column_stats", out);
                    }
                    files.add(text(file));
                }
                files.sort(null);
                a.remove("files");
                appendsTextWithFiles(sortedAppends, a, files);
            }
            sortedAppends.sort(null);
            copy.remove("appends");
            return text(copy) + "|appends=" + String.join(",", sortedAppends);
        }
        return text(copy);
    }

    private static void appendsTextWithFiles(List<String> out, ObjectNode append, List<String> files) {
        out.add(text(append) + "|files=[" + String.join(",", files) + "]");
    }

    /** JSON text with object keys sorted at every depth; arrays keep their order. */
    static String text(JsonNode n) {
        if (n.isObject()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!n.get(k).isNull()) {
                    sorted.put(k, n.get(k));
                }
            }
            StringBuilder b = new StringBuilder("{");
            sorted.forEach((k, v) -> b.append(b.length() > 1 ? "," : "").append('"').append(k).append("\":")
                    .append(text(v)));
            return b.append('}').toString();
        }
        if (n.isArray()) {
            StringBuilder b = new StringBuilder("[");
            for (JsonNode e : n) {
                b.append(b.length() > 1 ? "," : "").append(text(e));
            }
            return b.append(']').toString();
        }
        return n.toString();
    }
}
