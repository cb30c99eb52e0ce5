package dev.millpond.maintenance;

import org.jboss.logging.Logger;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Re-derives each live data file's partition values ({@code ducklake_file_partition_value}) from the Hive-style
 * {@code key=value} segments DuckLake wrote into its path, for every partitioned table of the lake. Files registered by
 * {@code ducklake_add_data_files} (which, in DuckLake 1.4.4, records every value of a hive path under one
 * partition_key_index) or damaged by hand or by a bug carry missing, duplicated or wrong rows. DuckLake 1.4.4 still
 * reads them correctly (its scans prune on column statistics), but its merge groups files by these rows, so such a
 * file is never compacted with its partition, and tools that report or prune by partition see it in the wrong one.
 *
 * <p>A file is checked against the partition spec it was written under ({@code ducklake_data_file.partition_id}): key
 * {@code i} is found in the path under the transform's name ({@code year}, {@code month}, {@code day}, {@code hour})
 * or, for an identity key, under any name the column has had. A file whose recorded values are complete and
 * single-valued but whose path has no segment to check them against is left alone silently; one whose values need
 * repair but whose path cannot supply them is reported and left alone.
 */
public final class PartitionValueRepair {

    private static final Logger LOG = Logger.getLogger(PartitionValueRepair.class);
    private static final int FETCH_SIZE = 1_000;

    /** One partition key of one spec: where its value sits in the path. */
    record Key(int index, Set<String> pathNames) {
    }

    /**
     * A file whose recorded values disagree with its path. {@code recorded} is index → the values recorded under it
     * (several when duplicated); {@code fromPath} is index → the value its path gives, empty when it cannot be read.
     *
     * @param problem why the file cannot be repaired, or null when {@code fromPath} is its repair
     */
    public record Finding(long dataFileId, long tableId, String table, String path, Map<Integer, List<String>> recorded,
                   Map<Integer, String> fromPath, String problem) {

        public boolean repairable() {
            return problem == null;
        }

        @Override
        public String toString() {
            return dataFileId + "\t" + table + "\t" + path + "\trecorded " + recorded + " -> "
                    + (repairable() ? "path " + fromPath : "cannot repair: " + problem);
        }
    }

    private final Connection catalog;

    PartitionValueRepair(Connection catalog) {
        this.catalog = catalog;
    }

