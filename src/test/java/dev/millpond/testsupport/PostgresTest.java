package dev.millpond.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.Test;

@ServiceBacked
class PostgresTest {

    @Test
    void aCreatedDatabaseAcceptsConnectionsOnLoopback() throws SQLException {
        Postgres postgres = Services.postgres();
        String database = Services.uniqueName("pgsmoke");
        postgres.createDatabase(database);

        try (Connection connection = postgres.connect(database); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE t (id int)");
            statement.execute("INSERT INTO t VALUES (1), (2)");
            try (ResultSet rows = statement.executeQuery(
                    "SELECT current_database(), (SELECT count(*) FROM t), inet_server_addr()::text, current_setting('server_version_num')::int")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString(1)).isEqualTo(database);
                assertThat(rows.getLong(2)).isEqualTo(2);
                assertThat(rows.getString(3)).startsWith("127.0.0.1");
                assertThat(rows.getInt(4)).isBetween(170000, 179999);
            }
        }
        assertThat(postgres.jdbcUrl(database)).isEqualTo("jdbc:postgresql://127.0.0.1:" + postgres.port() + "/" + database);
    }
}
