package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.CatalogLocation;
import dev.millpond.sinks.OffsetRange;
import org.duckdb.DuckDBConnection;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Refuses, inside a flush's own transaction and before anything is written, a flush that would land records the lake
 * already holds: one whose first offset on a partition lies below the next offset the lake recorded for it
 * ({@link OffsetOverlap}). That happens only when two processes consume one partition under one group.id (a
 * REPLICA_COUNT that disagrees with the StatefulSet's replicas, or a rollout that changes it): each resumes where the
 * lake said, and the slower one's flush repeats the faster one's.
 *
 * <p>The check reads {@code _millpond_offsets} as the transaction's first read of the lake, so it sees every commit
 * made before it; the {@link PartitionLocks} taken before the transaction begins and released after its commit keep
 * any other writer of those partitions from committing in between. Without a Postgres catalog (the local-file demo
 * catalog, which one process holds at a time) there is no other writer and no lock. With MILLPOND_LAKE_OFFSETS=false
 * the lake records no offsets and there is no fence.
 */
final class PartitionFence implements AutoCloseable {

    private final LakeOffsets offsets;
    private final Optional<PartitionLocks> locks;
    private final String table;
    private final String groupId;

    /** The fence of a sink recording its offsets with {@code offsets}; locks only with a Postgres catalog. */
    static PartitionFence open(DuckDBConnection sinkConnection, DuckLakeSinkSettings settings, LakeOffsets offsets,
                               String table) throws SQLException {
        String groupId = settings.lakeOffsetsGroupId().orElseThrow();
        Optional<PartitionLocks> locks = settings.catalog() instanceof CatalogLocation.Postgres
                ? Optional.of(new PartitionLocks(sinkConnection, settings.table(), groupId,
                PartitionLocks.DEFAULT_MAX_WAIT))
                : Optional.empty();
        return new PartitionFence(offsets, locks, table, groupId);
    }

    PartitionFence(LakeOffsets offsets, Optional<PartitionLocks> locks, String table, String groupId) {
        this.offsets = offsets;
        this.locks = locks;
        this.table = table;
        this.groupId = groupId;
    }

    /** Before the flush's transaction begins: no other writer of these partitions commits until {@link #exit()}. */
    void enter(List<OffsetRange> ranges) throws SQLException {
        if (locks.isPresent()) {
            locks.get().acquire(ranges);
        }
    }

    /**
     * The first statement of the flush's transaction.
     *
     * @throws PartitionFenceException when the lake holds some of the flush's records already
     */
    void check(List<OffsetRange> ranges) throws SQLException {
        // Only offsets recorded above a flush's first offset can overlap it: the read asks for nothing else. A topic
        // deleted and created again under the same name has a new id: the deleted topic's rows do not fence it.
        Map<Topic, List<OffsetRange>> byTopic = new LinkedHashMap<>();
        for (OffsetRange range : ranges) {
            byTopic.computeIfAbsent(new Topic(range.topic(), range.topicId()), t -> new ArrayList<>()).add(range);
        }
        List<OffsetOverlap> overlaps = new ArrayList<>();
        for (Map.Entry<Topic, List<OffsetRange>> topic : byTopic.entrySet()) {
            Map<Integer, Long> firsts = new HashMap<>();
            topic.getValue().forEach(r -> firsts.merge(r.partition(), r.first(), Math::min));
            Map<Integer, Long> recorded = offsets.recordedAbove(topic.getKey().name(), topic.getKey().id(), firsts);
            overlaps.addAll(OffsetOverlap.find(topic.getValue(), Map.of(topic.getKey().name(), recorded)));
        }
        if (!overlaps.isEmpty()) {
            throw new PartitionFenceException(overlaps, table, groupId);
        }
    }

    /** A topic as the flush's ranges name it: by name, and by Kafka id where known. */
    private record Topic(String name, Optional<String> id) {
    }

    /** After the flush's transaction ended, committed or not. */
    void exit() {
        locks.ifPresent(PartitionLocks::release);
    }

    @Override
    public void close() {
        locks.ifPresent(PartitionLocks::close);
    }
}
