package dev.millpond.demo;

import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.Postgres;
import dev.millpond.testsupport.events.SampleEvents;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The embedded default behind the README's first command: a local Kafka broker and a local PostgreSQL catalog are
 * started in this JVM, sample events are produced, and the packaged millpond runs against them exactly as it would in
 * Kubernetes (same jar, same environment variables), writing parquet to a local directory. Then the table is queried
 * with DuckDB and printed. Lives under src/test: none of it ships in the application.
 */
public final class DemoMain {

    static final String TOPIC = "events";
    static final String TABLE = "events";
    static final int PARTITIONS = 4;
    static final int EVENTS = 20_000;

    public static void main(String[] args) throws Exception {
        // `-Ddemo.variant=properties` on the Maven command line: dual-write that column into a VARIANT companion.
        String variantColumn = System.getProperty("millpond.demo.variant", "").strip();
        if (!variantColumn.isEmpty() && !variantColumn.equals("properties")) {
            throw new IllegalArgumentException("-Ddemo.variant: the demo's events carry one JSON object column, "
                    + "properties; got '" + variantColumn + "'");
        }
        Path dir = Path.of(System.getProperty("millpond.demo.dir", "target/demo")).toAbsolutePath();
        Path data = dir.resolve("lake");
        Files.createDirectories(data);
        say("demo directory: " + dir);
        try (KafkaBroker kafka = KafkaBroker.start(); Postgres postgres = Postgres.start()) {
            say("Kafka broker on " + kafka.bootstrapServers() + ", PostgreSQL catalog on " + postgres.host() + ":"
                    + postgres.port());
            String catalogDb = "ducklake_demo";
            postgres.createDatabase(catalogDb);
            kafka.createTopic(TOPIC, PARTITIONS);
            for (int p = 0; p < PARTITIONS; p++) {
                List<byte[]> values = SampleEvents.events((long) p * EVENTS, EVENTS / PARTITIONS);
                if (p == 0) {
                    values.add("{not json".getBytes(StandardCharsets.UTF_8));
                }
                kafka.produce(TOPIC, p, values);
            }
            say("produced " + EVENTS + " events (+1 malformed) to topic '" + TOPIC + "' (" + PARTITIONS + " partitions)");

            Map<String, String> env = new HashMap<>();
            env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
            env.put("KAFKA_TOPIC", TOPIC);
            env.put("REPLICA_COUNT", "1");
            env.put("POD_NAME", "millpond-0");
            env.put("FLUSH_INTERVAL_MS", "2000");
            env.put("DUCKLAKE_TABLE", TABLE);
            env.put("DUCKLAKE_DATA_PATH", data + "/");
            env.put("DUCKLAKE_CONNECTION", ":memory:");
            env.put("DUCKLAKE_RDS_HOST", postgres.host());
            env.put("DUCKLAKE_RDS_PORT", Integer.toString(postgres.port()));
            env.put("DUCKLAKE_RDS_DATABASE", catalogDb);
            env.put("DUCKLAKE_RDS_USERNAME", postgres.user());
            env.put("DUCKLAKE_RDS_PASSWORD", postgres.password());
            // Required by the DuckLake config even when DATA_PATH is local; unused for a local directory.
            env.put("DUCKDB_S3_ACCESS_KEY_ID", "unused");
            env.put("DUCKDB_S3_SECRET_ACCESS_KEY", "unused");
            if (!variantColumn.isEmpty()) {
                env.put("MILLPOND_VARIANT_COLUMNS", variantColumn);
                say("MILLPOND_VARIANT_COLUMNS=" + variantColumn + ": dual-writing it into " + variantColumn + "_variant");
            }
            Path log = dir.resolve("millpond.log");
            Files.deleteIfExists(log);
            try (AppProcess app = AppProcess.start(env, log)) {
                say("millpond started (log: " + log + "), http://127.0.0.1:" + app.port() + "/metrics");
                long started = System.nanoTime();
                double[] shown = {-1};
                app.await("all events written", Duration.ofMinutes(5), () -> {
                    double written = app.metric("millpond_records_written_total").orElse(0);
                    if (written != shown[0]) {
                        shown[0] = written;
                        say(String.format("  written %,.0f / %,d", written, EVENTS));
                    }
                    return written >= EVENTS;
                });
                double seconds = (System.nanoTime() - started) / 1e9;
                say("readyz: " + app.get("/readyz").body().trim());
                say(String.format("all %,d events landed in %.1fs; skipped as unparseable: %.0f", EVENTS, seconds,
                        app.metric("millpond_records_skipped_total", "reason", "json_parse").orElse(0)));
                int code = app.stop(Duration.ofSeconds(60));
                say("millpond stopped on SIGTERM with exit code " + code);
            }
            query(postgres, catalogDb, data, variantColumn);
        }
    }

