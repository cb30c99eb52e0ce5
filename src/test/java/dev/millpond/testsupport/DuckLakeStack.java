package dev.millpond.testsupport;

import dev.millpond.ducklake.CatalogLocation;
import dev.millpond.ducklake.S3Setting;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fresh DuckLake on the real stack: its own catalog database in {@link Postgres} and its own
 * bucket in {@link S3Server}. It provides the environment millpond reads its DuckLake settings from
 * and a DuckDB connection that attaches the same lake the way an engineer would to inspect it.
 *
 * <p>DuckDB S3 settings against s3proxy, measured with DuckDB 1.4.4 and httpfs from the PyPI wheel
 * (each "required" one was removed in turn and the write failed as described); DuckDB 1.5.5 takes the same set:
 * <ul>
 *   <li>{@code s3_endpoint='127.0.0.1:port'}: host and port only. With a scheme DuckDB builds
 *       {@code http://http://127.0.0.1%3Aport/...} and cannot connect. Required.</li>
 *   <li>{@code s3_use_ssl=false}: selects http; without it DuckDB speaks TLS to the plain port
 *       ("SSL connection failed"). Required.</li>
 *   <li>{@code s3_url_style='path'}: s3proxy serves {@code /bucket/key}; the default virtual-host
 *       style addresses {@code bucket.127.0.0.1:port}, which does not resolve. Required.</li>
 *   <li>{@code s3_access_key_id} / {@code s3_secret_access_key}: s3proxy checks signatures; a wrong
 *       secret gives HTTP 403. Required.</li>
 *   <li>{@code s3_region}: s3proxy accepts any region in the signature, so this is set only to
 *       mirror {@code DUCKDB_S3_REGION}; real S3 does check it.</li>
 * </ul>
 * The legacy {@code SET s3_*} settings are used rather than {@code CREATE SECRET} because they
 * map one to one onto the {@code DUCKDB_S3_*} variables. Data files land under
 * {@code <data path>main/<table>/ducklake-<uuid>.parquet}.
 */
public final class DuckLakeStack {

    /** Alias under which {@link #openQueryConnection()} attaches the lake. */
    public static final String CATALOG_ALIAS = "lake";

    private final Postgres postgres;
    private final S3Server s3;
    private final String catalogDatabase;
    private final String bucket;
    private final String dataPrefix;

    private DuckLakeStack(Postgres postgres, S3Server s3, String catalogDatabase, String bucket, String dataPrefix) {
        this.postgres = postgres;
        this.s3 = s3;
        this.catalogDatabase = catalogDatabase;
        this.bucket = bucket;
        this.dataPrefix = dataPrefix;
    }

    /** Creates a new, empty catalog database and bucket; the DuckLake itself is initialised on first ATTACH. */
    public static DuckLakeStack create(Postgres postgres, S3Server s3) {
        String name = Services.uniqueName("ducklake");
        postgres.createDatabase(name);
        s3.createBucket(name);
        return new DuckLakeStack(postgres, s3, name, name, "lake/");
    }

    public String catalogDatabase() {
        return catalogDatabase;
    }

    public String bucket() {
        return bucket;
    }

    /** Key prefix of the data files inside {@link #bucket()}, ending in '/'. */
    public String dataPrefix() {
        return dataPrefix;
    }

    /** {@code s3://bucket/prefix/} */
    public String dataPath() {
        return "s3://" + bucket + "/" + dataPrefix;
    }

    /** Object keys under the data path, e.g. to assert that Parquet files were written. */
    public List<String> listDataFiles() {
        return s3.listKeys(bucket, dataPrefix);
    }

    /** The environment variables millpond reads its DuckLake configuration from. */
    public Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("DUCKLAKE_RDS_HOST", postgres.host());
        env.put("DUCKLAKE_RDS_PORT", String.valueOf(postgres.port()));
        env.put("DUCKLAKE_RDS_DATABASE", catalogDatabase);
        env.put("DUCKLAKE_RDS_USERNAME", postgres.user());
        env.put("DUCKLAKE_RDS_PASSWORD", postgres.password());
        env.put("DUCKLAKE_DATA_PATH", dataPath());
        env.put("DUCKLAKE_CONNECTION", ":memory:");
        env.put("DUCKDB_S3_ENDPOINT", s3.endpoint());
        env.put("DUCKDB_S3_ACCESS_KEY_ID", s3.accessKeyId());
        env.put("DUCKDB_S3_SECRET_ACCESS_KEY", s3.secretAccessKey());
        env.put("DUCKDB_S3_USE_SSL", "false");
        env.put("DUCKDB_S3_URL_STYLE", "path");
        env.put("DUCKDB_S3_REGION", s3.region());
        return env;
    }

    /** The DuckDB S3 settings a sink built in process gets for this lake: the ones {@link #environment()} names. */
    public List<S3Setting> s3Settings() {
        Map<String, String> env = environment();
        return List.of(
                new S3Setting("s3_endpoint", env.get("DUCKDB_S3_ENDPOINT")),
                new S3Setting("s3_access_key_id", env.get("DUCKDB_S3_ACCESS_KEY_ID")),
                new S3Setting("s3_secret_access_key", env.get("DUCKDB_S3_SECRET_ACCESS_KEY")),
                new S3Setting("s3_use_ssl", env.get("DUCKDB_S3_USE_SSL")),
                new S3Setting("s3_url_style", env.get("DUCKDB_S3_URL_STYLE")),
                new S3Setting("s3_region", env.get("DUCKDB_S3_REGION")));
    }

    /** The catalog a sink built in process is told: this lake's Postgres database. */
    public CatalogLocation.Postgres catalog() {
        Map<String, String> env = environment();
        return new CatalogLocation.Postgres(env.get("DUCKLAKE_RDS_HOST"), env.get("DUCKLAKE_RDS_PORT"),
                env.get("DUCKLAKE_RDS_DATABASE"), env.get("DUCKLAKE_RDS_USERNAME"), env.get("DUCKLAKE_RDS_PASSWORD"));
    }

    /** libpq key/value string for the catalog; names are plain identifiers, so no quoting is needed. */
    public String catalogConnectionString() {
        return "host=" + postgres.host() + " port=" + postgres.port() + " dbname=" + catalogDatabase
                + " user=" + postgres.user() + " password=" + postgres.password();
    }

    /** The S3 settings and the ATTACH of {@link #openQueryConnection()}, for a DuckDB with the extensions loaded. */
    public List<String> sessionSetup() {
        return List.of(
                "SET s3_endpoint=" + DuckDbSql.literal(s3.endpoint()),
                "SET s3_access_key_id=" + DuckDbSql.literal(s3.accessKeyId()),
                "SET s3_secret_access_key=" + DuckDbSql.literal(s3.secretAccessKey()),
                "SET s3_use_ssl=false",
                "SET s3_url_style='path'",
                "SET s3_region=" + DuckDbSql.literal(s3.region()),
                "ATTACH " + DuckDbSql.literal("ducklake:postgres:" + catalogConnectionString()) + " AS "
                        + CATALOG_ALIAS + " (DATA_PATH " + DuckDbSql.literal(dataPath()) + ")");
    }

    /**
     * A new in-memory DuckDB connection with the lake attached as {@value #CATALOG_ALIAS}, for
     * creating tables in tests and for reading back what millpond wrote. The caller closes it.
     */
    public Connection openQueryConnection() throws SQLException {
        Connection connection = DuckDbExtensions.openInMemory();
        try {
            for (String sql : sessionSetup()) {
                DuckDbSql.execute(connection, sql);
            }
            return connection;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }
}
