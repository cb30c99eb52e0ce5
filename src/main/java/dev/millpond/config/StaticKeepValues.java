package dev.millpond.config;

import java.util.List;

/**
 * MILLPOND_FILTER_KEEP_FIELD_NAME + MILLPOND_FILTER_VALUES, read only as far as the include-values source needs
 * them: to know that a keep filter exists, and the static values (typed) that become its pins.
 *
 * <p>Seam: the keep filter itself (field validation, uuid-pinned parsing, the batch comparison) belongs to the
 * record-handling group. When that parser lands, this record should be built from its result instead of from the
 * environment a second time; the int/string auto-detection here follows the same rule (COMPAT §2).
 *
 * @param keepField the keep field name, stripped
 * @param ints      the static values when every token is an integer, in configured order, de-duplicated
 * @param strings   the static values otherwise
 */
public record StaticKeepValues(String keepField, List<Long> ints, List<String> strings) {

    public StaticKeepValues {
        ints = List.copyOf(ints);
        strings = List.copyOf(strings);
        if (ints.isEmpty() == strings.isEmpty()) {
            throw new IllegalArgumentException("exactly one of ints and strings must be non-empty");
        }
    }

    /** True when the static list was auto-detected as integers. */
    public boolean integers() {
        return !ints.isEmpty();
    }

    public int size() {
        return integers() ? ints.size() : strings.size();
    }
}
