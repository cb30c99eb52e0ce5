package dev.millpond.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.millpond.testsupport.events.VariantPostHogEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.LakeTopic;
import dev.millpond.testsupport.MemoryCgroup;
import dev.millpond.testsupport.PodShape;
import dev.millpond.testsupport.VariantOracle;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * VARIANT dual-write of two companions as the pod runs it: the packaged app inside a memory cgroup at the StatefulSet's
 * limit with the image's {@code JAVA_OPTS} and environment, on PostHog-shaped events one in eight of which is hostile
 * (window integers, deep values under keys of their own, text that is not JSON, companion-name collisions in random
 * case). Every row whose source is JSON has both companions, equal to it; every event is once in the table or, when
 * its casing of a column name came past the per-flush width bound, in the rejects table; no string-only fallback;
 * the cgroup's peak stays under 768 MiB and it never hits its limit.
 */
class VariantAtPodLimitsIT {

    private static final int PARTITIONS = 8;
    private static final int EVENTS = Integer.getInteger("variant.events", 24_000);
    private static final List<String> SOURCES = List.of("properties", "person_properties");

    @Test
    void twoCompanionsOfHostilePostHogEventsAreAllWrittenInsideThePod() throws Exception {
        PodShape pod = PodShape.read(Path.of(""));
        LakeTopic setup = LakeTopic.create("variantpod", PARTITIONS);
        for (int p = 0; p < PARTITIONS; p++) {
            List<byte[]> values = new ArrayList<>();
            for (long id = p; id < EVENTS; id += PARTITIONS) {
                values.add(VariantPostHogEvents.event(id));
            }
            setup.produce(p, values);
        }
        Map<String, String> env = new HashMap<>(pod.processEnvironment());
        env.putAll(setup.environment("FLUSH_INTERVAL_MS", "3000"));
        env.remove("MILLPOND_DUCKDB_EXTENSION_DIR"); // the image's path; AppProcess gives the local copy
        env.put("MILLPOND_VARIANT_COLUMNS", String.join(",", SOURCES));
        // The pod reads its limit from its own cgroup; here the app would read the host's root group, so say it.
        env.put("MILLPOND_MEMORY_LIMIT", Long.toString(pod.memoryLimitBytes()));
        String scrape;
        try (MemoryCgroup cgroup = MemoryCgroup.create("millpond-variant-it-" + ProcessHandle.current().pid(),
                pod.memoryLimitBytes())) {
            try (AppProcess app = AppProcess.startInCgroup(env, DuckLakeEndToEndIT.LOGS.resolve(setup.topic() + ".log"),
                    pod.jvmOptions(), cgroup.tasks())) {
                Map<Integer, Long> end = setup.endOffsets();
                app.await("every partition committed to its end", Duration.ofMinutes(8), () -> {
                    if (!app.isAlive()) {
                        throw new AssertionError("the app exited on its own\n" + app.logTail());
                    }
                    return setup.committedOffsets("millpond-" + setup.topic() + "-events").equals(end);
                });
                scrape = app.metrics();
                app.stop(Duration.ofSeconds(60));
            }
            System.out.printf("[variant-pod] %d events, cgroup peak %d MiB of %s, failcnt %d%n", EVENTS,
                    cgroup.maxUsageBytes() >> 20, pod.memoryLimitText(), cgroup.failCount());
            assertThat(cgroup.failCount()).as("charges refused at the pod's limit").isZero();
            assertThat(cgroup.maxUsageBytes()).as("cgroup peak").isLessThanOrEqualTo(768L << 20);
        }

        int checked = 0;
        long rows;
        List<String> wrong = new ArrayList<>();
        try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement()) {
            for (String source : SOURCES) {
                try (ResultSet rs = s.executeQuery("SELECT uuid, " + source + ", " + source + "_variant IS NULL, "
                        + source + "_variant::JSON FROM lake.main.events")) {
                    while (rs.next()) {
                        String text = rs.getString(2);
                        String companion = rs.getBoolean(3) ? null : rs.getString(4);
                        Optional<JsonNode> expected = VariantOracle.expected(text);
                        boolean ok = expected.isEmpty() ? companion == null
                                : companion != null && VariantOracle.matches(expected.get(), VariantOracle.parse(companion));
                        if (!ok && wrong.size() < 20) {
                            wrong.add(rs.getString(1) + " " + source + ": " + text + " -> " + companion);
                        }
                        checked += ok ? 1 : 0;
                    }
                }
            }
            // Keys in ever new casings of a column name (1 event in 64) are new columns of the flush's buffer: past
            // the per-flush bound their records are set aside whole, kept in the rejects table with their reason.
            try (ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT uuid),"
                    + " (SELECT count(*) FROM lake.main._millpond_rejects),"
                    + " (SELECT count(*) FROM lake.main._millpond_rejects WHERE reason <> 'column_limit'"
                    + "   OR NOT regexp_matches(decode(value), '\"[a-z_]+_variant\"', 'i')),"
                    + " (SELECT count(*) FROM lake.main.events e JOIN lake.main._millpond_rejects r"
                    + "   ON json_extract_string(decode(r.value), '$.uuid') = e.uuid)"
                    + " FROM lake.main.events")) {
                rs.next();
                rows = rs.getLong(1);
                assertThat(rows).as("rows").isEqualTo(rs.getLong(2));
                assertThat(rows + rs.getLong(3)).as("rows and rejects").isEqualTo(EVENTS);
                assertThat(rs.getLong(4)).as("rejects for another reason than a casing past the bound").isZero();
                assertThat(rs.getLong(5)).as("records both landed and set aside").isZero();
                assertThat(rs.getLong(3)).as("set aside").isLessThan(EVENTS / 64);
            }
        }
        assertThat(wrong).as("companions that are not their source's JSON").isEmpty();
        assertThat(checked).isEqualTo(2 * rows);
        assertThat(AppProcess.metricIn(scrape, "millpond_variant_write_fallback_total").orElse(-1.0)).isZero();
        assertThat(AppProcess.metricIn(scrape, "millpond_variant_values_coerced_total").orElse(0.0)).isPositive();
        assertThat(scrape).doesNotContain("millpond_variant_companions_nulled_total{");
    }
}
