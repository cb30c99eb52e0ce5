package dev.millpond.sinks.ducklake;

import java.sql.SQLException;
import java.time.Duration;

/**
 * Another writer held the locks of this flush's partitions for longer than the fence waits. Contention, retried by
 * the write ladder like any other: the other writer is a second owner of those partitions, and the next attempt
 * either gets the locks (and is refused by the fence if that writer landed the same records) or waits again.
 */
final class PartitionLockWaitException extends SQLException {

    PartitionLockWaitException(Duration waited, SQLException cause) {
        super("Partition fence: another writer held the locks of this flush's partitions for " + waited.toSeconds()
                + " s (a second owner of these partitions is writing); not written", cause);
    }
}