    private static void query(Postgres postgres, String catalogDb, Path data, String variantColumn) throws Exception {
        String attach = "ATTACH 'ducklake:postgres:host=" + postgres.host() + " port=" + postgres.port() + " dbname="
                + catalogDb + " user=" + postgres.user() + " password=" + postgres.password() + "' AS lake (DATA_PATH '"
                + data + "/')";
        Properties props = new Properties();
        props.setProperty("extension_directory", AppProcess.extensionDirectory().toString());
        props.setProperty("autoinstall_known_extensions", "false");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:", props); Statement s = c.createStatement()) {
            s.execute("LOAD ducklake");
            s.execute("LOAD postgres");
            s.execute(attach);
            print(s, "SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids, min(_inserted_at) AS first_flush, "
                    + "max(_inserted_at) AS last_flush FROM lake.main.events");
            print(s, "SELECT column_name, data_type FROM information_schema.columns WHERE table_catalog = 'lake' "
                    + "AND table_name = 'events' ORDER BY ordinal_position");
            print(s, "SELECT event, count(*) AS n, round(avg(amount), 2) AS avg_amount FROM lake.main.events "
                    + "GROUP BY event ORDER BY n DESC");
            print(s, "SELECT id, event, team_id, amount, properties FROM lake.main.events ORDER BY id LIMIT 3");
            if (!variantColumn.isEmpty()) {
                showVariant(s);
            }
        }
        say("parquet files are under " + data);
        say("to query a lake like this yourself with DuckDB 1.5.5 (extensions ducklake + postgres):");
        System.out.println("    " + attach + ";");
        System.out.println("    SELECT event, count(*) FROM lake.main.events GROUP BY event;");
    }

    /**
     * The same question asked of the text column and of its VARIANT companion, and what DuckDB wrote into the parquet
     * file for the companion: a shredded, typed column per common key next to the untyped rest.
     */
    private static void showVariant(Statement s) throws Exception {
        say("the same question of the JSON text and of the VARIANT companion:");
        print(s, "SELECT json_extract_string(properties, '$.\"$browser\"') AS browser, count(*) AS n "
                + "FROM lake.main.events GROUP BY 1 ORDER BY n DESC, 1");
        print(s, "SELECT properties_variant.\"$browser\"::VARCHAR AS browser, count(*) AS n "
                + "FROM lake.main.events GROUP BY 1 ORDER BY n DESC, 1");
        String file;
        try (ResultSet rs = s.executeQuery("SELECT data_file FROM ducklake_list_files('lake', 'events') "
                + "ORDER BY data_file LIMIT 1")) {
            if (!rs.next()) {
                say("no data file (every flush was inlined into the catalog)");
                return;
            }
            file = rs.getString(1);
        }
        say("the companion's columns in " + file + ":");
        print(s, "SELECT path_in_schema, type, count(*) AS row_groups FROM parquet_metadata('" + file.replace("'", "''")
                + "') WHERE path_in_schema LIKE 'properties_variant%' GROUP BY ALL ORDER BY path_in_schema");
    }

    private static void print(Statement s, String sql) throws Exception {
        System.out.println();
        System.out.println("duckdb> " + sql);
        try (ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            StringBuilder header = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                header.append(i > 1 ? " | " : "").append(md.getColumnLabel(i));
            }
            System.out.println(header);
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.append(i > 1 ? " | " : "").append(rs.getString(i));
                }
                System.out.println(row);
            }
        }
        System.out.println();
    }

    private static void say(String line) {
        System.out.println("[demo] " + line);
    }
}
