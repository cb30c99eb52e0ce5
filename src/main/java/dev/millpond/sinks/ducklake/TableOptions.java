package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.DuckLakeSql;
import dev.millpond.ducklake.Jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * A DuckLake option as it applies to the writer's table, and setting one on that table only: the writer's choices
 * (row groups, codec) are made for its own table, never lake-wide, where every other writer of the lake would inherit
 * them, and an operator's value for the table or its schema always stands.
 */
final class TableOptions {

    /**
     * @param own    the value set for the table or its schema (the table's wins), if any
     * @param global the lake-wide value, if one is set
     */
    record Scoped(Optional<String> own, Optional<String> global) {
    }

    private TableOptions() {
    }

    static Scoped read(Connection connection, String option, String schema, String table) throws SQLException {
        Optional<String> tableValue = Optional.empty();
        Optional<String> schemaValue = Optional.empty();
        Optional<String> global = Optional.empty();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT scope, value FROM lake.options() WHERE option_name = " + DuckLakeSql.literal(option)
                        + " AND (scope = 'GLOBAL' OR (scope = 'SCHEMA' AND scope_entry = "
                        + DuckLakeSql.literal(schema) + ") OR (scope = 'TABLE' AND scope_entry = "
                        + DuckLakeSql.literal(schema + "." + table) + "))")) {
            while (rs.next()) {
                Optional<String> value = Optional.of(rs.getString(2).strip());
                switch (rs.getString(1)) {
                    case "TABLE" -> tableValue = value;
                    case "SCHEMA" -> schemaValue = value;
                    default -> global = value;
                }
            }
        }
        return new Scoped(tableValue.isPresent() ? tableValue : schemaValue, global);
    }

    static void setOnTable(Connection connection, String option, String value, String schema, String table)
            throws SQLException {
        Jdbc.execute(connection, "CALL lake.set_option(" + DuckLakeSql.literal(option) + ", "
                + DuckLakeSql.literal(value) + ", schema => " + DuckLakeSql.literal(schema) + ", table_name => "
                + DuckLakeSql.literal(table) + ")");
    }
}
