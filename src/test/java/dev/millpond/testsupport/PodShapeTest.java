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
    }
}
