package dev.millpond.testsupport;

import java.util.List;
import java.util.Map;

/**
 * What most end-to-end tests start from: the shared broker with a fresh topic, and a fresh DuckLake (catalog database
 * and bucket) for the app to write it into. Every name is unique in the JVM, so tests never see each other's data.
 */
public record LakeTopic(KafkaBroker kafka, DuckLakeStack lake, String topic) {

    /** A new topic of {@code partitions} partitions, named after {@code prefix}, and a new lake. */
    public static LakeTopic create(String prefix, int partitions) {
        return create(prefix, partitions, Map.of());
    }

    /** As {@link #create(String, int)}, with topic-level configuration (for example a larger message size). */
    public static LakeTopic create(String prefix, int partitions, Map<String, String> topicConfig) {
        KafkaBroker kafka = Services.kafka();
        DuckLakeStack lake = Services.newDuckLake();
        String topic = Services.uniqueName(prefix);
        kafka.createTopic(topic, partitions, topicConfig);
        return new LakeTopic(kafka, lake, topic);
    }

    /** One pod's environment for this topic and lake, with the test's own variables laid over it. */
    public Map<String, String> environment(String... overrides) {
        return MillpondEnvironment.of(kafka, lake, topic, overrides);
    }

    public List<Long> produce(int partition, List<byte[]> values) {
        return kafka.produce(topic, partition, values);
    }

    public List<Long> produceTombstones(int partition, int count) {
        return kafka.produceTombstones(topic, partition, count);
    }

    public Map<Integer, Long> endOffsets() {
        return kafka.endOffsets(topic);
    }

    public Map<Integer, Long> committedOffsets(String groupId) {
        return kafka.committedOffsets(groupId, topic);
    }
}
