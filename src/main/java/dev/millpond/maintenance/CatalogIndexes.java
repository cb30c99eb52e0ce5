package dev.millpond.maintenance;

import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.millpond.maintenance.LakeSession.firstColumn;

/** The indexes millpond adds to DuckLake's Postgres catalog. */
final class CatalogIndexes {

    /** The category the lake upkeep's log lines have always carried, whichever operation logs them. */
    private static final Logger LOG = Logger.getLogger(LakeMaintenance.class);

    /** The catalog btrees the maintenance scans and the commit path's per-file joins need. */
    static final List<CatalogIndex> INDEXES = List.of(
            new CatalogIndex("millpond_data_file_table_end", "ducklake_data_file", "table_id, end_snapshot"),
            new CatalogIndex("millpond_data_file_end", "ducklake_data_file", "end_snapshot"),
            new CatalogIndex("millpond_data_file_begin", "ducklake_data_file", "begin_snapshot"),
            new CatalogIndex("millpond_delete_file_data_file", "ducklake_delete_file", "data_file_id"),
            new CatalogIndex("millpond_delete_file_table_end", "ducklake_delete_file", "table_id, end_snapshot"),
            new CatalogIndex("millpond_file_column_stats_file", "ducklake_file_column_stats", "data_file_id"),
            new CatalogIndex("millpond_file_partition_value_file", "ducklake_file_partition_value", "data_file_id"),
            new CatalogIndex("millpond_scheduled_deletion_path", "ducklake_files_scheduled_for_deletion", "path"),
            new CatalogIndex("millpond_snapshot_time", "ducklake_snapshot", "snapshot_time"));

    record CatalogIndex(String name, String table, String columns) {
        String ddl() {
            return "CREATE INDEX CONCURRENTLY IF NOT EXISTS " + name + " ON " + table + " (" + columns + ")";
        }
    }

    private final LakeSession session;

    CatalogIndexes(LakeSession session) {
        this.session = session;
    }

    private Connection catalog() {
        return session.catalog();
    }

    /** Creates the missing catalog indexes (concurrently: writers keep committing). Returns the missing ones. */
    List<String> ensure(boolean dryRun) throws SQLException {
        Set<String> present = new HashSet<>(firstColumn(LakeSession.queryRows(catalog(),
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")));
        List<String> missing = new ArrayList<>();
        for (CatalogIndex index : INDEXES) {
            if (!present.contains(index.name())) {
                missing.add(index.name());
            }
        }
        LOG.infof("ensure-indexes: %d of %d index(es) missing%s", missing.size(), INDEXES.size(),
                missing.isEmpty() ? "" : ": " + missing);
        if (dryRun || missing.isEmpty()) {
            return missing;
        }
        session.lock();
        for (CatalogIndex index : INDEXES) {
            if (missing.contains(index.name())) {
                LOG.infof("ensure-indexes: %s", index.ddl());
                LakeSession.execute(catalog(), index.ddl());
            }
        }
        return missing;
    }
}
