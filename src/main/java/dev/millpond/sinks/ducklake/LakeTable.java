package dev.millpond.sinks.ducklake;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

/** The DDL and catalog reads the sink runs against its one table, in the SQL shapes of COMPAT §5.2 and §5.4. */
final class LakeTable {

    private final Connection connection;
    private final String schema;
    private final String table;
    private final String qualified;

    LakeTable(Connection connection, String schema, String table) {
        this.connection = connection;
        this.schema = schema;
        this.table = table;
        this.qualified = "lake." + DuckLakeSql.ident(schema) + "." + DuckLakeSql.ident(table);
    }

    String qualified() {
        return qualified;
    }

    String displayName() {
        return schema + "." + table;
    }

    boolean exists() throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT 1 FROM information_schema.tables "
                + "WHERE table_catalog = 'lake' AND table_schema = ? AND table_name = ?")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** An empty schema when the table does not exist (yet). */
    LiveSchema readSchema() throws SQLException {
        Map<String, String> columns = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT column_name, data_type FROM information_schema.columns "
                + "WHERE table_catalog = 'lake' AND table_schema = ? AND table_name = ? ORDER BY ordinal_position")) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return LiveSchema.of(columns);
    }

    /** {@code columnDefinitions} is the DDL column list, e.g. {@code "a" BIGINT, "b" VARCHAR}. */
    void create(String columnDefinitions) throws SQLException {
        String columns = columnDefinitions.isEmpty() ? "" : columnDefinitions + ", ";
        Jdbc.execute(connection, "CREATE TABLE IF NOT EXISTS " + qualified + " (" + columns + "_inserted_at TIMESTAMPTZ)");
    }

    void setPartitionedBy(String expression) throws SQLException {
        Jdbc.execute(connection, "ALTER TABLE " + qualified + " SET PARTITIONED BY (" + expression + ")");
    }

    void addColumnIfNotExists(String name, String type) throws SQLException {
        Jdbc.execute(connection, "ALTER TABLE " + qualified + " ADD COLUMN IF NOT EXISTS " + DuckLakeSql.ident(name) + " " + type);
    }

    void setDataType(String name, String type) throws SQLException {
        Jdbc.execute(connection, "ALTER TABLE " + qualified + " ALTER COLUMN " + DuckLakeSql.ident(name) + " SET DATA TYPE " + type);
    }
}
