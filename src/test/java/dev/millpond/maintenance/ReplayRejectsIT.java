package dev.millpond.maintenance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.LakeTopic;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged app sets wide records aside at its width bound; the bound is raised and the packaged
 * {@code ducklake-maintenance replay-rejects} runs, small batches at a time, and is killed with SIGKILL three times
 * in the middle, then run to the end. After every kill and at the end each produced record is exactly once in the
 * table or in the rejects table, every landed value as produced; at the end none is left a reject, and the lake
 * offsets are as the writer left them.
 */
class ReplayRejectsIT {

    private static final Path LOGS = Path.of("target", "e2e-logs");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern WRITING = Pattern.compile("replay-rejects: batch (\\d+): writing ");

    private final Random random = new Random(5);
    private final Random delays = new Random(6);
    private final Map<Long, ObjectNode> produced = new LinkedHashMap<>();

    @Test
    void everyRecordExactlyOnceAcrossTableAndRejectsThroughKillsDuringAReplay() throws Exception {
        LakeTopic setup = LakeTopic.create("replaykill", 2);
        // id, kind, n and _inserted_at, and two more: a record with three or more new keys is set aside.
        Map<String, String> env = setup.environment("FLUSH_INTERVAL_MS", "500", "MILLPOND_LOG_FORMAT", "text",
                "MILLPOND_MAX_TABLE_COLUMNS", "6");
        for (int p = 0; p < 2; p++) {
            List<byte[]> values = new ArrayList<>();
            for (int i = 0; i < 120; i++) {
                values.add(event(p * 1000L + i));
            }
            setup.produce(p, values);
        }
        try (AppProcess app = AppProcess.start(env, LOGS.resolve(setup.topic() + ".log"))) {
            app.awaitCommittedToEnd(setup.kafka(), setup.topic(), "millpond-" + setup.topic() + "-events",
                    Duration.ofMinutes(2));
            assertThat(app.stop(Duration.ofSeconds(60))).isZero();
        }
        long wide = produced.values().stream().filter(e -> e.has("w0")).count();
        assertThat(count(setup, "SELECT count(*) FROM lake.main._millpond_rejects WHERE reason = 'column_limit'"))
                .as("every wide record set aside").isEqualTo(wide).isGreaterThan(40);
        assertExactlyOnce(setup);
        List<String> offsets = rows(setup, "SELECT * FROM lake.main._millpond_offsets ORDER BY ALL");

        Map<String, String> raised = new HashMap<>(env);
        raised.put("MILLPOND_MAX_TABLE_COLUMNS", "100");
        raised.put("MILLPOND_DUCKDB_EXTENSION_DIR", AppProcess.extensionDirectory().toString());
        List<String> progress = new ArrayList<>();
        int kills = 0;
        int runs = 0;
        long partlyDone = 0;
        while (true) {
            runs++;
            assertThat(runs).as("runs until the replay completes").isLessThan(12);
            Path out = Files.createTempFile("replay", ".out");
            Path err = Files.createTempFile("replay", ".err");
            Process tool = start(raised, out, err, "replay-rejects", "--batch-size", "7");
            if (kills < 3) {
                // SIGKILL once the run is writing its second batch (the first has committed): the first time as soon
                // as an object of that batch is uploaded (before its commit, if the race is won), then at random.
                int writing = awaitWriting(tool, err, 2);
                if (writing >= 2) {
                    if (kills == 0) {
                        int objects = setup.lake().listDataFiles().size();
                        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                        while (setup.lake().listDataFiles().size() == objects && System.nanoTime() < until) {
                            Thread.onSpinWait();
                        }
                    } else {
                        Thread.sleep(delays.nextInt(400));
                    }
                    tool.destroyForcibly();
                    assertThat(tool.waitFor(60, TimeUnit.SECONDS)).isTrue();
                    kills++;
                    long left = count(setup, "SELECT count(*) FROM lake.main._millpond_rejects");
                    if (left > 0 && left < wide) {
                        partlyDone++;
                    }
                    progress.add("kill " + kills + " in run " + runs + ", writing batch " + lastWriting(err) + ": " + left
                            + " reject(s) left, " + uncommittedUploads(setup) + " upload(s) no snapshot references");
                    assertExactlyOnce(setup);
                    continue;
                }
            }
            assertThat(tool.waitFor(5, TimeUnit.MINUTES)).as("the replay ends").isTrue();
            String errText = Files.readString(err);
            if (tool.exitValue() == 1 && errText.contains("holding the advisory lock")) {
                Thread.sleep(1000); // the killed run's catalog session is still being torn down
                continue;
            }
            assertThat(tool.exitValue()).as(errText).isZero();
            assertThat(Files.readString(out)).contains("were rejected again", "0 were dropped");
            break;
        }
        System.out.println(produced.size() + " events, " + wide + " set aside, " + runs + " runs");
        progress.forEach(System.out::println);
        assertThat(kills).isEqualTo(3);
        assertThat(partlyDone).as("kills that left a replay part done").isPositive();
        assertThat(count(setup, "SELECT count(*) FROM lake.main._millpond_rejects")).as("no reject left").isZero();
        assertExactlyOnce(setup);
        assertThat(rows(setup, "SELECT * FROM lake.main._millpond_offsets ORDER BY ALL")).as("lake offsets untouched")
                .isEqualTo(offsets);
    }

