package dev.millpond.kafka;

import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Assignment on a real broker: partition count from the AdminClient, {@code p % REPLICA_COUNT == ordinal}. */
@ServiceBacked
class PartitionAssignmentTest {

    private static final KafkaBroker BROKER = Services.kafka();
    /** One topic per partition count, created once: topic creation dominates the cost of each case. */
    private static final Map<Integer, String> TOPICS = Map.of(
            1, Services.uniqueName("assign1p"),
            2, Services.uniqueName("assign2p"),
            8, Services.uniqueName("assign8p"));
    private static Admin admin;

    @BeforeAll
    static void createTopics() {
        TOPICS.forEach((partitions, topic) -> BROKER.createTopic(topic, partitions));
        admin = Admin.create(Map.of("bootstrap.servers", BROKER.bootstrapServers()));
    }

    @AfterAll
    static void closeAdmin() {
        if (admin != null) {
            admin.close();
        }
    }

    @ParameterizedTest(name = "{0} partitions, REPLICA_COUNT {1}, ordinal {2} -> {3}")
    @CsvSource(delimiter = '|', value = {
            "1 | 1 | 0 | 0",
            "1 | 2 | 0 | 0",
            "2 | 2 | 0 | 0",
            "2 | 2 | 1 | 1",
            "2 | 1 | 0 | 0 1",
            "8 | 1 | 0 | 0 1 2 3 4 5 6 7",
            "8 | 3 | 0 | 0 3 6",
            "8 | 3 | 1 | 1 4 7",
            "8 | 3 | 2 | 2 5",
            "8 | 8 | 7 | 7",
    })
    void ordinalOwnsEveryPartitionCongruentToIt(int partitions, int replicas, int ordinal, String expected) {
        PartitionAssignment assignment = PartitionAssignment.discover(admin, TOPICS.get(partitions), replicas, ordinal);

        assertThat(assignment.partitionCount()).isEqualTo(partitions);
        assertThat(assignment.partitions()).isEqualTo(ints(expected));
    }

    @ParameterizedTest(name = "{0} partitions, REPLICA_COUNT {1}, ordinal {2} owns nothing")
    @CsvSource(delimiter = '|', value = {
            "1 | 2 | 1",
            "2 | 3 | 2",
            "8 | 9 | 8",
    })
    void anOrdinalBeyondThePartitionCountFailsStartup(int partitions, int replicas, int ordinal) {
        String topic = TOPICS.get(partitions);

        assertThatThrownBy(() -> PartitionAssignment.discover(admin, topic, replicas, ordinal))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("No partitions assigned to ordinal " + ordinal + " ")
                .hasMessageContaining("'" + topic + "' has " + partitions + " partitions, REPLICA_COUNT " + replicas);
    }

    @Test
    void anUnknownTopicIsNamed() {
        String topic = Services.uniqueName("nosuchtopic");

        assertThatThrownBy(() -> PartitionAssignment.discover(admin, topic, 1, 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Topic '" + topic + "' not found");
    }

    private static List<Integer> ints(String spaceSeparated) {
        return Arrays.stream(spaceSeparated.trim().split("\\s+")).map(Integer::valueOf).toList();
    }
}
