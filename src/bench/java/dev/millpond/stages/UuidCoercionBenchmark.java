package dev.millpond.stages;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The clean uuid path: a VARCHAR column of canonical UUIDs coerced to arrow.uuid, reported per value (target
 * ≤ 1 µs). Run: {@code java -cp <test classpath> org.openjdk.jmh.Main UuidCoercionBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class UuidCoercionBenchmark {
    static final int ROWS = 10_000;

    private RootAllocator allocator;
    private VarCharVector column;
    private final ColumnCoercion coercion = new ToUuid();

    @Setup(Level.Trial)
    public void setUp() {
        allocator = new RootAllocator();
        column = new VarCharVector("uuid", allocator);
        column.allocateNew(ROWS);
        Random random = new Random(42);
        for (int i = 0; i < ROWS; i++) {
            column.setSafe(i, new UUID(random.nextLong(), random.nextLong()).toString()
                    .getBytes(StandardCharsets.US_ASCII));
        }
        column.setValueCount(ROWS);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        column.close();
        allocator.close();
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public int canonicalTextToUuid() {
        Coerced coerced = coercion.apply(column, allocator);
        try {
            return coerced.nulled();
        } finally {
            coerced.vector().close();
        }
    }
}
