package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.ducklake.Jdbc;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.sinks.RecordedOffsets;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The insert-only {@code _millpond_offsets} table beside the data table: one row per partition per flush, written in
 * the same DuckLake transaction as the flush's rows, so "these rows are in the lake" and "resume after offset N" are
 * one fact. A table rather than the snapshot's commit message because it survives snapshot expiry, an operator can
 * query it, and the startup read is a small aggregate.
 */
final class LakeOffsets {

    static final String TABLE = "_millpond_offsets";

    /**
     * How far above a scan's lowest floor another partition's floor may lie and still share the scan: the rows it then
     * reads beyond its own are its flushes over at most this many offsets, a handful at any rate that fills flushes.
     */
    static final long FLOOR_SPREAD = 1_000_000;

    private final Connection connection;
    private final String schema;
    private final String qualified;
    private final String dataTable;
    private final String groupId;

    LakeOffsets(Connection connection, String schema, String dataTable, String groupId) {
        this.connection = connection;
        this.schema = schema;
        this.qualified = "lake." + DuckLakeSql.ident(schema) + "." + DuckLakeSql.ident(TABLE);
        this.dataTable = dataTable;
        this.groupId = groupId;
    }

    String qualified() {
        return qualified;
    }

    /**
     * Creates the table if missing. Pods starting together race on the create; a loser whose statement failed finds
     * the winner's table and carries on.
     */
    void ensureTable() throws SQLException {
        String ddl = "CREATE TABLE IF NOT EXISTS " + qualified + " (table_name VARCHAR, group_id VARCHAR, "
                + "topic VARCHAR, kafka_partition INTEGER, next_offset BIGINT, written_at TIMESTAMPTZ, "
                + "first_offset BIGINT, topic_id VARCHAR)";
        SideTables.create(qualified, () -> {
            Jdbc.execute(connection, ddl);
            ensureFirstOffsetColumn();
            ensureTopicIdColumn();
        }, () -> SideTables.exists(connection, schema, TABLE) && hasFirstOffsetColumn() && hasColumn("topic_id"));
    }

    /**
     * A table from before {@code topic_id} existed (an earlier build's, or the original's) gets it added, NULL in its
     * old rows, which are then taken to be the live topic's unless some row names another id. Each row records the
     * Kafka id of the topic its offsets are in: a topic deleted and created again under the same name has a new id,
     * and its offsets start again at 0, so without it the deleted topic's offsets would skip the new topic's first
     * records.
     */
    private void ensureTopicIdColumn() throws SQLException {
        if (!hasColumn("topic_id")) {
            Jdbc.execute(connection, "ALTER TABLE " + qualified + " ADD COLUMN IF NOT EXISTS topic_id VARCHAR");
        }
    }

    /**
     * A table created before {@code first_offset} existed gets it added, NULL in its old rows. Each row then records
     * the range its flush covered, [first_offset, next_offset), so an offsets audit can tell a missing flush from a
     * long one. Added last, and written by column name, so the old rows and the startup read stay as they were.
     */
    private void ensureFirstOffsetColumn() throws SQLException {
        if (!hasFirstOffsetColumn()) {
            Jdbc.execute(connection, "ALTER TABLE " + qualified + " ADD COLUMN IF NOT EXISTS first_offset BIGINT");
        }
    }

    private boolean hasFirstOffsetColumn() throws SQLException {
        return hasColumn("first_offset");
    }

