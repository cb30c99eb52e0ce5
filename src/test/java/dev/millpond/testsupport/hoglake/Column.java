package dev.millpond.testsupport.hoglake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** One node of a table's column tree, with the server's field id and ordinal. Mutable: owned by its table. */
final class Column {
    static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]{0,127}");
    static final Set<String> TYPES = Set.of("boolean", "int8", "int16", "int", "long", "uint8", "uint16", "uint32",
            "uint64", "float", "double", "decimal", "date", "time", "timestamp_s", "timestamp_ms", "timestamp",
            "timestamp_ns", "timestamptz", "string", "json", "uuid", "binary", "variant", "list", "struct", "map");
    static final Set<String> REFUSED = Set.of("int128", "uint128", "timetz", "interval", "point", "linestring",
            "polygon", "multipoint", "multilinestring", "multipolygon", "linestring_z", "geometrycollection");
    static final Set<String> CONTAINERS = Set.of("list", "struct", "map");
    static final int MAX_DEPTH = 8;

    String name;
    String type;
    JsonNode typeParams;
    boolean nullable;
    long fieldId;
    int ordinal;
    final List<Column> children = new ArrayList<>();

    boolean isContainer() {
        return CONTAINERS.contains(type);
    }

    /**
     * Validates a ColumnDef (already shape-checked) and builds the node, without ids. {@code depth} counts from 1 at
     * the graft point's level; {@code path} names the node in messages.
     */
    static Column define(JsonNode def, int depth, String path) {
        Column c = new Column();
        c.name = def.get("name").asText();
        c.type = def.get("type").asText();
        String where = path.isEmpty() ? c.name : path + "." + c.name;
        if (!IDENTIFIER.matcher(c.name).matches()) {
            throw ApiError.validation("invalid column name '" + where + "'");
        }
        if (c.name.startsWith("_hog")) {
            throw ApiError.validation("column name '" + where + "' uses the reserved _hog prefix");
        }
        if (REFUSED.contains(c.type)) {
            throw ApiError.validation("column '" + where + "' type " + c.type
                    + " is permanently unsupported: it has no Iceberg mapping");
        }
        if (!TYPES.contains(c.type)) {
            throw ApiError.validation("column '" + where + "' has unknown type '" + c.type + "'");
        }
        if (depth > MAX_DEPTH) {
            throw ApiError.validation("column '" + where + "' nests deeper than " + MAX_DEPTH);
        }
        c.nullable = !def.has("nullable") || def.get("nullable").asBoolean();
        c.typeParams = def.get("type_params");
        if (c.typeParams != null && !c.type.equals("decimal")) {
            throw ApiError.validation("column '" + where + "': type_params are for decimal only");
        }
        if (c.type.equals("decimal")) {
            if (c.typeParams == null || !c.typeParams.path("precision").canConvertToInt()
                    || !c.typeParams.path("scale").canConvertToInt()) {
                throw ApiError.validation("column '" + where + "': decimal needs type_params {precision, scale}");
            }
        }
        JsonNode children = def.get("children");
        if (!c.isContainer()) {
            if (children != null) {
                throw ApiError.validation("column '" + where + "': a scalar has no children");
            }
            return c;
        }
        if (children == null) {
            throw ApiError.validation("column '" + where + "': " + c.type + " needs children");
        }
        Set<String> names = new HashSet<>();
        for (JsonNode child : children) {
            Column cc = define(child, depth + 1, where);
            if (!names.add(cc.name)) {
                throw ApiError.validation("duplicate column name '" + where + "." + cc.name + "'");
            }
            cc.ordinal = c.children.size();
            c.children.add(cc);
        }
        switch (c.type) {
            case "list" -> {
                if (c.children.size() != 1 || !c.children.get(0).name.equals("element")) {
                    throw ApiError.validation("column '" + where + "': a list has exactly one child named element");
                }
            }
            case "map" -> {
                if (c.children.size() != 2 || !c.children.get(0).name.equals("key")
                        || !c.children.get(1).name.equals("value")) {
                    throw ApiError.validation("column '" + where + "': a map has children key then value");
                }
                if (c.children.get(0).nullable) {
                    throw ApiError.validation("column '" + where + "': a map key must be nullable:false");
                }
            }
            default -> {
                if (c.children.isEmpty()) {
                    throw ApiError.validation("column '" + where + "': a struct has at least one child");
                }
            }
        }
        return c;
    }

    /** Parent before children, a whole subtree before the next sibling. */
    void assignIds(long[] next) {
        fieldId = next[0]++;
        for (Column child : children) {
            child.assignIds(next);
        }
    }

    int nodeCount() {
        int n = 1;
        for (Column child : children) {
            n += child.nodeCount();
        }
        return n;
    }

    int depth() {
        int d = 0;
        for (Column child : children) {
            d = Math.max(d, child.depth());
        }
        return d + 1;
    }

    ObjectNode json() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("name", name);
        n.put("type", type);
        if (typeParams != null) {
            n.set("type_params", typeParams);
        }
        n.put("nullable", nullable);
        n.put("field_id", fieldId);
        n.put("ordinal", ordinal);
        if (isContainer()) {
            children.forEach(c -> n.withArray("children").add(c.json()));
        }
        return n;
    }
}
