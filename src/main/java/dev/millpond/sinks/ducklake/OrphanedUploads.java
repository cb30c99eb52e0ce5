package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.observability.MillpondMetrics;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts the parquet files that failed write attempts left in the object store: DuckLake uploads a flush's files
 * before its catalog commit, and when the commit does not reach the catalog (it went away mid-write) the files stay,
 * referenced by no snapshot, and nothing deletes them (measured: a rolled-back transaction leaves its upload). They are
 * harmless to readers and are what the maintenance orphan cleanup ({@code ducklake_delete_orphaned_files}) removes;
 * counting them tells the operator that cleanup has work.
 *
 * <p>A file is counted when it sits in the table's directory, no snapshot of the catalog references it, and the
 * time in its name (DuckLake names files {@code ducklake-<uuid v7>.parquet}, whose first 48 bits are the Unix time in
 * milliseconds) falls within the failed attempts. Another pod writing the same table at that moment may have uploads
 * of its own in flight or orphaned, so with several writers this is an upper bound, never an undercount.
 */
final class OrphanedUploads {

    private static final Logger LOG = Logger.getLogger(OrphanedUploads.class);
    private static final Pattern UUID_V7_MILLIS = Pattern.compile("ducklake-([0-9a-f]{8})-([0-9a-f]{4})-7[^/]*\\.parquet$");
    private static final long SLACK_MILLIS = 1_000;
    private static final int LISTED = 10;

    private final Connection connection;
    private final String dataPath;
    private final String schema;
    private final List<String> tables;
    private final MillpondMetrics metrics;

    OrphanedUploads(Connection connection, String dataPath, String schema, List<String> tables,
                    MillpondMetrics metrics) {
        this.connection = connection;
        this.dataPath = dataPath.endsWith("/") ? dataPath : dataPath + "/";
        this.schema = schema;
        this.tables = List.copyOf(tables);
        this.metrics = metrics;
    }

    /** Counts (and logs) the unreferenced files created between the two instants; returns how many. */
    int countCreatedBetween(long fromMillis, long toMillis) throws SQLException {
        List<String> orphans = new ArrayList<>();
        for (String table : tables) {
            Set<String> referenced = new HashSet<>(strings("SELECT data_file FROM ducklake_list_files('lake', "
                    + DuckLakeSql.literal(table) + ", schema => " + DuckLakeSql.literal(schema) + ")"));
            String directory = dataPath + schema + "/" + table + "/";
            for (String file : strings("SELECT file FROM glob(" + DuckLakeSql.literal(directory + "**/ducklake-*.parquet")
                    + ")")) {
                long created = createdMillis(file);
                if (created >= fromMillis - SLACK_MILLIS && created <= toMillis + SLACK_MILLIS
                        && !referenced.contains(file)) {
                    orphans.add(file);
                }
            }
        }
        if (!orphans.isEmpty()) {
            metrics.orphanedUploads(orphans.size());
            LOG.warnf("%d file(s) uploaded by failed write attempts are referenced by no snapshot; the maintenance"
                    + " orphan cleanup removes them: %s%s", orphans.size(),
                    String.join(", ", orphans.subList(0, Math.min(LISTED, orphans.size()))),
                    orphans.size() > LISTED ? ", …" : "");
        }
        return orphans.size();
    }

    /** The Unix milliseconds in a DuckLake file name, or -1 when the name is not a version-7 UUID. */
    static long createdMillis(String file) {
        Matcher m = UUID_V7_MILLIS.matcher(file);
        return m.find() ? Long.parseLong(m.group(1) + m.group(2), 16) : -1;
    }

    private List<String> strings(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
