package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.OffsetRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A partition whose flush starts below the next offset the lake already recorded for it: some of the flush's records
 * are in the lake already, written by another process consuming the same partition under the same group.id.
 *
 * <p>Only a start below the recorded next offset is an overlap. A start at it continues the partition; a start above
 * it is a gap, which is legitimate: records filtered out or tombstones committed to Kafka alone, transaction markers
 * and aborted records, offsets retention deleted or compaction removed, a reset to the log's end. A partition with no
 * recorded offset (its first flush, or its rows pruned) has nothing to overlap.
 *
 * @param recordedNext the next offset the lake recorded for the partition: it holds the records below it
 */
record OffsetOverlap(OffsetRange range, long recordedNext) {

    /** The overlaps of {@code ranges} with what the lake recorded, per topic then partition. */
    static List<OffsetOverlap> find(List<OffsetRange> ranges, Map<String, Map<Integer, Long>> recorded) {
        List<OffsetOverlap> overlaps = new ArrayList<>();
        for (OffsetRange range : ranges) {
            Long next = recorded.getOrDefault(range.topic(), Map.of()).get(range.partition());
            if (next != null && range.first() < next) {
                overlaps.add(new OffsetOverlap(range, next));
            }
        }
        return overlaps;
    }

    /** Both ranges, for the log: what this flush covers, what the lake already holds. */
    String describe() {
        return "partition " + range.partition() + " of " + range.topic() + ": this flush covers offsets ["
                + range.first() + ", " + range.last() + "] but the lake already holds this partition's records below "
                + recordedNext;
    }
}
