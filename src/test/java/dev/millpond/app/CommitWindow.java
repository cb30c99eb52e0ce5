package dev.millpond.app;

import dev.millpond.testsupport.AppProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The test hook's window between the lake commit and the Kafka commit ({@code MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS}),
 * as the app's own log shows it: a line when it enters the pause, another when the pause is over and the Kafka commit
 * starts. A killed process whose log ends inside that pair was killed inside the window — observed, not intended.
 */
final class CommitWindow {

    static final String ENTERED = "Test hook: lake commit done";
    static final String LEFT = "Test hook: pause over";

    private CommitWindow() {
    }

    /** Whether the (dead) process's log ends inside the window: the last entry has no exit after it. */
    static boolean killedInside(Path log) throws IOException {
        String text = Files.exists(log) ? Files.readString(log) : "";
        int entered = text.lastIndexOf(ENTERED);
        return entered >= 0 && text.indexOf(LEFT, entered) < 0;
    }

    /** Waits until {@code text} is in the app's log {@code times} times. */
    static void awaitLine(AppProcess app, String text, int times, Duration timeout) throws Exception {
        // Every 5 ms: the chaos tests kill the app right after the line, while it is inside the window.
        app.await("'" + text + "' (x" + times + ") in the log", timeout, Duration.ofMillis(5),
                () -> occurrencesNow(app.log(), text) >= times);
    }

    private static int occurrencesNow(Path log, String text) {
        try {
            return occurrences(log, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int occurrences(Path log, String text) throws IOException {
        return Files.exists(log) ? Files.readString(log).split(Pattern.quote(text), -1).length - 1 : 0;
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
