package dev.millpond.sinks.ducklake;

import dev.millpond.observability.SkipReason;
import dev.millpond.vocabulary.ColumnNames;
import dev.millpond.vocabulary.Identifiers;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which batch columns the DuckLake sink sends. A payload key that cannot be a DuckLake column is dropped per column
 * instead of failing the write, so one bad producer key can never wedge a partition (docs/decisions.md, "Unsafe
 * and reserved payload keys are dropped per column"); of keys differing only in case the first is kept
 * ({@link ColumnNames}, the rule both sinks share).
 */
record ColumnPlan(List<Field> sent, List<Dropped> dropped) {

    /** DuckLake's own column plus the Hive partition keys its path layout would collide with. */
    static final Set<String> RESERVED = Set.of("_inserted_at", "year", "month", "day", "hour");

    record Dropped(String name, SkipReason reason) {
    }

    static ColumnPlan of(Schema schema) {
        List<Field> sent = new ArrayList<>();
        List<Dropped> dropped = new ArrayList<>();
        ColumnNames.Spellings spellings = new ColumnNames.Spellings();
        for (Field field : schema.getFields()) {
            String name = field.getName();
            if (!Identifiers.isSafe(name)) {
                dropped.add(new Dropped(name, SkipReason.UNSAFE_FIELD_NAME));
            } else if (RESERVED.contains(ColumnNames.fold(name))) {
                dropped.add(new Dropped(name, SkipReason.RESERVED_FIELD_NAME));
            } else if (!spellings.first(name)) {
                dropped.add(new Dropped(name, SkipReason.DUPLICATE_FIELD_NAME));
            } else {
                sent.add(field);
            }
        }
        return new ColumnPlan(List.copyOf(sent), List.copyOf(dropped));
    }
}
