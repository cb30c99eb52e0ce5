package dev.millpond.pump;

import dev.millpond.observability.ErrorType;
import dev.millpond.observability.MillpondMetrics;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.jboss.logging.Logger;

import java.util.Map;
import java.util.function.Function;

/**
 * The one rule for committing to Kafka: {@code commitSync} up to {@link RetryPolicy#offsetCommits()}'s attempts, each
 * failure counted as {@link ErrorType#OFFSET_COMMIT} and slept off, then {@link PumpFailure}. A wakeup (a stop request)
 * is not an attempt: what is being committed was already written, or is about to be in the shutdown flush.
 */
final class OffsetCommitter {

    private final Consumer<?, ?> consumer;
    private final MillpondMetrics metrics;
    private final RetryPolicy retry;
    private final Sleeper sleeper;
    /** The caller's, so its log lines keep their logger name. */
    private final Logger log;

    OffsetCommitter(Consumer<?, ?> consumer, MillpondMetrics metrics, RetryPolicy retry, Sleeper sleeper, Logger log) {
        this.consumer = consumer;
        this.metrics = metrics;
        this.retry = retry;
        this.sleeper = sleeper;
        this.log = log;
    }

    /**
     * Commits the offset after each partition's last handled record (or its reached position) and empties the ledger.
     *
     * @return the offset committed per partition
     */
    Map<Integer, Long> commit(OffsetLedger committing, String topic) {
        Map<Integer, Long> next = committing.nextOffsets();
        commitSync(committing.commitRequest(topic), "Offset commit attempt %d failed: %s", e -> {
            log.errorf("Offset commit failed after %d attempts — duplicates possible on restart", retry.attempts());
            return new PumpFailure("Offset commit failed after " + retry.attempts() + " attempts", e);
        });
        committing.clear();
        return next;
    }

    /** Commits a flush plan (first offsets, plan metadata) before its flush is first written. */
    void commitPlan(Map<TopicPartition, OffsetAndMetadata> request) {
        commitSync(request, "Flush plan commit attempt %d failed: %s", e -> new PumpFailure(
                "Committing the flush plan failed after " + retry.attempts() + " attempts; nothing was written", e));
    }

    private void commitSync(Map<TopicPartition, OffsetAndMetadata> request, String attemptFailed,
                            Function<KafkaException, PumpFailure> gaveUp) {
        for (int attempt = 0; ; attempt++) {
            try {
                consumer.commitSync(request);
                return;
            } catch (WakeupException e) {
                attempt--;
            } catch (KafkaException e) {
                metrics.error(ErrorType.OFFSET_COMMIT);
                if (attempt + 1 >= retry.attempts()) {
                    throw gaveUp.apply(e);
                }
                log.warnf(attemptFailed, attempt + 1, e.toString());
                sleeper.sleep(retry.delaySeconds(attempt));
            }
        }
    }
}
