package dev.millpond.sinks;

/**
 * One row of the rejects table, named by the record it keeps and when it was kept: what a replay of that record
 * removes in the commit that lands it again. The time tells the row apart from the same record rejected again in that
 * commit.
 *
 * @param rejectedAtMicros the row's {@code rejected_at} in microseconds since the epoch
 */
public record StoredReject(String topic, int partition, long offset, long rejectedAtMicros) {
}
