package dev.millpond.maintenance;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tools/ducklake-maintenance} over the packaged application, as a CronJob runs it: exit codes 0, 1 (another
 * run holds the lock) and 2 (bad arguments), the target catalog printed first by a destructive command.
 */
class MaintenanceCliIT {

    record Result(int exit, String out, String err) {
    }

    static Result tool(Map<String, String> env, String... args) throws IOException, InterruptedException {
        String[] command = new String[args.length + 1];
        command[0] = Path.of("tools", "ducklake-maintenance").toAbsolutePath().toString();
        System.arraycopy(args, 0, command, 1, args.length);
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        pb.environment().put("MILLPOND_APP_DIR", Path.of("target", "quarkus-app").toAbsolutePath().toString());
        Process p = pb.start();
        p.getOutputStream().close();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the tool exits").isTrue();
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void exitCodesAndTheTargetLine() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            for (int i = 0; i < 4; i++) {
                lake.flush(20, 32);
            }
            Result dry = tool(lake.env, "compact", "--tier", "1", "--dry-run");
            assertThat(dry.exit()).as(dry.err()).isZero();
            assertThat(dry.err()).contains("4 candidate(s)");
            assertThat(tool(lake.env, "expire", "--days", "0").exit()).isEqualTo(2);

            try (LakeSession holder = lake.session("held-by-test")) {
                holder.lock();
                Result locked = tool(lake.env, "compact", "--tier", "1");
                assertThat(locked.exit()).isEqualTo(1);
                assertThat(locked.out()).startsWith("Target catalog: postgres ");
                assertThat(locked.err()).contains("holding the advisory lock", "held-by-test");
            }
            Result compact = tool(lake.env, "compact", "--tier", "1");
            assertThat(compact.exit()).as(compact.err()).isZero();
            assertThat(compact.err()).contains("main.events: 4 file(s) -> 1");
            assertThat(lake.liveFileSizes()).hasSize(1);
        }
    }
}