    /** Every live file of a partitioned table whose partition values disagree with its path. */
    List<Finding> find() throws SQLException {
        Map<Long, List<Key>> specs = specs();
        List<Finding> findings = new ArrayList<>();
        if (specs.isEmpty()) {
            return findings;
        }
        String sql = "SELECT df.data_file_id, df.table_id, df.partition_id, df.path, s.schema_name || '.' || "
                + "t.table_name, array_agg(fpv.partition_key_index ORDER BY fpv.partition_key_index), "
                + "array_agg(fpv.partition_value ORDER BY fpv.partition_key_index) "
                + "FROM ducklake_data_file df "
                + "JOIN ducklake_table t ON t.table_id = df.table_id AND t.end_snapshot IS NULL "
                + "JOIN ducklake_schema s ON s.schema_id = t.schema_id AND s.end_snapshot IS NULL "
                + "LEFT JOIN ducklake_file_partition_value fpv ON fpv.data_file_id = df.data_file_id "
                + "WHERE df.end_snapshot IS NULL AND df.partition_id IS NOT NULL "
                + "GROUP BY df.data_file_id, df.table_id, df.partition_id, df.path, s.schema_name, t.table_name "
                + "ORDER BY df.data_file_id";
        long checked = 0;
        boolean autoCommit = catalog.getAutoCommit();
        // A cursor (fetch size inside a transaction) streams the files: a big lake has millions of them.
        catalog.setAutoCommit(false);
        try (Statement s = catalog.createStatement()) {
            s.setFetchSize(FETCH_SIZE);
            try (ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    checked++;
                    List<Key> keys = specs.get(rs.getLong(3));
                    if (keys == null) {
                        continue; // a spec with no key rows: nothing to check against
                    }
                    Finding f = check(rs.getLong(1), rs.getLong(2), rs.getString(5), rs.getString(4), keys,
                            recorded(rs.getArray(6), rs.getArray(7)));
                    if (f != null) {
                        findings.add(f);
                    }
                }
            }
            catalog.commit();
        } catch (SQLException | RuntimeException e) {
            catalog.rollback();
            throw e;
        } finally {
            catalog.setAutoCommit(autoCommit);
        }
        LOG.infof("repair-partition-values: %d live partitioned file(s) checked, %d to repair, %d that cannot be "
                + "repaired from their path", checked, findings.stream().filter(Finding::repairable).count(),
                findings.stream().filter(f -> !f.repairable()).count());
        return findings;
    }

    /** The repairable findings' rows replaced by the values from their paths, all in one transaction. */
    void apply(List<Finding> findings) throws SQLException {
        List<Finding> repairs = findings.stream().filter(Finding::repairable).toList();
        if (repairs.isEmpty()) {
            return;
        }
        boolean autoCommit = catalog.getAutoCommit();
        catalog.setAutoCommit(false);
        // Only while the file is still live: a compaction or expiry that retired it meanwhile keeps the last word.
        String live = " AND EXISTS (SELECT 1 FROM ducklake_data_file df WHERE df.data_file_id = ? "
                + "AND df.end_snapshot IS NULL)";
        try (Statement s = catalog.createStatement();
             PreparedStatement delete = catalog.prepareStatement(
                     "DELETE FROM ducklake_file_partition_value WHERE data_file_id = ?" + live);
             PreparedStatement insert = catalog.prepareStatement("INSERT INTO ducklake_file_partition_value "
                     + "(data_file_id, table_id, partition_key_index, partition_value) SELECT ?, ?, ?, ? WHERE TRUE"
                     + live)) {
            s.execute("SET LOCAL statement_timeout = '300s'");
            s.execute("SET LOCAL lock_timeout = '30s'");
            for (Finding f : repairs) {
                delete.setLong(1, f.dataFileId());
                delete.setLong(2, f.dataFileId());
                delete.addBatch();
                for (Map.Entry<Integer, String> v : f.fromPath().entrySet()) {
                    insert.setLong(1, f.dataFileId());
                    insert.setLong(2, f.tableId());
                    insert.setLong(3, v.getKey());
                    insert.setString(4, v.getValue());
                    insert.setLong(5, f.dataFileId());
                    insert.addBatch();
                }
            }
            delete.executeBatch();
            insert.executeBatch();
            catalog.commit();
        } catch (SQLException | RuntimeException e) {
            catalog.rollback();
            throw e;
        } finally {
            catalog.setAutoCommit(autoCommit);
        }
        LOG.infof("repair-partition-values: partition values of %d file(s) rewritten from their paths", repairs.size());
    }

    /**
     * partition_id → its keys in index order. Partition ids are unique across tables. An identity key may appear
     * in the path under any name its column has had (a rename after the write keeps the old directory name).
     */
    private Map<Long, List<Key>> specs() throws SQLException {
        Map<Long, Map<Integer, Set<String>>> names = new HashMap<>();
        String sql = "SELECT pc.partition_id, pc.partition_key_index, pc.transform, c.column_name "
                + "FROM ducklake_partition_column pc LEFT JOIN ducklake_column c ON c.table_id = pc.table_id "
                + "AND c.column_id = pc.column_id ORDER BY pc.partition_id, pc.partition_key_index, c.begin_snapshot DESC";
        for (List<String> row : LakeSession.queryRows(catalog, sql)) {
            Set<String> keyNames = names.computeIfAbsent(Long.parseLong(row.get(0)), id -> new TreeMap<>())
                    .computeIfAbsent(Integer.parseInt(row.get(1)), i -> new LinkedHashSet<>());
            String transform = row.get(2) == null ? "identity" : row.get(2);
            if (!transform.equals("identity")) {
                keyNames.add(transform);
            } else if (row.get(3) != null) {
                keyNames.add(row.get(3));
            }
        }
        Map<Long, List<Key>> specs = new HashMap<>();
        names.forEach((id, keys) -> specs.put(id, keys.entrySet().stream()
                .map(e -> new Key(e.getKey(), Set.copyOf(e.getValue()))).toList()));
        return specs;
    }

    private static Map<Integer, List<String>> recorded(Array indexes, Array values) throws SQLException {
        Map<Integer, List<String>> recorded = new TreeMap<>();
        Object[] idx = (Object[]) indexes.getArray();
        Object[] val = (Object[]) values.getArray();
        for (int i = 0; i < idx.length; i++) {
            if (idx[i] != null) { // the LEFT JOIN's one all-NULL row when the file has no values
                recorded.computeIfAbsent(((Number) idx[i]).intValue(), k -> new ArrayList<>())
                        .add((String) val[i]);
            }
        }
        return recorded;
    }

    /** The finding for one file, or null when its recorded values agree with its path (or cannot be checked). */
    static Finding check(long dataFileId, long tableId, String table, String path, List<Key> keys,
                         Map<Integer, List<String>> recorded) {
        HivePath hive = HivePath.of(path);
        Map<Integer, String> fromPath = new TreeMap<>();
        List<String> unreadable = new ArrayList<>();
        for (Key key : keys) {
            String value = key.pathNames().stream().map(hive::value).filter(Objects::nonNull).reduce((a, b) -> b)
                    .orElse(null);
            if (value == null) {
                unreadable.add(String.join("|", new TreeSet<>(key.pathNames())));
            } else {
                fromPath.put(key.index(), value);
            }
        }
        boolean wellFormed = recorded.size() == keys.size() && keys.stream()
                .allMatch(k -> recorded.getOrDefault(k.index(), List.of()).size() == 1);
        if (!unreadable.isEmpty()) {
            if (wellFormed) {
                return null; // complete and single-valued; nothing in the path to check it against
            }
            String problem = fromPath.isEmpty() ? "the path has no key=value segment for any partition key ("
                    + String.join(", ", unreadable) + ")"
                    : "the path has no key=value segment for " + String.join(", ", unreadable);
            return new Finding(dataFileId, tableId, table, path, recorded, Map.of(), problem);
        }
        boolean agrees = wellFormed && keys.stream()
                .allMatch(k -> fromPath.get(k.index()).equals(recorded.get(k.index()).get(0)));
        return agrees ? null : new Finding(dataFileId, tableId, table, path, recorded,
                Collections.unmodifiableMap(fromPath), null);
    }
}
