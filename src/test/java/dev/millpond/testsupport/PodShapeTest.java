package dev.millpond.testsupport;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PodShapeTest {

    @Test
    void readsTheLastStagesEnvLinesWithQuotesAndContinuations() {
        String dockerfile = """
                FROM builder-image AS builder
                ENV BUILD_ONLY=1
                FROM runtime-image
                # a comment
                ENV A=/opt/a \\
                    # Docker drops comment lines inside a continued instruction
                    JAVA_OPTS="-XX:MaxRAMPercentage=20 -Dx=\\"y z\\"" \\
                    EMPTY=""
                ENV LEGACY value with spaces
                """;
        Map<String, String> env = PodShape.imageEnvironment(dockerfile);
        assertEquals(Map.of("A", "/opt/a", "JAVA_OPTS", "-XX:MaxRAMPercentage=20 -Dx=\"y z\"", "EMPTY", "",
                "LEGACY", "value with spaces"), env);
        assertEquals(List.of("-XX:MaxRAMPercentage=20", "-Dx=\"y", "z\""),
                new PodShape(1, "1", env).jvmOptions()); // word-split unquoted, as the entrypoint's $JAVA_OPTS is
    }

    @Test
    void aStageBuiltOnAnEarlierOneKeepsItsVariables() {
        String dockerfile = """
                FROM --platform=linux/amd64 runtime-image AS base
                ENV A=1 B=2
                FROM base AS training
                ENV TRAINING_ONLY=1
                FROM --platform=$BUILDPLATFORM base AS runtime
                ENV B=3
                """;
        assertEquals(Map.of("A", "1", "B", "3"), PodShape.imageEnvironment(dockerfile));
    }

    @Test
    void kubernetesQuantities() {
        assertEquals(1L << 30, PodShape.quantity("1Gi"));
        assertEquals(768L << 20, PodShape.quantity("768Mi"));
        assertEquals(2_000_000_000L, PodShape.quantity("2G"));
        assertEquals(1234, PodShape.quantity("1234"));
    }

    @Test
    void theShippedPodShape() throws Exception {
        PodShape pod = PodShape.read(Path.of(""));
        assertEquals(1L << 30, pod.memoryLimitBytes());
        assertTrue(pod.jvmOptions().contains("-XX:MaxRAMPercentage=20"), pod.jvmOptions().toString());
        assertEquals("2", pod.processEnvironment().get("MALLOC_ARENA_MAX"));
        // The AOT cache's flag is the entrypoint's, for the image's JDK only: not passed on as a variable.
        assertEquals("-XX:AOTCache=/deployments/app.aot", pod.imageEnvironment().get("JAVA_OPTS_AOT"));
        assertTrue(!pod.processEnvironment().containsKey("JAVA_OPTS_AOT"));
    }
}
