package dev.millpond.testsupport.hoglake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * One catalog's state, in memory: dense snapshot ids from 0, namespaces, live and dropped tables, the change log the
 * DDL-since scan reads, and the idempotency receipts. Every mutation holds this object's monitor (the catalog lock).
 */
final class Catalog {
    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,62}");
    private static final long MAX_RECORD_COUNT = 1L << 48;

    final String name;
    final String dataPath;
    long head;
    long schemaVersion;
    final Map<String, Long> namespaces = new LinkedHashMap<>();
    final Map<String, Table> tables = new LinkedHashMap<>();
    /** Qualified name of a dropped table → the snapshot that dropped it. */
    final Map<String, Long> dropped = new HashMap<>();
    /** {@code table_altered} / {@code table_dropped} changes: snapshot id and qualified table. */
    final List<Map.Entry<Long, String>> ddlChanges = new ArrayList<>();
    final Map<UUID, Receipt> receipts = new HashMap<>();

    record Receipt(String canonicalRequest, ObjectNode result) {
    }

    Catalog(String name, String dataPath) {
        this.name = name;
        this.dataPath = dataPath;
    }

    ObjectNode json() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("name", name);
        n.put("data_path", dataPath);
        n.put("head_snapshot_id", head);
        n.put("schema_version", schemaVersion);
        n.put("table_count", tables.size());
        return n;
    }

    private long ddlSnapshot() {
        head++;
        schemaVersion++;
        return head;
    }

    synchronized ObjectNode createNamespace(String ns) {
        if (!Column.IDENTIFIER.matcher(ns).matches()) {
            throw ApiError.validation("invalid namespace name '" + ns + "'");
        }
        if (namespaces.containsKey(ns)) {
            throw ApiError.alreadyExists("namespace " + ns + " already exists");
        }
        namespaces.put(ns, (long) namespaces.size() + 1);
        ddlSnapshot();
        return namespaceJson(ns);
    }

    ObjectNode namespaceJson(String ns) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("name", ns);
        n.put("namespace_id", namespaces.get(ns));
        return n;
    }

    synchronized Table table(String ns, String t) {
        requireNamespace(ns);
        Table table = tables.get(ns + "." + t);
        if (table == null) {
            throw ApiError.notFound("table " + ns + "." + t + " not found");
        }
        return table;
    }

    private void requireNamespace(String ns) {
        if (!namespaces.containsKey(ns)) {
            throw ApiError.notFound("namespace " + ns + " not found");
        }
    }

    synchronized ObjectNode createTable(String ns, JsonNode body) {
        requireNamespace(ns);
        String tableName = Shape.string(body, "name");
        if (!Column.IDENTIFIER.matcher(tableName).matches()) {
            throw ApiError.validation("invalid table name '" + tableName + "'");
        }
        if (tables.containsKey(ns + "." + tableName)) {
            throw ApiError.alreadyExists("table " + ns + "." + tableName + " already exists");
        }
        JsonNode defs = body.get("columns");
        if (defs.isEmpty()) {
            throw ApiError.validation("a table needs at least one column");
        }
        Table table = new Table(ns, tableName);
        Set<String> names = new HashSet<>();
        for (JsonNode def : defs) {
            Column c = Column.define(def, 1, "");
            if (!names.add(c.name)) {
                throw ApiError.validation("duplicate column name '" + c.name + "'");
            }
            c.ordinal = table.columns.size();
            table.columns.add(c);
        }
        if (table.nodeCount() > 10_000) {
            throw ApiError.validation("a table has at most 10000 column nodes");
        }
        long[] next = {1};
        table.columns.forEach(c -> c.assignIds(next));
        table.nextFieldId = next[0];
        tables.put(table.qualified(), table);
        dropped.remove(table.qualified());
        long snapshot = ddlSnapshot();
        return table.json(head, true, snapshot);
    }

    /** All ops apply to a working copy first, so a refused op leaves the table as it was (one atomic DDL). */
    synchronized ObjectNode alter(String ns, String t, JsonNode ops) {
        Table live = table(ns, t);
        Table work = TableCopy.of(live);
        for (JsonNode op : ops) {
            switch (op.get("op").asText()) {
                case "add_column" -> work.addColumn(op);
                case "drop_column" -> work.dropColumn(op);
                case "promote_column" -> work.promoteColumn(op);
                case "set_partition_spec" -> work.setPartitionSpec(op);
                case "set_sort_order" -> work.setSortOrder(op);
                default -> throw ApiError.badRequest("unknown op '" + op.get("op").asText() + "'");
            }
        }
        TableCopy.apply(work, live);
        long snapshot = ddlSnapshot();
        ddlChanges.add(Map.entry(snapshot, live.qualified()));
        return live.json(head, true, snapshot);
    }

    synchronized void dropTable(String ns, String t) {
        Table table = table(ns, t);
        tables.remove(table.qualified());
        long snapshot = ddlSnapshot();
        dropped.put(table.qualified(), snapshot);
        ddlChanges.add(Map.entry(snapshot, table.qualified()));
    }

    /**
     * A commit, in the new server's order of checks after the catalog lookup and the lock: the receipt, the paths,
     * the request as a whole, the tables and their incarnations, the read snapshot, each file; then one snapshot and
     * the receipt in the same step.
     */
    synchronized ObjectNode commit(JsonNode body, UUID key, boolean prepared) {
        String canonical = key == null ? null : Canonical.commitRequest(body);
        if (key != null) {
            Receipt receipt = receipts.get(key);
            if (receipt != null) {
                if (receipt.canonicalRequest().equals(canonical)) {
                    return receipt.result();
                }
                throw ApiError.validation("idempotency_key reused with a different request");
            }
        }
        if (prepared && key == null) {
            throw ApiError.validation("idempotency_key is required");
        }
        checkPaths(body);
        JsonNode appends = body.get("appends");
        if (appends == null || appends.isEmpty()) {
            throw ApiError.validation("commit has no appends or deletes");
        }
        Long readSnapshot = Shape.int64(body, "read_snapshot");
        if (readSnapshot != null && readSnapshot < 0) {
            throw ApiError.validation("read_snapshot must not be negative");
        }
        Map<Table, List<JsonNode>> filesByTable = new LinkedHashMap<>();
        for (JsonNode append : appends) {
            String ns = append.get("namespace").asText();
            String t = append.get("table").asText();
            String qualified = ns + "." + t;
            Table table = tables.get(qualified);
            if (table == null || !namespaces.containsKey(ns)) {
                Long droppedAt = dropped.get(qualified);
                if (droppedAt != null) {
                    throw ApiError.tableDropped(qualified, droppedAt);
                }
                throw ApiError.validation("unknown table " + qualified);
            }
            UUID expected = Shape.uuid(append, "expected_table_uuid");
            if (expected != null && !expected.equals(table.uuid)) {
                throw ApiError.tableRecreated(qualified, expected.toString(), table.uuid.toString());
            }
            List<JsonNode> files = filesByTable.computeIfAbsent(table, x -> new ArrayList<>());
            append.get("files").forEach(files::add);
        }
        if (readSnapshot != null) {
            if (readSnapshot > head) {
                throw ApiError.validation("read_snapshot " + readSnapshot + " is ahead of head " + head);
            }
            List<String> changed = new ArrayList<>();
            for (Map.Entry<Long, String> change : ddlChanges) {
                boolean touched = filesByTable.keySet().stream().anyMatch(tb -> tb.qualified().equals(change.getValue()));
                if (change.getKey() > readSnapshot && touched && !changed.contains(change.getValue())) {
                    changed.add(change.getValue());
                }
            }
            if (!changed.isEmpty()) {
                throw ApiError.ddlSinceReadSnapshot(changed, readSnapshot);
            }
        }
        Map<Table, List<ObjectNode>> stored = new LinkedHashMap<>();
        filesByTable.forEach((table, files) -> {
            if (files.isEmpty()) {
                throw ApiError.validation("append to " + table.qualified() + " has no files");
            }
            List<ObjectNode> out = new ArrayList<>();
            for (JsonNode f : files) {
                out.add(validatedFile(table, f));
            }
            stored.put(table, out);
        });
        head++;
        long snapshot = head;
        stored.forEach((table, files) -> files.forEach(f -> {
            f.put("snapshot_id", snapshot);
            table.files.add(f);
            table.recordCount += f.get("record_count").asLong();
            table.fileSizeBytes += f.get("file_size_bytes").asLong();
        }));
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        result.put("snapshot_id", snapshot);
        result.put("schema_version", schemaVersion);
        if (key != null) {
            receipts.put(key, new Receipt(canonical, result));
        }
        return result;
    }

    void checkPaths(JsonNode body) {
        String prefix = dataPath.endsWith("/") ? dataPath : dataPath + "/";
        for (JsonNode append : body.path("appends")) {
            for (JsonNode f : append.path("files")) {
                String path = f.get("path").asText();
                if (!path.startsWith(prefix) || path.chars().anyMatch(ch -> Character.isWhitespace(ch)
                        || Character.isISOControl(ch))) {
                    throw ApiError.validation("path " + path + " is outside the catalog data_path " + dataPath);
                }
                for (String segment : path.substring(prefix.length()).split("/", -1)) {
                    if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                        throw ApiError.validation("path " + path + " has an empty, . or .. segment");
                    }
                }
            }
        }
    }

    private static ObjectNode validatedFile(Table table, JsonNode f) {
        long records = f.get("record_count").asLong();
        long size = f.get("file_size_bytes").asLong();
        if (records < 0 || records > MAX_RECORD_COUNT) {
            throw ApiError.validation("invalid record_count " + records);
        }
        if (size < 0) {
            throw ApiError.validation("invalid file_size_bytes " + size);
        }
        Long footer = Shape.int64(f, "footer_size");
        if (footer != null && (footer < 0 || footer > size - 8)) {
            throw ApiError.validation("invalid footer_size");
        }
        JsonNode partitionValues = f.get("partition_values");
        int arity = table.partitionArity();
        if (arity == 0 && partitionValues != null && !partitionValues.isNull()) {
            throw ApiError.validation("partition_values given for unpartitioned table " + table.qualified());
        }
        if (arity > 0 && (partitionValues == null || partitionValues.size() != arity)) {
            throw ApiError.validation("partition arity differs: " + table.qualified() + " has " + arity
                    + " partition fields");
        }
        ObjectNode stored = f.deepCopy();
        JsonNode stats = f.get("column_stats");
        stored.put("stats_state", stats == null ? "pending" : "provided");
        if (stats != null) {
            Set<Long> seen = new HashSet<>();
            ArrayNode cleaned = JsonNodeFactory.instance.arrayNode();
            for (JsonNode s : stats) {
                long id = s.get("field_id").asLong();
                Table.Located located = table.locate(id);
                if (located == null) {
                    throw ApiError.validation("column_stats for unknown field id " + id);
                }
                if (located.column().isContainer() || located.column().type.equals("variant")) {
                    throw ApiError.validation("column_stats for " + located.column().type + " field id " + id);
                }
                if (!seen.add(id)) {
                    throw ApiError.validation("column_stats repeat field id " + id);
                }
                if (s.get("value_count").asLong() < 0 || s.get("null_count").asLong() < 0
                        || s.path("nan_count").asLong(0) < 0 || s.path("size_bytes").asLong(0) < 0) {
                    throw ApiError.validation("negative count in column_stats for field id " + id);
                }
                cleaned.add(sanitized((ObjectNode) s.deepCopy(), located.column().type));
            }
            stored.set("column_stats", cleaned);
        }
        return stored;
    }

    /** Repairs rather than refuses: clamps counts, drops undecodable/NaN/inverted bounds, canonicalizes signed zeros. */
    static ObjectNode sanitized(ObjectNode s, String type) {
        long values = s.get("value_count").asLong();
        long nulls = Math.min(s.get("null_count").asLong(), values);
        s.put("null_count", nulls);
        boolean floating = type.equals("float") || type.equals("double");
        if (!floating) {
            s.remove("nan_count");
        }
        if (values - nulls == 0) {
            s.remove("lower_bound");
            s.remove("upper_bound");
            return s;
        }
        if (floating) {
            int width = type.equals("float") ? 4 : 8;
            Double lower = decodeFloating(s, "lower_bound", width);
            Double upper = decodeFloating(s, "upper_bound", width);
            if (lower != null && upper != null && Double.compare(lower, upper) > 0 && !(lower == 0.0 && upper == 0.0)) {
                s.remove("lower_bound");
                s.remove("upper_bound");
                return s;
            }
            if (lower != null && lower == 0.0) {
                s.put("lower_bound", encodeFloating(-0.0, width));
            }
            if (upper != null && upper == 0.0) {
                s.put("upper_bound", encodeFloating(0.0, width));
            }
        }
        return s;
    }

    private static Double decodeFloating(ObjectNode s, String field, int width) {
        if (!s.hasNonNull(field)) {
            return null;
        }
        byte[] b = Base64.getDecoder().decode(s.get(field).asText());
        if (b.length != width) {
            s.remove(field);
            return null;
        }
        ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        double v = width == 4 ? buf.getFloat() : buf.getDouble();
        if (Double.isNaN(v)) {
            s.remove(field);
            return null;
        }
        return v;
    }

    private static String encodeFloating(double v, int width) {
        ByteBuffer buf = ByteBuffer.allocate(width).order(ByteOrder.LITTLE_ENDIAN);
        if (width == 4) {
            buf.putFloat((float) v);
        } else {
            buf.putDouble(v);
        }
        return Base64.getEncoder().encodeToString(buf.array());
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(name);
    }
}
