package dev.millpond.ducklake;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Statement helpers for a DuckDB connection, for the sink and the tools alike. DuckDB JDBC closes a Statement after it
 * throws, so every statement gets a fresh one.
 */
public final class Jdbc {

    private Jdbc() {
    }

    public static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    public static long update(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            return s.executeUpdate(sql);
        }
    }

    /** Every column of the single row {@code sql} returns, as longs (SQL NULL reads as 0). */
    public static long[] queryLongs(Connection c, String sql, int columns) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            long[] values = new long[columns];
            if (rs.next()) {
                for (int i = 0; i < columns; i++) {
                    values[i] = rs.getLong(i + 1);
                }
            }
            return values;
        }
    }

    public static String queryString(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
