package dev.millpond.maintenance;

import dev.millpond.maintenance.PartitionValueRepair.Finding;
import dev.millpond.maintenance.PartitionValueRepair.Key;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** How one file's recorded partition values are checked against its path (no catalog needed). */
class PartitionValueCheckTest {

    private static final String ALPHABET = "abcXYZ019 /=+%&?é😀_-.";

    private static String randomValue(Random random) {
        StringBuilder s = new StringBuilder();
        int n = 1 + random.nextInt(8);
        for (int i = 0; i < n; i++) {
            s.appendCodePoint(ALPHABET.codePoints().toArray()[random.nextInt((int) ALPHABET.codePoints().count())]);
        }
        return s.toString();
    }

    /** Percent-encodes every byte outside [A-Za-z0-9_.-], as a hive writer may. */
    private static String encode(String value) {
        StringBuilder s = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (Character.isLetterOrDigit(c) && c < 128 || c == '_' || c == '.' || c == '-') {
                s.append(c);
            } else {
                s.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return s.toString();
    }

    @Test
    void agreeingValuesPassAndAnyDamageIsRepairedToThePathsValues() {
        Random random = new Random(20261201);
        for (int trial = 0; trial < 500; trial++) {
            int n = 1 + random.nextInt(4);
            List<Key> keys = new ArrayList<>();
            Map<Integer, String> truth = new TreeMap<>();
            StringBuilder path = new StringBuilder(random.nextBoolean() ? "" : "s3://bucket/lake/main/t/");
            for (int i = 0; i < n; i++) {
                String name = i < 2 && random.nextBoolean() ? (i == 0 ? "year" : "month") : "col_" + i;
                keys.add(new Key(i, Set.of(name)));
                String value = name.equals("year") ? "2026" : name.equals("month") ? "" + (1 + random.nextInt(12))
                        : randomValue(random);
                truth.put(i, value);
                path.append(random.nextBoolean() ? name : name.toUpperCase()).append('=').append(encode(value))
                        .append('/');
            }
            path.append("ducklake-").append(trial).append(".parquet");

            Map<Integer, List<String>> recorded = new TreeMap<>();
            truth.forEach((i, v) -> recorded.put(i, new ArrayList<>(List.of(v))));
            assertThat(PartitionValueRepair.check(1, 2, "main.t", path.toString(), keys, recorded))
                    .as("%s %s", path, truth).isNull();

            int damaged = random.nextInt(n);
            switch (random.nextInt(4)) {
                case 0 -> recorded.remove(damaged);
                case 1 -> recorded.get(damaged).set(0, recorded.get(damaged).get(0) + "x");
                case 2 -> recorded.get(damaged).add("other");
                default -> recorded.put(n + random.nextInt(3), new ArrayList<>(List.of("stray")));
            }
            Finding f = PartitionValueRepair.check(1, 2, "main.t", path.toString(), keys, recorded);
            assertThat(f).isNotNull();
            assertThat(f.repairable()).isTrue();
            assertThat(f.fromPath()).isEqualTo(truth);
        }
    }

    @Test
    void aPathWithoutTheSegmentsCannotRepairButDoesNotFlagCompleteValues() {
        List<Key> keys = List.of(new Key(0, Set.of("year")), new Key(1, Set.of("region", "area")));
        Map<Integer, List<String>> complete = Map.of(0, List.of("2026"), 1, List.of("eu"));
        assertThat(PartitionValueRepair.check(1, 2, "main.t", "flat.parquet", keys, complete)).isNull();

        Finding none = PartitionValueRepair.check(1, 2, "main.t", "flat.parquet", keys, Map.of());
        assertThat(none.repairable()).isFalse();
        assertThat(none.problem()).isEqualTo("the path has no key=value segment for any partition key (year, "
                + "area|region)");
        Finding partial = PartitionValueRepair.check(1, 2, "main.t", "year=2026/x.parquet", keys, Map.of());
        assertThat(partial.problem()).isEqualTo("the path has no key=value segment for area|region");
        // A renamed identity column: the path keeps the name it had when the file was written.
        assertThat(PartitionValueRepair.check(1, 2, "main.t", "year=2026/area=eu/x.parquet", keys, Map.of()).fromPath())
                .isEqualTo(Map.of(0, "2026", 1, "eu"));
        // Hive's NULL directory is no value.
        assertThat(PartitionValueRepair.check(1, 2, "main.t", "year=2026/region=__HIVE_DEFAULT_PARTITION__/x.parquet",
                keys, Map.of()).repairable()).isFalse();
    }

    @Test
    void percentDecodingKeepsPlusAndMalformedEscapes() {
        assertThat(HivePath.percentDecode("us%2Feast%2B1+2")).isEqualTo("us/east+1+2");
        assertThat(HivePath.percentDecode("%C3%A9t%C3%A9")).isEqualTo("été");
        assertThat(HivePath.percentDecode("100%")).isEqualTo("100%");
        assertThat(HivePath.percentDecode("%zz%4")).isEqualTo("%zz%4");
        assertThat(HivePath.of("a=1/b=2/a=3/file.parquet").value("A")).isEqualTo("3");
        assertThat(HivePath.of("x=1.parquet").segments()).isEmpty();
    }
}
