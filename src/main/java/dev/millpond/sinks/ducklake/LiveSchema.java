package dev.millpond.sinks.ducklake;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The live table's columns as information_schema reports them, looked up case-insensitively like DuckDB does. */
record LiveSchema(Map<String, LiveColumn> byFoldedName) {

    record LiveColumn(String name, String type) {
    }

    static LiveSchema of(Map<String, String> columns) {
        Map<String, LiveColumn> folded = new LinkedHashMap<>();
        columns.forEach((name, type) ->
                folded.putIfAbsent(name.toLowerCase(Locale.ROOT), new LiveColumn(name, DuckDbTypes.normalize(type))));
        return new LiveSchema(Collections.unmodifiableMap(folded));
    }

    int size() {
        return byFoldedName.size();
    }

    Optional<LiveColumn> find(String name) {
        return Optional.ofNullable(byFoldedName.get(name.toLowerCase(Locale.ROOT)));
    }
}