    /** An event of the random shape: a third are wide, with three to six new keys. */
    private byte[] event(long id) {
        ObjectNode e = JSON.createObjectNode();
        e.put("id", id);
        e.put("kind", "k" + random.nextInt(3));
        e.put("n", random.nextGaussian() * 1e6);
        if (random.nextInt(3) == 0) {
            int keys = 3 + random.nextInt(4);
            for (int k = 0; k < keys; k++) {
                e.put("w" + k, random.nextLong());
            }
        }
        produced.put(id, e);
        return e.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Each produced record exactly once: a row of the table with every produced value, or a reject whose value is its
     * bytes; never both.
     */
    private void assertExactlyOnce(LakeTopic setup) throws Exception {
        Map<Long, Integer> seen = new HashMap<>();
        try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT * FROM lake.main.events")) {
                ResultSetMetaData md = rs.getMetaData();
                while (rs.next()) {
                    long id = rs.getLong("id");
                    seen.merge(id, 1, Integer::sum);
                    ObjectNode e = produced.get(id);
                    assertThat(e).as("id %d was produced", id).isNotNull();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        String column = md.getColumnName(i);
                        if (column.equals("_inserted_at")) {
                            continue;
                        }
                        JsonNode value = e.get(column);
                        Object expected = value == null ? null : value.isTextual() ? value.asText()
                                : value.isIntegralNumber() ? (Object) value.asLong() : (Object) value.asDouble();
                        assertThat(rs.getObject(i)).as("id %d, %s", id, column).isEqualTo(expected);
                    }
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT value FROM lake.main._millpond_rejects")) {
                while (rs.next()) {
                    String kept = new String(rs.getBytes(1), StandardCharsets.UTF_8);
                    long id = JSON.readTree(kept).get("id").asLong();
                    seen.merge(id, 1, Integer::sum);
                    assertThat(kept).as("reject %d whole, byte for byte", id).isEqualTo(produced.get(id).toString());
                }
            }
        }
        assertThat(seen.keySet()).containsExactlyInAnyOrderElementsOf(produced.keySet());
        assertThat(seen.values()).as("each record once").allMatch(n -> n == 1);
    }

    /** Objects under the data path no catalog row references: a batch killed after its upload, before its commit. */
    private static long uncommittedUploads(LakeTopic setup) throws Exception {
        java.util.Set<String> referenced = new java.util.HashSet<>();
        try (Connection pg = dev.millpond.testsupport.Services.postgres().connect(setup.lake().catalogDatabase())) {
            referenced.addAll(CatalogFiles.dataFiles(pg, false).values());
            referenced.addAll(CatalogFiles.deleteFiles(pg).values());
            CatalogFiles.scheduledForDeletion(pg).forEach(q -> referenced.add(q.absolutePath()));
        }
        return setup.lake().listDataFiles().stream()
                .filter(key -> !referenced.contains("s3://" + setup.lake().bucket() + "/" + key)).count();
    }

    private static Process start(Map<String, String> env, Path out, Path err, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of("tools", "ducklake-maintenance").toAbsolutePath().toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        pb.environment().put("MILLPOND_APP_DIR", Path.of("target", "quarkus-app").toAbsolutePath().toString());
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        return p;
    }

    /** Waits until the run is writing batch {@code batch} or has ended; returns the batch it is writing. */
    private static int awaitWriting(Process tool, Path err, int batch) throws Exception {
        Await.within(Duration.ofMinutes(3), "the run writing batch " + batch).pollInterval(Duration.ofMillis(10))
                .untilAsserted(() -> assertThat(!tool.isAlive() || lastWriting(err) >= batch)
                        .as("writing batch %d or ended; its log:%n%s", batch, Files.readString(err)).isTrue());
        return lastWriting(err);
    }

    private static int lastWriting(Path err) throws Exception {
        int writing = 0;
        Matcher m = WRITING.matcher(Files.readString(err));
        while (m.find()) {
            writing = Math.max(writing, Integer.parseInt(m.group(1)));
        }
        return writing;
    }

    private static long count(LakeTopic setup, String sql) throws Exception {
        try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<String> rows(LakeTopic setup, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
    }
}
