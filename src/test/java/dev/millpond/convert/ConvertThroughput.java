package dev.millpond.convert;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Not a test: prints JsonToArrow throughput on generated ~1 KB PostHog-like events.
 *
 * <pre>
 * ./mvnw -o -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java --add-opens=java.base/java.nio=ALL-UNNAMED -cp target/classes:target/test-classes:$(cat target/cp.txt) \
 *     dev.millpond.convert.ConvertThroughput [records=200000] [batch=1000] [rounds=5]
 *
 * Measured 2026-11-29 on the 2-core dev machine (load average 5-11 from other builds): about 260k-290k
 * records/s warm (~300 MB/s of JSON), batch 1000 or 10000.
 * </pre>
 */
public final class ConvertThroughput {
    private ConvertThroughput() {}

    public static void main(String[] args) {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int batchSize = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        List<byte[]> events = events(records, new Random(20261129));
        long totalBytes = 0;
        for (byte[] e : events) {
            totalBytes += e.length;
        }
        System.out.printf("%d events, %.0f bytes average, poll batches of %d%n",
                records, (double) totalBytes / records, batchSize);
        try (BufferAllocator allocator = new RootAllocator()) {
            JsonToArrow converter = new JsonToArrow(allocator);
            for (int round = 0; round < rounds; round++) {
                long rows = 0;
                long nbytes = 0;
                long start = System.nanoTime();
                for (int from = 0; from < records; from += batchSize) {
                    List<byte[]> batch = events.subList(from, Math.min(records, from + batchSize));
                    try (ConvertedBatch b = converter.convert(batch)) {
                        rows += b.rows();
                        nbytes += b.nbytes();
                    }
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf("round %d: %,.0f records/s, %.0f MB/s of JSON (%d rows, %,d Arrow bytes)%n",
                        round, rows / seconds, totalBytes / seconds / 1e6, rows, nbytes);
            }
        }
    }

    private static final String[] EVENTS = {"$pageview", "$autocapture", "$identify", "signed_up", "$pageleave", "clicked_button"};
    private static final String[] BROWSERS = {"Chrome", "Firefox", "Safari", "Edge"};
    private static final String[] OS = {"Mac OS X", "Windows", "Linux", "iOS", "Android"};

    static List<byte[]> events(int n, Random random) {
        List<byte[]> out = new ArrayList<>(n);
        StringBuilder sb = new StringBuilder(1200);
        for (int i = 0; i < n; i++) {
            sb.setLength(0);
            long ts = 1_764_000_000_000L + random.nextInt(86_400_000);
            sb.append("{\"uuid\":\"").append(new UUID(random.nextLong(), random.nextLong())).append('"');
            sb.append(",\"event\":\"").append(EVENTS[random.nextInt(EVENTS.length)]).append('"');
            sb.append(",\"distinct_id\":\"user-").append(random.nextInt(1_000_000)).append('"');
            sb.append(",\"team_id\":").append(random.nextInt(5000));
            sb.append(",\"timestamp\":\"2026-11-29 ").append(String.format("%02d:%02d:%02d.%03d",
                    random.nextInt(24), random.nextInt(60), random.nextInt(60), random.nextInt(1000))).append('"');
            sb.append(",\"created_at\":").append(ts);
            sb.append(",\"person_id\":\"").append(new UUID(random.nextLong(), random.nextLong())).append('"');
            sb.append(",\"properties\":{");
            sb.append("\"$browser\":\"").append(BROWSERS[random.nextInt(BROWSERS.length)]).append('"');
            sb.append(",\"$browser_version\":").append(100 + random.nextInt(40));
            sb.append(",\"$os\":\"").append(OS[random.nextInt(OS.length)]).append('"');
            sb.append(",\"$current_url\":\"https://app.example.com/project/").append(random.nextInt(10000))
                    .append("/insights/").append(Long.toHexString(random.nextLong())).append("?tab=trends\"");
            sb.append(",\"$host\":\"app.example.com\"");
            sb.append(",\"$pathname\":\"/project/").append(random.nextInt(10000)).append("/insights\"");
            sb.append(",\"$screen_height\":").append(720 + random.nextInt(800));
            sb.append(",\"$screen_width\":").append(1280 + random.nextInt(1200));
            sb.append(",\"$viewport_height\":").append(600 + random.nextInt(600));
            sb.append(",\"$viewport_width\":").append(1000 + random.nextInt(1000));
            sb.append(",\"$lib\":\"web\",\"$lib_version\":\"1.").append(random.nextInt(300)).append(".0\"");
            sb.append(",\"$insert_id\":\"").append(Long.toString(random.nextLong() & Long.MAX_VALUE, 36)).append('"');
            sb.append(",\"$time\":").append(ts / 1000.0);
            sb.append(",\"$device_id\":\"").append(new UUID(random.nextLong(), random.nextLong())).append('"');
            sb.append(",\"$referrer\":\"https://www.google.com/\",\"$referring_domain\":\"www.google.com\"");
            sb.append(",\"$is_identified\":").append(random.nextBoolean());
            sb.append(",\"$session_id\":\"").append(new UUID(random.nextLong(), random.nextLong())).append('"');
            sb.append(",\"$window_id\":\"").append(new UUID(random.nextLong(), random.nextLong())).append('"');
            sb.append(",\"$active_feature_flags\":[\"flag-a\",\"flag-b\",\"new-onboarding\"]");
            sb.append(",\"title\":\"Insights • PostHog ").append(random.nextInt(100)).append('"');
            sb.append('}');
            sb.append(",\"elements_chain\":\"button.btn.btn-primary:text=\\\"Save\\\"nth-child=\\\"")
                    .append(random.nextInt(9)).append("\\\"\"");
            sb.append('}');
            out.add(sb.toString().getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }
}
