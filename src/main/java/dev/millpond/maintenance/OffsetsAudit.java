package dev.millpond.maintenance;

import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.kafka.Watermarks;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The offsets audit: reads a pipeline's {@code _millpond_offsets} rows from the lake and the topic's watermarks, and
 * reports per partition the ranges the lake covers, any gap or overlap between consecutive flushes, the lag to the
 * log end, and whether retention deleted offsets the lake never received.
 *
 * @param schema  DUCKLAKE_SCHEMA
 * @param table   DUCKLAKE_TABLE
 * @param groupId the pipeline's Kafka group.id, the key its flushes record their offsets under
 */
public record OffsetsAudit(String schema, String table, String groupId, String topic) {

    /** @param otherTopics rows recorded for a deleted topic of the same name, not audited */
    public record Report(List<PartitionAudit> partitions, long otherTopics) {

        public Report(List<PartitionAudit> partitions) {
            this(partitions, 0);
        }

        public boolean clean() {
            return partitions.stream().allMatch(PartitionAudit::clean);
        }

        public List<String> lines() {
            List<String> lines = new ArrayList<>();
            if (otherTopics > 0) {
                lines.add(otherTopics + " row(s) recorded before the topic was deleted and created again (under"
                        + " another topic id, or none) are not audited");
            }
            partitions.forEach(p -> lines.addAll(p.describe()));
            long findings = partitions.stream().mapToLong(p -> p.findings().size()).sum();
            lines.add(clean() ? "audit: clean (" + partitions.size() + " partition(s))"
                    : "audit: " + findings + " finding(s) in " + partitions.stream().filter(p -> !p.clean()).count()
                    + " partition(s)");
            return lines;
        }

        public Optional<PartitionAudit> partition(int p) {
            return partitions.stream().filter(a -> a.partition() == p).findFirst();
        }
    }

    /** The recorded flushes per partition, oldest first, of every topic id. */
    public Map<Integer, List<PartitionAudit.Flush>> recorded(Connection duck) throws SQLException {
        return recorded(duck, Optional.empty()).flushes();
    }

    /**
     * The flushes recorded for the live topic and how many rows belong to a deleted topic of the same name.
     *
     * @param flushes     per partition, oldest first: rows of the live topic's id, and rows without an id unless a row
     *                    names another id (the rule the writer resumes by)
     * @param otherTopics rows recorded under another topic id (and, then, rows without one), left out of the audit
     */
    public record Recorded(Map<Integer, List<PartitionAudit.Flush>> flushes, long otherTopics) {
    }

    /** @param topicId the live topic's Kafka id; empty audits every row recorded under the topic's name */
    public Recorded recorded(Connection duck, Optional<String> topicId) throws SQLException {
        String qualified = "lake." + DuckLakeSql.ident(schema) + "." + DuckLakeSql.ident("_millpond_offsets");
        boolean hasFirst = hasColumn(duck, "first_offset");
        boolean hasTopicId = hasColumn(duck, "topic_id");
        Map<Integer, List<PartitionAudit.Flush>> mine = new TreeMap<>();
        Map<Integer, List<PartitionAudit.Flush>> unnamed = new TreeMap<>();
        long others = 0;
        try (PreparedStatement ps = duck.prepareStatement("SELECT kafka_partition, "
                + (hasFirst ? "first_offset" : "NULL::BIGINT") + ", next_offset, "
                + (hasTopicId ? "topic_id" : "NULL::VARCHAR") + " FROM " + qualified
                + " WHERE table_name = ? AND group_id = ? AND topic = ? ORDER BY kafka_partition, next_offset")) {
            ps.setString(1, table);
            ps.setString(2, groupId);
            ps.setString(3, topic);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int partition = rs.getInt(1);
                    long first = rs.getLong(2);
                    Optional<Long> firstOffset = rs.wasNull() ? Optional.empty() : Optional.of(first);
                    PartitionAudit.Flush flush = new PartitionAudit.Flush(partition, firstOffset, rs.getLong(3));
                    String id = rs.getString(4);
                    if (id == null || topicId.isEmpty()) {
                        (id == null ? unnamed : mine).computeIfAbsent(partition, p -> new ArrayList<>()).add(flush);
                    } else if (id.equals(topicId.get())) {
                        mine.computeIfAbsent(partition, p -> new ArrayList<>()).add(flush);
                    } else {
                        others++;
                    }
                }
            }
        }
        if (others == 0) {
            unnamed.forEach((p, rows) -> mine.computeIfAbsent(p, k -> new ArrayList<>()).addAll(rows));
        } else {
            others += unnamed.values().stream().mapToLong(List::size).sum();
        }
        return new Recorded(mine, others);
    }

    private boolean hasColumn(Connection duck, String column) throws SQLException {
        try (PreparedStatement ps = duck.prepareStatement("SELECT 1 FROM information_schema.columns WHERE "
                + "table_catalog = 'lake' AND table_schema = ? AND table_name = '_millpond_offsets' "
                + "AND column_name = ?")) {
            ps.setString(1, schema);
            ps.setString(2, column);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Audits every partition of the topic (and any the lake recorded that the topic no longer has). */
    public Report run(Connection duck, Properties adminProperties, Properties consumerProperties) throws Exception {
        try (Admin admin = Admin.create(adminProperties)) {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            Recorded recorded = recorded(duck, Optional.of(description.topicId().toString()));
            TreeSet<Integer> partitions = new TreeSet<>(recorded.flushes().keySet());
            description.partitions().forEach(p -> partitions.add(p.partition()));
            Watermarks marks = Watermarks.fetch(admin, topic, List.copyOf(partitions), 30_000);
            try (KafkaProbe probe = new KafkaProbe(topic, consumerProperties)) {
                List<PartitionAudit> audits = new ArrayList<>();
                for (int p : partitions) {
                    audits.add(PartitionAudit.of(p, recorded.flushes().getOrDefault(p, List.of()),
                            marks.low().getOrDefault(p, 0L), marks.high().getOrDefault(p, 0L), probe));
                }
                return new Report(audits, recorded.otherTopics());
            }
        }
    }

    /**
     * Reads Kafka to tell whether a gap held records: offsets a transactional producer used for commit markers, or
     * that compaction removed, hold none, and then nothing is missing.
     */
    static final class KafkaProbe implements PartitionAudit.RecordProbe, AutoCloseable {
        private final String topic;
        private final Properties props;
        private KafkaConsumer<byte[], byte[]> consumer;
        private final Map<Integer, Long> logStart = new HashMap<>();

        KafkaProbe(String topic, Properties consumerProperties) {
            this.topic = topic;
            this.props = new Properties();
            props.putAll(consumerProperties);
            props.setProperty("enable.auto.commit", "false");
            props.setProperty("max.poll.records", "1");
        }

        @Override
        public Optional<Boolean> hasRecords(int partition, PartitionAudit.Range range) {
            if (consumer == null) {
                consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            }
            TopicPartition tp = new TopicPartition(topic, partition);
            consumer.assign(List.of(tp));
            long start = logStart.computeIfAbsent(partition,
                    p -> consumer.beginningOffsets(List.of(tp)).get(tp));
            if (start > range.from()) {
                return Optional.empty();
            }
            consumer.seek(tp, range.from());
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<byte[], byte[]> r : records.records(tp)) {
                    return Optional.of(r.offset() < range.to());
                }
                if (consumer.position(tp) >= range.to()) {
                    return Optional.of(false);
                }
            }
            return Optional.empty();
        }

        @Override
        public void close() {
            if (consumer != null) {
                consumer.close(Duration.ofSeconds(5));
            }
        }
    }
}
