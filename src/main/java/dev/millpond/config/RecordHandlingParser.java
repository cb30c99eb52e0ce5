package dev.millpond.config;

import dev.millpond.vocabulary.UuidText;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The record-handling group: MILLPOND_TYPED_COLUMNS, the keep and drop filters and MILLPOND_SORT_BY.
 * Every message names the variable at fault.
 */
final class RecordHandlingParser {

    private RecordHandlingParser() {
    }

    static RecordHandlingConfig parse(Env env) {
        Map<String, PinnedType> typed = typedColumns(env.raw("MILLPOND_TYPED_COLUMNS"));
        Optional<FilterSpec> keep = filter(env, "MILLPOND_FILTER_KEEP_FIELD_NAME", "MILLPOND_FILTER_VALUES", typed);
        Optional<FilterSpec> drop = filter(env, "MILLPOND_FILTER_DROP_FIELD_NAME", "MILLPOND_FILTER_DROP_VALUES", typed);
        List<String> sortBy = identifierList("MILLPOND_SORT_BY", env.raw("MILLPOND_SORT_BY"));
        return new RecordHandlingConfig(typed, keep, drop, sortBy);
    }

    /** {@code col:type,…}: a missing {@code :} fails; same-type duplicates merge, conflicting ones fail. */
    static Map<String, PinnedType> typedColumns(String raw) {
        Map<String, PinnedType> out = new LinkedHashMap<>();
        for (String entry : tokens(raw)) {
            int colon = entry.indexOf(':');
            if (colon < 0) {
                throw new ConfigException("MILLPOND_TYPED_COLUMNS entry '" + entry + "' must be column:type");
            }
            String column = SafeIdentifier.require("MILLPOND_TYPED_COLUMNS", entry.substring(0, colon).strip());
            String typeName = entry.substring(colon + 1).strip();
            PinnedType type = PinnedType.fromWireName(typeName);
            if (type == null) {
                throw new ConfigException("MILLPOND_TYPED_COLUMNS type '" + typeName + "' for column '" + column
                        + "' is not one of timestamptz, bigint, double, boolean, varchar, uuid");
            }
            PinnedType previous = out.putIfAbsent(column, type);
            if (previous != null && previous != type) {
                throw new ConfigException("MILLPOND_TYPED_COLUMNS maps '" + column + "' to both "
                        + previous.wireName() + " and " + type.wireName());
            }
        }
        return out;
    }

    /**
     * A field paired with its own values variable. A whitespace-only field counts as unset; values without a
     * field are ignored, as in the original (the field is what enables the stage).
     */
    static Optional<FilterSpec> filter(Env env, String fieldVariable, String valuesVariable,
                                       Map<String, PinnedType> typed) {
        String rawField = env.raw(fieldVariable);
        if (rawField == null || rawField.isBlank()) {
            return Optional.empty();
        }
        String field = SafeIdentifier.require(fieldVariable, rawField.strip());
        List<String> tokens = tokens(env.raw(valuesVariable));
        if (tokens.isEmpty()) {
            throw new ConfigException(valuesVariable + " must list at least one value when " + fieldVariable
                    + " is set");
        }
        FilterValues values = detect(valuesVariable, tokens);
        if (typed.get(field) == PinnedType.UUID) {
            requireUuids(valuesVariable, field, values);
        }
        return Optional.of(new FilterSpec(field, values));
    }

    /**
     * Ints when every token is an integer as Python's {@code int()} reads it ({@code -3}, {@code +4}, {@code 1_000}),
     * otherwise all strings; de-duplicated, first occurrence wins. The one rule for both filter lists, and so for the
     * dynamic allowlist's static pins too.
     */
    static FilterValues detect(String variable, List<String> tokens) {
        List<String> distinct = List.copyOf(new LinkedHashSet<>(tokens));
        if (!distinct.stream().allMatch(PythonInt::isLiteral)) {
            return new FilterValues.Strings(distinct);
        }
        LinkedHashSet<Long> ints = new LinkedHashSet<>();
        for (String t : distinct) {
            try {
                ints.add(PythonInt.parseLong(variable, t));
            } catch (ConfigException e) {
                // Python's int is unbounded, but such a value could never match an int64 column: refuse it now.
                throw new ConfigException(variable + " value '" + t + "' is outside the 64-bit integer range");
            }
        }
        return new FilterValues.Ints(List.copyOf(ints));
    }

    /**
     * On a uuid-pinned field every static value must be a UUID: otherwise keep would drop every batch and drop
     * would stop denying, silently and for good. An all-decimal list is parsed as ints, so a UUID with no hex
     * letters must be written in the hyphenated form (spec caveat).
     */
    private static void requireUuids(String variable, String field, FilterValues values) {
        List<String> texts = values instanceof FilterValues.Strings s
                ? s.values()
                : ((FilterValues.Ints) values).values().stream().map(String::valueOf).toList();
        for (String t : texts) {
            if (values instanceof FilterValues.Ints || UuidText.parse(t) == null) {
                throw new ConfigException(variable + " value '" + t + "' is not a UUID, but '" + field
                        + "' is pinned to uuid in MILLPOND_TYPED_COLUMNS (write UUIDs in canonical hyphenated form)");
            }
        }
    }

    /** Trimmed, empties dropped, de-duplicated (first wins), each a safe identifier. */
    static List<String> identifierList(String variable, String raw) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String t : tokens(raw)) {
            out.add(SafeIdentifier.require(variable, t));
        }
        return List.copyOf(out);
    }

    /** Split on commas, trim, drop empties; an absent variable has no tokens. */
    private static List<String> tokens(String raw) {
        List<String> out = new ArrayList<>();
        if (raw == null) {
            return out;
        }
        for (String part : raw.split(",", -1)) {
            String t = part.strip();
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }
}
