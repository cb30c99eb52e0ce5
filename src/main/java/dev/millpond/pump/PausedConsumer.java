package dev.millpond.pump;

import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.observability.PumpHealth;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

import java.time.Duration;
import java.util.Set;

/**
 * The pump standing still: the assignment is paused, so nothing new is consumed and memory stays at the flush being
 * filled, and polled all along (paused, a poll returns nothing), so the liveness probe stays fresh. A wakeup (a stop
 * request) does not end the wait by itself; the {@link Wait} decides.
 */
final class PausedConsumer {

    /** One wait: how long each poll may block, and what a failed poll costs. */
    interface Wait {
        /** The next poll's timeout, or null once the wait is over. */
        Duration nextPoll();

        /** After a poll failed (the error is counted already). */
        default void pollFailed() {
        }
    }

    private final Consumer<?, ?> consumer;
    private final PumpHealth health;
    private final MillpondMetrics metrics;

    PausedConsumer(Consumer<?, ?> consumer, PumpHealth health, MillpondMetrics metrics) {
        this.consumer = consumer;
        this.health = health;
        this.metrics = metrics;
    }

    void pollWhile(Wait wait) {
        Set<TopicPartition> assigned = consumer.assignment();
        consumer.pause(assigned);
        try {
            for (Duration timeout; (timeout = wait.nextPoll()) != null; ) {
                try {
                    consumer.poll(timeout); // paused: returns nothing
                    health.pollReturned();
                } catch (WakeupException e) {
                    // requestStop(): the wait decides whether it ends
                } catch (KafkaException e) {
                    metrics.error(ErrorType.KAFKA);
                    wait.pollFailed();
                }
            }
        } finally {
            consumer.resume(assigned);
        }
    }
}
