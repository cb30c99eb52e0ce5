package dev.millpond.testsupport.hoglake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** One incarnation of a table: its uuid, column tree, specs and registered files. Guarded by its catalog's lock. */
final class Table {
    static final Set<String> BUCKETABLE = Set.of("int8", "int16", "int", "long", "uint8", "uint16", "decimal", "date",
            "time", "timestamp", "timestamptz", "string", "uuid", "binary");
    static final Set<String> TEMPORAL = Set.of("date", "timestamp_s", "timestamp_ms", "timestamp", "timestamp_ns",
            "timestamptz");
    static final Map<String, Set<String>> PROMOTIONS = Map.of(
            "int8", Set.of("int16", "int", "long"),
            "int16", Set.of("int", "long"),
            "int", Set.of("long"),
            "uint8", Set.of("uint16", "uint32"),
            "uint16", Set.of("uint32"),
            "float", Set.of("double"));

    final String namespace;
    String name;
    final UUID uuid = UUID.randomUUID();
    final List<Column> columns = new ArrayList<>();
    long nextFieldId = 1;
    /** {@code {spec_id, fields}}, or null when unpartitioned. */
    ObjectNode partitionSpec;
    int maxSpecId;
    /** {@code {sort_id, fields}}, or null when unsorted. */
    ObjectNode sortSpec;
    int maxSortId;
    final List<ObjectNode> files = new ArrayList<>();
    long recordCount;
    long fileSizeBytes;

    Table(String namespace, String name) {
        this.namespace = namespace;
        this.name = name;
    }

    String qualified() {
        return namespace + "." + name;
    }

    /** A dotted path to a node, or null. */
    Column find(String path) {
        List<Column> level = columns;
        Column found = null;
        for (String part : path.split("\\.", -1)) {
            found = null;
            for (Column c : level) {
                if (c.name.equals(part)) {
                    found = c;
                }
            }
            if (found == null) {
                return null;
            }
            level = found.children;
        }
        return found;
    }

    /** The node with this id and whether a list or map sits above it; null when absent. */
    record Located(Column column, boolean underListOrMap, int depth) {
    }

    Located locate(long fieldId) {
        return locate(columns, fieldId, false, 1);
    }

    private static Located locate(List<Column> level, long fieldId, boolean under, int depth) {
        for (Column c : level) {
            if (c.fieldId == fieldId) {
                return new Located(c, under, depth);
            }
            Located inner = locate(c.children, fieldId, under || c.type.equals("list") || c.type.equals("map"),
                    depth + 1);
            if (inner != null) {
                return inner;
            }
        }
        return null;
    }

    int nodeCount() {
        return columns.stream().mapToInt(Column::nodeCount).sum();
    }

    int partitionArity() {
        return partitionSpec == null ? 0 : partitionSpec.get("fields").size();
    }

