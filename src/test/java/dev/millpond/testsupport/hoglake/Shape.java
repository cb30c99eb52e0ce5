package dev.millpond.testsupport.hoglake;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.Set;
import java.util.UUID;

/**
 * Syntax checks of request bodies: every one of them is a 400 {@code bad_request}, as the server's strict binding
 * answers (unknown field, missing required field, wrong JSON type). Meaning is checked elsewhere and answers 422.
 */
final class Shape {
    private Shape() {
    }

    static JsonNode object(JsonNode n, String what, Set<String> required, Set<String> optional) {
        if (n == null || !n.isObject()) {
            throw ApiError.badRequest(what + " must be a JSON object");
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!required.contains(f) && !optional.contains(f)) {
                throw ApiError.badRequest("unknown field '" + f + "' in " + what);
            }
        }
        for (String f : required) {
            if (!n.has(f) || n.get(f).isNull()) {
                throw ApiError.badRequest("missing required field '" + f + "' in " + what);
            }
        }
        return n;
    }

    static String string(JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw ApiError.badRequest("field '" + field + "' must be a string");
        }
        return v.asText();
    }

    static Long int64(JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw ApiError.badRequest("field '" + field + "' must be an int64");
        }
        return v.asLong();
    }

    static Boolean bool(JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isBoolean()) {
            throw ApiError.badRequest("field '" + field + "' must be a boolean");
        }
        return v.asBoolean();
    }

    static JsonNode array(JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isArray()) {
            throw ApiError.badRequest("field '" + field + "' must be an array");
        }
        return v;
    }

    static UUID uuid(JsonNode obj, String field) {
        String s = string(obj, field);
        if (s == null) {
            return null;
        }
        try {
            UUID u = UUID.fromString(s);
            if (!u.toString().equals(s.toLowerCase(java.util.Locale.ROOT))) {
                throw new IllegalArgumentException();
            }
            return u;
        } catch (IllegalArgumentException e) {
            throw ApiError.badRequest("field '" + field + "' must be a UUID");
        }
    }

    /** A ColumnDef, recursively: shape only. */
    static void columnDef(JsonNode def) {
        object(def, "ColumnDef", Set.of("name", "type"), Set.of("type_params", "nullable", "children", "comment"));
        string(def, "name");
        string(def, "type");
        bool(def, "nullable");
        JsonNode tp = def.get("type_params");
        if (tp != null && !tp.isNull()) {
            object(tp, "type_params", Set.of(), Set.of("precision", "scale"));
            int64(tp, "precision");
            int64(tp, "scale");
        }
        JsonNode children = array(def, "children");
        if (children != null) {
            children.forEach(Shape::columnDef);
        }
    }
}
