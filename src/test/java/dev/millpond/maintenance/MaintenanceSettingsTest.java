package dev.millpond.maintenance;

import dev.millpond.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The tools read the catalog variables with the writer's rules, and reach Postgres through typed properties. */
class MaintenanceSettingsTest {

    private static Map<String, String> env(String... kv) {
        Map<String, String> env = new HashMap<>(Map.of("DUCKLAKE_DATA_PATH", "s3://b/lake/",
                "DUCKLAKE_RDS_HOST", "pg.internal", "DUCKLAKE_RDS_PASSWORD", "pg-secret",
                "DUCKDB_S3_ACCESS_KEY_ID", "AKIA", "DUCKDB_S3_SECRET_ACCESS_KEY", "s3-secret"));
        for (int i = 0; i < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        return env;
    }

    @Test
    void aDatabaseNameThatLooksLikeDriverParametersStaysADatabaseName() {
        String database = "lake?socketFactory=java.lang.String&sslmode=disable";
        var ds = MaintenanceSettings.fromEnvironment(env("DUCKLAKE_RDS_DATABASE", database,
                "DUCKLAKE_RDS_SSLMODE", "require")).catalogDataSource("test");
        assertThat(ds.getDatabaseName()).isEqualTo(database);
        assertThat(ds.getSocketFactory()).isNull();
        assertThat(ds.getSslmode()).isEqualTo("require");
        assertThat(ds.getServerNames()).containsExactly("pg.internal");
        assertThat(ds.getPortNumbers()).containsExactly(5432);
    }

    @Test
    void theCatalogSessionGivesUpConnectingAfterTenSecondsAndKeepsItsConnectionProbed() {
        var ds = MaintenanceSettings.fromEnvironment(env()).catalogDataSource("test");
        assertThat(ds.getConnectTimeout()).isEqualTo(10);
        assertThat(ds.getTcpKeepAlive()).isTrue();
        assertThat(MaintenanceSettings.fromEnvironment(env()).attachment().catalog().attachTarget())
                .as("the tools' DuckDB attachment, as the writer's")
                .contains(" connect_timeout=10 keepalives=1 keepalives_idle=30");
    }

    @Test
    void hostAndPortFollowTheWritersRules() {
        assertThat(MaintenanceSettings.fromEnvironment(env("DUCKLAKE_RDS_HOST", "[fd00::7]", "DUCKLAKE_RDS_PORT", "6432"))
                .catalogDataSource("test").getServerNames()).containsExactly("[fd00::7]");
        assertThatThrownBy(() -> MaintenanceSettings.fromEnvironment(env("DUCKLAKE_RDS_PORT",
                "5432/x?socketFactory=java.lang.String"))).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("DUCKLAKE_RDS_PORT must be an integer");
        assertThatThrownBy(() -> MaintenanceSettings.fromEnvironment(env("DUCKLAKE_RDS_HOST", "db sslmode=disable")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DUCKLAKE_RDS_HOST must be a DNS name");
        assertThatThrownBy(() -> MaintenanceSettings.fromEnvironment(env("DUCKLAKE_CONNECTION", "x.db;threads=1")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DUCKLAKE_CONNECTION must be");
    }
}
