package dev.millpond.sinks.ducklake;

import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.convert.JsonToArrow;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.sinks.OffsetRange;
import dev.millpond.sinks.RejectedRecord;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The write-time cost of the rejects table, in process against the real stack: flushes of {@code rows} events with
 * offsets, alternating between no rejects and {@code rejects} rejects (malformed ~300-byte values), and the median
 * write time of each. A main rather than a timed test; the end-to-end benchmark is too noisy on a shared machine to
 * resolve a difference this small. {@code java … RejectsCostBenchmarkMain [rows] [rejects] [rounds]}.
 */
public final class RejectsCostBenchmarkMain {

    private RejectsCostBenchmarkMain() {
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 40_000;
        int rejectCount = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.recordingOffsets("bench"));
            VectorSchemaRoot root = new JsonToArrow(f.allocator).convert(SampleEvents.events(0, rows)).root();
            FlushBatch rowsOnly = f.own(root);
            List<RejectedRecord> rejects = new ArrayList<>();
            for (int i = 0; i < rejectCount; i++) {
                byte[] value = (new String(SampleEvents.event(i), StandardCharsets.UTF_8) + " trailing")
                        .getBytes(StandardCharsets.UTF_8);
                rejects.add(RejectedRecord.of("t", 0, i, System.currentTimeMillis(), "json_parse",
                        "JsonParseException: trailing token", value, 65_536));
            }
            long offset = 0;
            double[] clean = new double[rounds];
            double[] poisoned = new double[rounds];
            for (int r = -1; r < rounds; r++) { // round -1 warms up
                for (int withRejects = 0; withRejects < 2; withRejects++) {
                    FlushBatch batch = new FlushBatch(rowsOnly.schema(), rowsOnly.batches(), rows,
                            List.of(new OffsetRange("t", 0, offset, offset + rows - 1)),
                            withRejects == 1 ? rejects : List.of());
                    offset += rows;
                    long t0 = System.nanoTime();
                    sink.write(batch);
                    double s = (System.nanoTime() - t0) / 1e9;
                    if (r >= 0) {
                        (withRejects == 1 ? poisoned : clean)[r] = s;
                    }
                }
            }
            System.out.printf(Locale.ROOT, "rows=%d rejects=%d rounds=%d median write: clean %.3f s, with rejects %.3f s%n",
                    rows, rejectCount, rounds, median(clean), median(poisoned));
        }
        System.exit(0);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
