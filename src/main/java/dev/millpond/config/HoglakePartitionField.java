package dev.millpond.config;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * One HOGLAKE_PARTITION_BY entry: a source column, its transform and (for {@code bucket} only) the bucket count.
 * The same grammar prints a live table's spec when it diverges from config, so an operator can paste it back.
 */
public record HoglakePartitionField(String column, HoglakeTransform transform, OptionalInt bucketCount) {

    public HoglakePartitionField {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(transform, "transform");
        if ((transform == HoglakeTransform.BUCKET) != bucketCount.isPresent()) {
            throw new IllegalArgumentException("a bucket count goes with the bucket transform and nothing else");
        }
        if (bucketCount.isPresent() && bucketCount.getAsInt() <= 0) {
            throw new IllegalArgumentException("bucket count must be positive");
        }
    }

    public static HoglakePartitionField identity(String column) {
        return new HoglakePartitionField(column, HoglakeTransform.IDENTITY, OptionalInt.empty());
    }

    public static HoglakePartitionField bucket(String column, int count) {
        return new HoglakePartitionField(column, HoglakeTransform.BUCKET, OptionalInt.of(count));
    }

    /** {@code identity(team_id)}, {@code month(_inserted_at)}, {@code bucket(id, 16)}. */
    public String grammar() {
        return bucketCount.isPresent()
                ? transform.wireName() + "(" + column + ", " + bucketCount.getAsInt() + ")"
                : transform.wireName() + "(" + column + ")";
    }

    /** A whole spec in HOGLAKE_PARTITION_BY's grammar, e.g. {@code identity(team_id), month(_inserted_at)}. */
    public static String grammar(List<HoglakePartitionField> fields) {
        return fields.stream().map(HoglakePartitionField::grammar).collect(Collectors.joining(", "));
    }
}