    private boolean hasColumn(String column) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT 1 FROM information_schema.columns "
                + "WHERE table_catalog = 'lake' AND table_schema = ? AND table_name = ? AND column_name = ?")) {
            ps.setString(1, schema);
            ps.setString(2, TABLE);
            ps.setString(3, column);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** One INSERT for every range of a flush; run inside the transaction that inserts the rows. */
    void insert(List<OffsetRange> ranges) throws SQLException {
        String values = ranges.stream()
                .map(r -> "(" + DuckLakeSql.literal(dataTable) + ", " + DuckLakeSql.literal(groupId) + ", "
                        + DuckLakeSql.literal(r.topic()) + ", " + r.partition() + ", " + r.next() + ", NOW(), "
                        + r.first() + ", " + r.topicId().map(DuckLakeSql::literal).orElse("NULL") + ")")
                .collect(Collectors.joining(", "));
        Jdbc.execute(connection, "INSERT INTO " + qualified + " (table_name, group_id, topic, kafka_partition, "
                + "next_offset, written_at, first_offset, topic_id) VALUES " + values);
    }

    /**
     * partition → the highest next offset recorded for it above {@code floors}' value for it, only for partitions of
     * {@code floors} that have one, counting the rows {@link #recorded(String, String)} counts for the topic whose
     * Kafka id is {@code topicId} (every row of the topic's name when the id is not known): the partition fence's read,
     * once per flush.
     *
     * <p>Each scan of a DuckLake table costs its own round trips to the catalog (the file list, the inlined rows), so
     * partitions whose floors lie close together share one scan, bounded below by their lowest floor, and the rows a
     * scan finds are held to each partition's own floor here: the highest next offset above the group's lowest floor
     * is above a partition's floor exactly when some row is, and is then the highest above it. The bound keeps
     * DuckLake's file statistics skipping every older flush's file however long the table's history; partitions far
     * apart (one added long after the others) get scans of their own, so one partition's low offsets never make the
     * others read their whole history. Only when rows without an id lie above a floor does it ask whether another id
     * was recorded.
     */
    Map<Integer, Long> recordedAbove(String topic, Optional<String> topicId, Map<Integer, Long> floors)
            throws SQLException {
        Map<Integer, Long> mine = new TreeMap<>();
        Map<Integer, Long> unnamed = new TreeMap<>();
        if (floors.isEmpty()) {
            return mine;
        }
        String sql = floorGroups(floors).stream()
                .map(group -> "SELECT kafka_partition, topic_id, max(next_offset) FROM " + qualified + whereTopic(topic)
                        + " AND kafka_partition IN (" + group.stream().map(String::valueOf)
                        .collect(Collectors.joining(", ")) + ") AND next_offset > "
                        + group.stream().mapToLong(floors::get).min().orElseThrow() + " GROUP BY 1, 2")
                .collect(Collectors.joining(" UNION ALL "));
        try (PreparedStatement ps = connection.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                int partition = rs.getInt(1);
                String id = rs.getString(2);
                long next = rs.getLong(3);
                if (next <= floors.get(partition)) {
                    continue;
                }
                if (topicId.isEmpty() || topicId.get().equals(id)) {
                    mine.merge(partition, next, Math::max);
                } else if (id == null) {
                    unnamed.merge(partition, next, Math::max);
                }
            }
        }
        return live(mine, unnamed, !unnamed.isEmpty() && anotherIdRecorded(topic, topicId.orElseThrow()));
    }

    /** The partitions by floor, cut wherever a floor lies more than {@link #FLOOR_SPREAD} above its group's lowest. */
    static List<List<Integer>> floorGroups(Map<Integer, Long> floors) {
        List<Map.Entry<Integer, Long>> byFloor = new ArrayList<>(floors.entrySet());
        byFloor.sort(Map.Entry.comparingByValue());
        List<List<Integer>> groups = new ArrayList<>();
        long lowest = Long.MIN_VALUE;
        for (Map.Entry<Integer, Long> floor : byFloor) {
            if (groups.isEmpty() || floor.getValue() - lowest > FLOOR_SPREAD) {
                groups.add(new ArrayList<>());
                lowest = floor.getValue();
            }
            groups.get(groups.size() - 1).add(floor.getKey());
        }
        return groups;
    }

    private boolean anotherIdRecorded(String topic, String topicId) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT 1 FROM " + qualified + whereTopic(topic)
                + " AND topic_id IS NOT NULL AND topic_id <> " + DuckLakeSql.literal(topicId) + " LIMIT 1");
             ResultSet rs = ps.executeQuery()) {
            return rs.next();
        }
    }

    private String whereTopic(String topic) {
        return " WHERE table_name = " + DuckLakeSql.literal(dataTable) + " AND group_id = "
                + DuckLakeSql.literal(groupId) + " AND topic = " + DuckLakeSql.literal(topic);
    }

    /**
     * The rule both reads by topic id keep: the live topic's rows count, and rows without an id count with them as
     * long as no row names another id (they were written before ids were recorded, by this topic unless it was
     * recreated since).
     */
    private static Map<Integer, Long> live(Map<Integer, Long> mine, Map<Integer, Long> unnamed,
                                           boolean anotherIdRecorded) {
        if (!anotherIdRecorded) {
            unnamed.forEach((p, next) -> mine.merge(p, next, Math::max));
        }
        return mine;
    }

    /** partition → next offset, the highest recorded for this table, group and topic; absent where none is left. */
    Map<Integer, Long> recorded(String topic) throws SQLException {
        Map<Integer, Long> next = new TreeMap<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT kafka_partition, max(next_offset) FROM "
                + qualified + " WHERE table_name = ? AND group_id = ? AND topic = ? GROUP BY 1")) {
            ps.setString(1, dataTable);
            ps.setString(2, groupId);
            ps.setString(3, topic);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    next.put(rs.getInt(1), rs.getLong(2));
                }
            }
        }
        return next;
    }

    /**
     * What the lake recorded for the topic whose Kafka id is {@code topicId}: the highest next offset per partition
     * among its rows, and among rows without an id as long as no row names another id (rows without one were written
     * before ids were recorded, by this topic unless it was recreated since). When rows name only other ids, the topic
     * was deleted and created again: none of them is the live topic's.
     */
    RecordedOffsets recorded(String topic, String topicId) throws SQLException {
        Map<Integer, Long> mine = new TreeMap<>();
        Map<Integer, Long> unnamed = new TreeMap<>();
        Set<String> others = new TreeSet<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT kafka_partition, topic_id, max(next_offset)"
                + " FROM " + qualified + " WHERE table_name = ? AND group_id = ? AND topic = ? GROUP BY 1, 2")) {
            ps.setString(1, dataTable);
            ps.setString(2, groupId);
            ps.setString(3, topic);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String id = rs.getString(2);
                    if (id == null) {
                        unnamed.merge(rs.getInt(1), rs.getLong(3), Math::max);
                    } else if (id.equals(topicId)) {
                        mine.merge(rs.getInt(1), rs.getLong(3), Math::max);
                    } else {
                        others.add(id);
                    }
                }
            }
        }
        if (!others.isEmpty() && mine.isEmpty()) {
            return new RecordedOffsets(Map.of(), Optional.of(String.join(", ", others)));
        }
        return RecordedOffsets.of(live(mine, unnamed, !others.isEmpty()));
    }
}
