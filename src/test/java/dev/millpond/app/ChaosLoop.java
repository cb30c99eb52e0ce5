package dev.millpond.app;

import dev.millpond.testsupport.AppProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import java.util.function.ToIntFunction;

/**
 * The kill -9 loop both destinations' chaos tests run: start the packaged app, SIGKILL it at a random moment, again,
 * {@code kills} times. What each kill hit is read back from the app's own log ({@link CommitWindow}), not assumed
 * from where it was aimed.
 */
final class ChaosLoop {

    /** Where a kill is aimed: anywhere after start, inside the lake→Kafka commit window, or just after a flush. */
    enum KillMoment { ANY_TIME, BETWEEN_LAKE_AND_KAFKA_COMMIT, AFTER_A_FLUSH }

    /** Starts run {@code run} of the app, logging to {@code log}. */
    interface Launch {
        AppProcess start(int run, Path log) throws IOException;
    }

    /**
     * What the kills did: how many were aimed at each moment, how many the log shows inside the commit window, and
     * how many runs' logs mention {@code marker} (a restart that resumed in the way the test is about).
     */
    record Outcome(Map<KillMoment, Integer> aimed, int killedInsideTheWindow, int runsMentioningMarker) {
    }

    /**
     * @param firstWindowEntry which commit window of a run a window kill waits for: {@code random -> 1} is the first;
     *                         a destination whose first flush would be cut the same way without the feature under
     *                         test aims later
     * @param lineTimeout      how long a kill may wait for the line it is aimed after
     */
    static Outcome run(int kills, Random random, Path logs, String logPrefix, Launch launch, String marker,
                       ToIntFunction<Random> firstWindowEntry, Duration lineTimeout)
            throws Exception {
        Map<KillMoment, Integer> aimed = new EnumMap<>(KillMoment.class);
        int inside = 0;
        int mentioning = 0;
        for (int i = 0; i < kills; i++) {
            Path log = logs.resolve(logPrefix + "-" + i + ".log");
            KillMoment moment = KillMoment.values()[random.nextInt(KillMoment.values().length)];
            try (AppProcess app = launch.start(i, log)) {
                switch (moment) {
                    case ANY_TIME -> CommitWindow.sleep(1_000 + random.nextInt(4_000));
                    case BETWEEN_LAKE_AND_KAFKA_COMMIT -> {
                        // The pause is 200 ms; the line is printed right before it, so 0–150 ms later is inside it.
                        CommitWindow.awaitLine(app, CommitWindow.ENTERED, firstWindowEntry.applyAsInt(random),
                                lineTimeout);
                        CommitWindow.sleep(random.nextInt(150));
                    }
                    case AFTER_A_FLUSH -> {
                        CommitWindow.awaitLine(app, "Flush: ", 1, lineTimeout);
                        CommitWindow.sleep(random.nextInt(300));
                    }
                }
                app.kill();
            }
            aimed.merge(moment, 1, Integer::sum);
            if (CommitWindow.killedInside(log)) {
                inside++;
            }
            if (mentions(log, marker)) {
                mentioning++;
            }
        }
        return new Outcome(aimed, inside, mentioning);
    }

    static boolean mentions(Path log, String marker) throws IOException {
        return Files.exists(log) && Files.readString(log).contains(marker);
    }

    private ChaosLoop() {
    }
}
