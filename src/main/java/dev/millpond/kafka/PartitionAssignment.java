package dev.millpond.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Static partition assignment from the pod ordinal: pod {@code o} of {@code R} owns every partition {@code p} with
 * {@code p % R == o}. No consumer-group membership, so no rebalances: a dead pod's partitions wait for its restart.
 *
 * @param topicId the topic's Kafka id (base64, as Kafka prints it): a topic deleted and recreated under the same name
 *                gets a new one, so offsets recorded under the old id belong to another topic
 */
public record PartitionAssignment(String topic, String topicId, int partitionCount, List<Integer> partitions) {

    /** The original's {@code list_topics} timeout. */
    public static final Duration DESCRIBE_TIMEOUT = Duration.ofSeconds(30);

    /** The topic as the AdminClient describes it. */
    public record Described(String topicId, int partitionCount) {
        static Described of(TopicDescription description) {
            return new Described(description.topicId().toString(), description.partitions().size());
        }
    }

    public PartitionAssignment {
        partitions = List.copyOf(partitions);
    }

    /** The assigned partitions as the consumer names them. */
    public List<TopicPartition> topicPartitions() {
        return partitions.stream().map(p -> new TopicPartition(topic, p)).toList();
    }

    public static List<Integer> partitionsFor(int partitionCount, int replicaCount, int ordinal) {
        List<Integer> mine = new ArrayList<>();
        for (int p = 0; p < partitionCount; p++) {
            if (p % replicaCount == ordinal) {
                mine.add(p);
            }
        }
        return List.copyOf(mine);
    }

    /** Discovers the partition count with an AdminClient (30 s, as the original) and picks this ordinal's share. */
    public static PartitionAssignment discover(Admin admin, String topic, int replicaCount, int ordinal) {
        return of(topic, describe(admin, topic, DESCRIBE_TIMEOUT), replicaCount, ordinal);
    }

    /** This ordinal's share of a described topic; owning none fails startup. */
    public static PartitionAssignment of(String topic, Described described, int replicaCount, int ordinal) {
        int count = described.partitionCount();
        List<Integer> mine = partitionsFor(count, replicaCount, ordinal);
        if (mine.isEmpty()) {
            throw new IllegalStateException("No partitions assigned to ordinal " + ordinal + " (topic '" + topic + "' has "
                    + count + " partitions, REPLICA_COUNT " + replicaCount + ")");
        }
        return new PartitionAssignment(topic, described.topicId(), count, mine);
    }

    /**
     * @throws IllegalStateException the topic does not exist, or Kafka refused to describe it
     * @throws RetriableException    Kafka could not be reached within {@code timeout} (a
     *                               {@link org.apache.kafka.common.errors.TimeoutException}) or answered with a
     *                               transient error: worth trying again
     */
    public static Described describe(Admin admin, String topic, Duration timeout) {
        try {
            TopicDescription description = admin.describeTopics(Set.of(topic),
                            new DescribeTopicsOptions().timeoutMs((int) Math.min(Integer.MAX_VALUE, timeout.toMillis())))
                    .allTopicNames().get(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS).get(topic);
            return Described.of(description);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UnknownTopicOrPartitionException) {
                throw new IllegalStateException("Topic '" + topic + "' not found", cause);
            }
            if (cause instanceof RetriableException retriable) {
                throw retriable;
            }
            throw new IllegalStateException("Cannot describe topic '" + topic + "': " + cause, cause);
        } catch (TimeoutException e) {
            throw new org.apache.kafka.common.errors.TimeoutException("Timed out after " + timeout.toSeconds()
                    + "s describing topic '" + topic + "'", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while describing topic '" + topic + "'", e);
        }
    }
}
