package dev.millpond.sinks.ducklake;

import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A flush refused by the partition fence: the lake already holds some of its records, so another process writes the
 * same partitions. Nothing of the flush was written. Permanent: writing it again can only be refused again, and the
 * restart resumes from the lake's offsets (docs/decisions.md, "Two processes never land one partition's records
 * twice").
 */
final class PartitionFenceException extends SQLException {

    private final List<OffsetOverlap> overlaps;

    PartitionFenceException(List<OffsetOverlap> overlaps, String table, String groupId) {
        super("Partition fence: " + overlaps.stream().map(OffsetOverlap::describe).collect(Collectors.joining("; "))
                + " (in " + table + ", group.id " + groupId + "). Another process consumes the same partition(s):"
                + " REPLICA_COUNT disagrees with the StatefulSet's replicas, or a rollout is changing it. Nothing of"
                + " this flush was written; exiting without committing, so the restart resumes from the lake's offsets");
        this.overlaps = List.copyOf(overlaps);
    }

    List<OffsetOverlap> overlaps() {
        return overlaps;
    }
}
