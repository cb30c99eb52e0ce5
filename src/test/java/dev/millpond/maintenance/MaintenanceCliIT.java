package dev.millpond.maintenance;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tools/ducklake-maintenance} over the packaged application, as a CronJob runs it: exit codes 0, 1 (another
 * run holds the lock) and 2 (bad arguments), the target catalog printed first by a destructive command.
 */
class MaintenanceCliIT {

    private static final String PROMPT = "Proceed? [y/N]";

    record Result(int exit, String out, String err) {
    }

    static Result tool(Map<String, String> env, String... args) throws IOException, InterruptedException {
        String[] command = new String[args.length + 1];
        command[0] = Path.of("tools", "ducklake-maintenance").toAbsolutePath().toString();
        System.arraycopy(args, 0, command, 1, args.length);
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        pb.environment().put("MILLPOND_APP_DIR", Path.of("target", "quarkus-app").toAbsolutePath().toString());
        // Both streams go to files, not pipes: a tool that writes more than a pipe holds cannot block on a reader that
        // is waiting for it to exit.
        Path out = Files.createTempFile("maintenance-cli", ".out");
        Path err = Files.createTempFile("maintenance-cli", ".err");
        try {
            Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            p.getOutputStream().close();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("the tool did not exit within 120 s\n" + Files.readString(err));
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /**
     * The tool on a pseudo-terminal, as an operator runs it: util-linux {@code script} gives it one, and what is
     * written to script's stdin is what the operator types. The output is the terminal's (stdout and stderr).
     */
    static Result onTerminal(Map<String, String> env, String typed, String... args)
            throws IOException, InterruptedException {
        StringBuilder command = new StringBuilder("exec '" + Path.of("tools", "ducklake-maintenance").toAbsolutePath()
                + "'");
        for (String arg : args) {
            command.append(" '").append(arg).append("'");
        }
        ProcessBuilder pb = new ProcessBuilder("script", "-qec", command.toString(), "/dev/null");
        pb.environment().putAll(env);
        pb.environment().put("MILLPOND_APP_DIR", Path.of("target", "quarkus-app").toAbsolutePath().toString());
        pb.redirectErrorStream(true);
        Process p = pb.start();
        p.getOutputStream().write(typed.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().flush();
        byte[] out = p.getInputStream().readAllBytes(); // until the tool exits and script closes the terminal
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the tool exits").isTrue();
        p.getOutputStream().close();
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), "");
    }

    /**
     * On a terminal a destructive run asks after printing its target; only y/yes proceeds, an empty answer or n
     * changes nothing and exits 1; --yes does not ask; a dry run does not ask; without a terminal (as in a CronJob)
     * nothing is asked and the run proceeds.
     */
    @Test
    void aDestructiveRunAsksOnATerminalOnly() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture()) {
            for (int i = 0; i < 4; i++) {
                lake.flush(20, 32);
            }
            for (String declined : new String[]{"n\n", "\n"}) {
                Result no = onTerminal(lake.env, declined, "compact", "--tier", "1");
                assertThat(no.exit()).as(no.out()).isEqualTo(1);
                assertThat(no.out()).contains("Target catalog: postgres ", PROMPT,
                        "Aborted: compact changed nothing.");
                assertThat(no.out().indexOf("Target catalog")).isLessThan(no.out().indexOf(PROMPT));
                assertThat(lake.liveFileSizes()).as("declined: nothing compacted").hasSize(4);
            }
            Result dry = onTerminal(lake.env, "", "compact", "--tier", "1", "--dry-run");
            assertThat(dry.exit()).as(dry.out()).isZero();
            assertThat(dry.out()).doesNotContain(PROMPT).contains("4 candidate(s)");

            Result yes = onTerminal(lake.env, "y\n", "compact", "--tier", "1");
            assertThat(yes.exit()).as(yes.out()).isZero();
            assertThat(yes.out()).contains(PROMPT, "main.events: 4 file(s) -> 1");
            assertThat(lake.liveFileSizes()).hasSize(1);

            for (int i = 0; i < 3; i++) {
                lake.flush(20, 32);
            }
            Result flag = onTerminal(lake.env, "", "compact", "--tier", "1", "--yes");
            assertThat(flag.exit()).as(flag.out()).isZero();
            assertThat(flag.out()).contains("Target catalog: postgres ").doesNotContain(PROMPT);
            assertThat(lake.liveFileSizes()).hasSize(1);

            for (int i = 0; i < 3; i++) {
                lake.flush(20, 32);
            }
            Result cron = tool(lake.env, "compact", "--tier", "1");
            assertThat(cron.exit()).as(cron.err()).isZero();
            assertThat(cron.out()).startsWith("Target catalog: postgres ").doesNotContain(PROMPT);
            assertThat(lake.liveFileSizes()).hasSize(1);
        }
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
