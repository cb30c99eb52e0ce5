package dev.millpond.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Static partition assignment from the pod ordinal: pod {@code o} of {@code R} owns every partition {@code p} with
 * {@code p % R == o}. No consumer-group membership, so no rebalances: a dead pod's partitions wait for its restart.
 */
public record PartitionAssignment(String topic, int partitionCount, List<Integer> partitions) {

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
        int count = partitionCount(admin, topic);
        List<Integer> mine = partitionsFor(count, replicaCount, ordinal);
        if (mine.isEmpty()) {
            throw new IllegalStateException("No partitions assigned to ordinal " + ordinal + " (topic '" + topic + "' has "
                    + count + " partitions, REPLICA_COUNT " + replicaCount + ")");
        }
        return new PartitionAssignment(topic, count, mine);
    }

    static int partitionCount(Admin admin, String topic) {
        try {
            TopicDescription description = admin.describeTopics(Set.of(topic)).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(topic);
            return description.partitions().size();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new IllegalStateException("Topic '" + topic + "' not found", e.getCause());
            }
            throw new IllegalStateException("Cannot describe topic '" + topic + "': " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Timed out after 30s describing topic '" + topic + "'", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while describing topic '" + topic + "'", e);
        }
    }
}
