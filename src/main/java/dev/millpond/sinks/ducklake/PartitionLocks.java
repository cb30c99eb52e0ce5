package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.ducklake.Jdbc;
import dev.millpond.ducklake.LakeAttachment;
import dev.millpond.sinks.OffsetRange;
import org.duckdb.DuckDBConnection;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Postgres advisory locks on the catalog database, one per (table, group.id, topic, partition), held from before a
 * flush's transaction reads the recorded offsets until after it committed: so the partition fence's check and the
 * commit it guards are one step for every other writer of those partitions. Writers of other partitions never wait.
 *
 * <p>Why a lock: DuckLake's snapshot isolation lets two transactions that both only insert into a table commit one
 * after the other without a conflict (measured with DuckDB 1.5.5: both commit), so a check inside the transaction
 * alone would let two owners pass it together. The locks are transaction-scoped ({@code pg_advisory_xact_lock}) on a
 * connection of their own, a duplicate of the sink's DuckDB connection whose transaction on the catalog's Postgres
 * database (DuckLake's {@code __ducklake_metadata_lake}) is ended only after the sink's commit; a process that dies
 * lets them go with its session. Locks are taken in one order (topic key, then partition), so two writers cannot
 * deadlock, and a wait longer than {@code maxWait} fails the attempt as contention.
 */
final class PartitionLocks implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(PartitionLocks.class);
    /** DuckLake attaches the metadata catalog of the lake {@code lake} under this name. */
    static final String METADATA_DATABASE = "__ducklake_metadata_" + LakeAttachment.ALIAS;
    static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(60);

    private final Connection connection;
    private final String dataTable;
    private final String groupId;
    private final Duration maxWait;
    private boolean held;

    PartitionLocks(DuckDBConnection sinkConnection, String dataTable, String groupId, Duration maxWait)
            throws SQLException {
        this.connection = sinkConnection.duplicate();
        this.dataTable = dataTable;
        this.groupId = groupId;
        this.maxWait = maxWait;
    }

    /**
     * The first of the two advisory-lock keys for a topic's partitions. Every version of the writer must compute the
     * same key, or two of them side by side would not exclude each other: {@link String#hashCode()} is specified, so
     * it is the same in every JVM. Two pipelines whose keys collide only wait for each other now and then.
     */
    static int topicKey(String dataTable, String groupId, String topic) {
        return (dataTable + '\0' + groupId + '\0' + topic).hashCode();
    }

    /** Takes the locks of every partition {@code ranges} cover; held until {@link #release()}. */
    void acquire(List<OffsetRange> ranges) throws SQLException {
        TreeSet<long[]> keys = new TreeSet<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        for (OffsetRange r : ranges) {
            keys.add(new long[]{topicKey(dataTable, groupId, r.topic()), r.partition()});
        }
        String locks = keys.stream().map(k -> "pg_advisory_xact_lock(" + k[0] + ", " + k[1] + ")")
                .collect(Collectors.joining(", "));
        String statements = String.format(Locale.ROOT, "SET LOCAL lock_timeout = '%dms'; SELECT %s",
                maxWait.toMillis(), locks);
        Jdbc.execute(connection, "BEGIN TRANSACTION");
        held = true;
        try {
            Jdbc.execute(connection, "CALL postgres_execute(" + DuckLakeSql.literal(METADATA_DATABASE) + ", "
                    + DuckLakeSql.literal(statements) + ")");
        } catch (SQLException e) {
            release();
            if (String.valueOf(e.getMessage()).contains("lock timeout")) {
                throw new PartitionLockWaitException(maxWait, e);
            }
            throw e;
        }
    }

    /** Lets the locks go (a no-op when none are held); never fails the flush, whose outcome is decided already. */
    void release() {
        if (!held) {
            return;
        }
        held = false;
        try {
            Jdbc.execute(connection, "ROLLBACK");
        } catch (SQLException e) {
            // The catalog connection is gone, and the locks with its session.
            LOG.debugf("Releasing the partition locks failed: %s", e.getMessage());
        }
    }

    @Override
    public void close() {
        release();
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.debugf("Closing the partition locks' connection failed: %s", e.getMessage());
        }
    }
}
