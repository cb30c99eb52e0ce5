package dev.millpond.pump;

import dev.millpond.app.Pipeline;
import dev.millpond.testsupport.Await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/** A pipeline's pump running on a thread of its own, for pump tests that act or wait while it runs. */
record RunningPump(Pipeline pipeline, Thread thread, AtomicReference<Throwable> failed) {

    static RunningPump start(Pipeline pipeline) {
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            try {
                pipeline.pump().run();
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "pump-under-test");
        thread.start();
        return new RunningPump(pipeline, thread, failed);
    }

    /** Runs the pump until the condition holds (within {@code within}), then stops it the way SIGTERM does. */
    static void runUntil(Pipeline pipeline, BooleanSupplier condition, Duration within) throws Exception {
        RunningPump pump = start(pipeline);
        pump.await(condition, within);
        pump.stop();
    }

    /** Waits until the condition holds, failing if the pump dies first or {@code within} passes. */
    void await(BooleanSupplier condition, Duration within) throws InterruptedException {
        Await.within(within, "condition within " + within.toSeconds() + "s").pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    if (condition.getAsBoolean()) {
                        return true;
                    }
                    assertThat(failed.get()).as("pump failure").isNull();
                    return false;
                });
    }

    void await(BooleanSupplier condition) throws InterruptedException {
        await(condition, Duration.ofSeconds(60));
    }

    /** Waits up to {@code within} for the run to end by itself and returns what it threw, if anything. */
    Throwable failure(Duration within) throws InterruptedException {
        thread.join(within.toMillis());
        boolean ended = !thread.isAlive();
        if (!ended) {
            pipeline.pump().requestStop(); // not left running into the next test
            thread.join(30_000);
        }
        assertThat(ended).as("the pump ended within %ss", within.toSeconds()).isTrue();
        return failed.get();
    }

    Throwable failure() throws InterruptedException {
        return failure(Duration.ofSeconds(60));
    }

    /** Stops the pump the way SIGTERM does and expects a clean end. */
    void stop() throws InterruptedException {
        pipeline.pump().requestStop();
        assertThat(failure(Duration.ofSeconds(30))).isNull();
    }
}
