package dev.millpond.pump;

import dev.millpond.app.Pipeline;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/** Running a pipeline's pump on its own thread in the pump tests. */
final class PumpRuns {

    private PumpRuns() {
    }

    /** Runs the pump until the condition holds (within {@code within}), then stops it the way SIGTERM does. */
    static void runUntil(Pipeline pipeline, BooleanSupplier condition, Duration within) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            try {
                pipeline.pump().run();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "pump-under-test");
        thread.start();
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(failure.get()).as("pump failure").isNull();
            assertThat(System.nanoTime()).as("condition within %ss", within.toSeconds()).isLessThan(deadline);
            Thread.sleep(50);
        }
        pipeline.pump().requestStop();
        thread.join(30_000);
        assertThat(thread.isAlive()).isFalse();
        assertThat(failure.get()).isNull();
    }
}
