package dev.millpond.includevalues;

import dev.millpond.config.FilterValues;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Hands the published include set to the keep filter in the filter's own value type. A new filter snapshot is built
 * only when the source publishes a new set (identity changes), so the hot loop pays one reference comparison per
 * poll batch.
 */
public final class KeepFilterSnapshots implements Supplier<FilterValues> {

    private final Supplier<IncludeSet> source;
    private IncludeSet lastSeen;
    private FilterValues lastBuilt;

    public KeepFilterSnapshots(Supplier<IncludeSet> source) {
        this.source = source;
    }

    @Override
    public synchronized FilterValues get() {
        IncludeSet current = source.get();
        if (current != lastSeen) {
            lastBuilt = toFilterValues(current);
            lastSeen = current;
        }
        return lastBuilt;
    }

    static FilterValues toFilterValues(IncludeSet set) {
        if (set.type() == IncludeValueType.INTEGER) {
            List<Long> ints = new ArrayList<>(set.ints());
            ints.sort(null);
            return new FilterValues.Ints(ints);
        }
        List<String> strings = new ArrayList<>(set.strings());
        strings.sort(null);
        return new FilterValues.Strings(strings);
    }
}
