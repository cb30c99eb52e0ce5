package dev.millpond.includevalues;

/** The two scalar types an allowlist may hold; fixed for a process by the static list's auto-detection. */
public enum IncludeValueType {
    /** Values are {@link Long}s. */
    INTEGER,
    /** Values are {@link String}s, exactly as configured or served. */
    STRING;

    /** The type of one value; values are only ever {@link Long} or {@link String}. */
    static IncludeValueType of(Object value) {
        if (value instanceof Long) {
            return INTEGER;
        }
        if (value instanceof String) {
            return STRING;
        }
        throw new IllegalArgumentException("not an allowlist value: " + value.getClass().getName());
    }
}