    ObjectNode json(long head, boolean totals, Long snapshotId) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("name", name);
        n.put("namespace", namespace);
        n.put("table_uuid", uuid.toString());
        ArrayNode cols = n.putArray("columns");
        columns.forEach(c -> cols.add(c.json()));
        if (totals) {
            n.put("record_count", recordCount);
            n.put("file_count", files.size());
            n.put("file_size_bytes", fileSizeBytes);
        }
        if (partitionSpec != null) {
            n.set("partition_spec", partitionSpec);
        }
        if (sortSpec != null) {
            n.set("sort_spec", sortSpec);
        }
        n.put("read_snapshot_id", head);
        if (snapshotId != null) {
            n.put("snapshot_id", snapshotId);
        }
        return n;
    }

    // ---- alter ops: each validates against the shape the earlier ops produced ----

    void addColumn(JsonNode op) {
        String parentPath = Shape.string(op, "parent");
        List<Column> siblings = columns;
        int depth = 1;
        String path = "";
        if (parentPath != null) {
            Column parent = find(parentPath);
            if (parent == null) {
                throw ApiError.validation("parent column '" + parentPath + "' does not exist");
            }
            if (!parent.type.equals("struct")) {
                throw ApiError.validation("parent column '" + parentPath + "' is a " + parent.type
                        + ", not a struct");
            }
            siblings = parent.children;
            depth = parentPath.split("\\.").length + 1;
            path = parentPath;
        }
        Column c = Column.define(op.get("column"), depth, path);
        for (Column s : siblings) {
            if (s.name.equals(c.name)) {
                throw ApiError.validation("column '" + (path.isEmpty() ? "" : path + ".") + c.name
                        + "' already exists");
            }
        }
        if (nodeCount() + c.nodeCount() > 10_000) {
            throw ApiError.validation("a table has at most 10000 column nodes");
        }
        c.ordinal = siblings.stream().mapToInt(s -> s.ordinal + 1).max().orElse(0);
        long[] next = {nextFieldId};
        c.assignIds(next);
        nextFieldId = next[0];
        siblings.add(c);
    }

    void dropColumn(JsonNode op) {
        String path = Shape.string(op, "name");
        Column c = find(path);
        if (c == null) {
            throw ApiError.validation("column '" + path + "' does not exist");
        }
        if (usedBySpec(c)) {
            throw ApiError.validation("column '" + path + "' is a partition or sort source");
        }
        if (!path.contains(".")) {
            if (columns.size() == 1) {
                throw ApiError.validation("cannot drop the last column");
            }
            columns.remove(c);
        } else {
            Column parent = find(path.substring(0, path.lastIndexOf('.')));
            if (!parent.type.equals("struct") || parent.children.size() == 1) {
                throw ApiError.validation("cannot drop '" + path + "'");
            }
            parent.children.remove(c);
        }
    }

    private boolean usedBySpec(Column c) {
        List<Long> ids = new ArrayList<>();
        collectIds(c, ids);
        for (ObjectNode spec : new ObjectNode[] {partitionSpec, sortSpec}) {
            if (spec != null) {
                for (JsonNode f : spec.get("fields")) {
                    if (ids.contains(f.get("source_field_id").asLong())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static void collectIds(Column c, List<Long> out) {
        out.add(c.fieldId);
        c.children.forEach(ch -> collectIds(ch, out));
    }

    void promoteColumn(JsonNode op) {
        String path = Shape.string(op, "name");
        String to = Shape.string(op, "to");
        Column c = find(path);
        if (c == null) {
            throw ApiError.validation("column '" + path + "' does not exist");
        }
        if (!PROMOTIONS.getOrDefault(c.type, Set.of()).contains(to)) {
            throw ApiError.validation("cannot promote column '" + path + "' from " + c.type + " to " + to);
        }
        c.type = to;
    }

    void setPartitionSpec(JsonNode op) {
        JsonNode fields = op.get("fields");
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (JsonNode f : fields) {
            Shape.object(f, "PartitionField", Set.of("source_field_id", "transform"), Set.of("transform_param"));
            long source = Shape.int64(f, "source_field_id");
            String transform = Shape.string(f, "transform");
            Long param = Shape.int64(f, "transform_param");
            Column c = leafSource(source);
            switch (transform) {
                case "bucket" -> {
                    if (param == null || param < 1) {
                        throw ApiError.validation("bucket needs transform_param >= 1");
                    }
                    if (!BUCKETABLE.contains(c.type)) {
                        throw ApiError.validation("bucket is not defined on type " + c.type + " (field "
                                + source + ")");
                    }
                }
                case "identity", "year", "month", "day", "hour" -> {
                    if (param != null) {
                        throw ApiError.validation(transform + " takes no transform_param");
                    }
                    if (!transform.equals("identity") && !TEMPORAL.contains(c.type)) {
                        throw ApiError.validation(transform + " needs a date or timestamp source, field " + source
                                + " is " + c.type);
                    }
                }
                default -> throw ApiError.validation("unknown transform '" + transform + "'");
            }
            ObjectNode stored = out.addObject();
            stored.put("source_field_id", source);
            stored.put("transform", transform);
            if (param != null) {
                stored.put("transform_param", param);
            }
        }
        if (out.isEmpty()) {
            partitionSpec = null;
            return;
        }
        ObjectNode spec = JsonNodeFactory.instance.objectNode();
        spec.put("spec_id", ++maxSpecId);
        spec.set("fields", out);
        partitionSpec = spec;
    }

    void setSortOrder(JsonNode op) {
        JsonNode fields = op.get("sort_fields");
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        List<Long> seen = new ArrayList<>();
        for (JsonNode f : fields) {
            Shape.object(f, "SortField", Set.of("source_field_id", "direction", "null_order"), Set.of());
            long source = Shape.int64(f, "source_field_id");
            String direction = Shape.string(f, "direction");
            String nullOrder = Shape.string(f, "null_order");
            leafSource(source);
            if (!direction.equals("asc") && !direction.equals("desc")) {
                throw ApiError.validation("unknown direction '" + direction + "'");
            }
            if (!nullOrder.equals("nulls_first") && !nullOrder.equals("nulls_last")) {
                throw ApiError.validation("unknown null_order '" + nullOrder + "'");
            }
            if (seen.contains(source)) {
                throw ApiError.validation("duplicate sort source " + source);
            }
            seen.add(source);
            out.addObject().put("source_field_id", source).put("direction", direction).put("null_order", nullOrder);
        }
        if (out.isEmpty()) {
            sortSpec = null;
            return;
        }
        ObjectNode spec = JsonNodeFactory.instance.objectNode();
        spec.put("sort_id", ++maxSortId);
        spec.set("fields", out);
        sortSpec = spec;
    }

    private Column leafSource(long fieldId) {
        Located l = locate(fieldId);
        if (l == null) {
            throw ApiError.validation("unknown field id " + fieldId);
        }
        if (l.column().isContainer()) {
            throw ApiError.validation("field " + fieldId + " is a container, not a leaf");
        }
        if (l.underListOrMap()) {
            throw ApiError.validation("field " + fieldId + " sits below a list or map");
        }
        return l.column();
    }
}
