package dev.millpond.testsupport;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Small JDBC conveniences for DuckDB. Each call uses its own {@link Statement} because the DuckDB
 * driver closes a statement after it throws, so a shared one would break every later call.
 */
public final class DuckDbSql {

    private DuckDbSql() {
    }

    public static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** The first column of the single row {@code sql} returns, as a long. */
    public static long queryLong(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            if (!rows.next()) {
                throw new SQLException("no row from: " + sql);
            }
            return rows.getLong(1);
        }
    }

    /** Quotes a value as a SQL string literal. */
    static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }
}
