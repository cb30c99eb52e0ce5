package dev.millpond.pump;

import dev.millpond.observability.MillpondMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The commit rule against Kafka's {@link MockConsumer} with scripted failures: failed attempts are counted and slept
 * off, the third failure gives up with {@link PumpFailure}, and a wakeup (a stop request) is no attempt.
 */
class OffsetCommitterTest {

    private static final TopicPartition TP0 = new TopicPartition("t", 0);
    private static final TopicPartition TP1 = new TopicPartition("t", 1);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MillpondMetrics metrics = new MillpondMetrics(registry, "t", "");
    private final List<Double> sleeps = Collections.synchronizedList(new ArrayList<>());

    @Test
    void aCommitThatFailsTwiceIsRetriedWithTheCommitBackoffAndEmptiesTheLedger() {
        ScriptedConsumer consumer = new ScriptedConsumer(new KafkaException("one"), new KafkaException("two"));
        OffsetLedger ledger = ledger();

        Map<Integer, Long> next = committer(consumer).commit(ledger, "t");

        assertThat(next).isEqualTo(Map.of(0, 8L, 1, 4L));
        assertThat(consumer.attempts).isEqualTo(3);
        assertThat(consumer.committed(java.util.Set.of(TP0, TP1))).isEqualTo(Map.of(TP0, new OffsetAndMetadata(8),
                TP1, new OffsetAndMetadata(4)));
        assertThat(ledger.isEmpty()).isTrue();
        assertThat(sleeps).containsExactly(0.5, 1.0);
        assertThat(offsetCommitErrors()).isEqualTo(2);
    }

    @Test
    void theThirdFailureGivesUpWithPumpFailureAndLeavesTheLedger() {
        ScriptedConsumer consumer = new ScriptedConsumer(new KafkaException("1"), new KafkaException("2"),
                new KafkaException("3"), new KafkaException("never reached"));
        OffsetLedger ledger = ledger();

        assertThatThrownBy(() -> committer(consumer).commit(ledger, "t")).isInstanceOf(PumpFailure.class)
                .hasMessage("Offset commit failed after 3 attempts").hasRootCauseMessage("3");

        assertThat(consumer.attempts).isEqualTo(3);
        assertThat(ledger.isEmpty()).isFalse();
        assertThat(sleeps).containsExactly(0.5, 1.0);
        assertThat(offsetCommitErrors()).isEqualTo(3);
    }

    @Test
    void aWakeupIsNoAttemptNeitherCountedNorSlept() {
        ScriptedConsumer consumer = new ScriptedConsumer(new WakeupException(), new KafkaException("1"),
                new WakeupException(), new WakeupException(), new KafkaException("2"), new WakeupException());

        Map<Integer, Long> next = committer(consumer).commit(ledger(), "t");

        assertThat(next).isEqualTo(Map.of(0, 8L, 1, 4L));
        assertThat(consumer.attempts).isEqualTo(7);
        assertThat(sleeps).containsExactly(0.5, 1.0);
        assertThat(offsetCommitErrors()).isEqualTo(2);
    }

    @Test
    void aFlushPlanCommitGivesUpBeforeAnythingIsWritten() {
        ScriptedConsumer consumer = new ScriptedConsumer(new KafkaException("1"), new WakeupException(),
                new KafkaException("2"), new KafkaException("3"));

        assertThatThrownBy(() -> committer(consumer).commitPlan(Map.of(TP0, new OffsetAndMetadata(5, "plan"))))
                .isInstanceOf(PumpFailure.class)
                .hasMessage("Committing the flush plan failed after 3 attempts; nothing was written");

        assertThat(consumer.attempts).isEqualTo(4);
        assertThat(sleeps).containsExactly(0.5, 1.0);
        assertThat(offsetCommitErrors()).isEqualTo(3);
    }

    private OffsetCommitter committer(ScriptedConsumer consumer) {
        return new OffsetCommitter(consumer, metrics, RetryPolicy.offsetCommits(), sleeps::add,
                Logger.getLogger(OffsetCommitterTest.class));
    }

    private static OffsetLedger ledger() {
        OffsetLedger ledger = new OffsetLedger();
        ledger.handled(0, 5, 1_000);
        ledger.handled(0, 7, 1_002);
        ledger.handled(1, 3, 1_001);
        return ledger;
    }

    private double offsetCommitErrors() {
        Counter c = registry.find("millpond.errors").tag("type", "offset_commit").counter();
        return c == null ? 0 : c.count();
    }

    /** Throws the scripted exceptions on the first commits, then commits. */
    private static final class ScriptedConsumer extends MockConsumer<byte[], byte[]> {
        private final Deque<RuntimeException> failures;
        int attempts;

        ScriptedConsumer(RuntimeException... failures) {
            super("earliest");
            this.failures = new ArrayDeque<>(List.of(failures));
            assign(List.of(TP0, TP1));
        }

        @Override
        public synchronized void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
            attempts++;
            RuntimeException next = failures.poll();
            if (next != null) {
                throw next;
            }
            super.commitSync(offsets);
        }
    }
}
