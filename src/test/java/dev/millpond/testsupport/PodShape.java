package dev.millpond.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the shipped pod runs the app, read from the files that define it rather than copied by hand: the memory limit
 * of the StatefulSet's millpond container, and the runtime image's {@code ENV} lines (its {@code JAVA_OPTS},
 * {@code MALLOC_ARENA_MAX}, …), which the image's entrypoint expands as {@code java $JAVA_OPTS $JAVA_OPTS_APPEND}.
 *
 * @param memoryLimitBytes  {@code resources.limits.memory} of the StatefulSet's container
 * @param memoryLimitText   the same as written there ({@code 1Gi})
 * @param imageEnvironment  the runtime stage's {@code ENV} variables, in order
 */
public record PodShape(long memoryLimitBytes, String memoryLimitText, Map<String, String> imageEnvironment) {

    private static final Pattern QUANTITY = Pattern.compile("(\\d+)([kMGT]i?)?");

    public static PodShape read(Path projectRoot) throws IOException {
        Path statefulSet = projectRoot.resolve("kubernetes/statefulset.yaml");
        JsonNode containers = new ObjectMapper(new YAMLFactory()).readTree(statefulSet.toFile())
                .path("spec").path("template").path("spec").path("containers");
        JsonNode container = containers.path(0);
        for (JsonNode c : containers) {
            if (c.path("name").asText().startsWith("millpond")) {
                container = c;
            }
        }
        String limit = container.path("resources").path("limits").path("memory").asText(null);
        if (limit == null) {
            throw new IllegalStateException(statefulSet + " has no resources.limits.memory for the millpond container");
        }
        return new PodShape(quantity(limit), limit,
                imageEnvironment(Files.readString(projectRoot.resolve("src/main/docker/Dockerfile.jvm"))));
    }

    /** The same pod with another memory limit ({@code 512Mi}): the benchmark runs the image under several. */
    public PodShape withMemoryLimit(String text) {
        return new PodShape(quantity(text), text, imageEnvironment);
    }

    /** The JVM's options as the entrypoint builds them: {@code $JAVA_OPTS $JAVA_OPTS_APPEND}, word-split. */
    public List<String> jvmOptions() {
        List<String> options = new ArrayList<>();
        for (String name : List.of("JAVA_OPTS", "JAVA_OPTS_APPEND")) {
            String value = imageEnvironment.getOrDefault(name, "").trim();
            if (!value.isEmpty()) {
                options.addAll(Arrays.asList(value.split("\\s+")));
            }
        }
        return options;
    }

    /** The image's variables other than the JVM's own, which go on the command line instead. */
    public Map<String, String> processEnvironment() {
        Map<String, String> env = new LinkedHashMap<>(imageEnvironment);
        env.remove("JAVA_OPTS");
        env.remove("JAVA_OPTS_APPEND");
        env.remove("JAVA_OPTS_AOT");
        return env;
    }

    /** A Kubernetes quantity: {@code 1Gi}, {@code 768Mi}, {@code 1G}, or bytes. */
    static long quantity(String text) {
        Matcher m = QUANTITY.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a Kubernetes memory quantity: " + text);
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "" : m.group(2);
        int power = "kMGT".indexOf(unit.isEmpty() ? ' ' : unit.charAt(0)) + 1;
        long base = unit.endsWith("i") ? 1024 : 1000;
        for (int i = 0; i < power; i++) {
            n *= base;
        }
        return n;
    }

    /** The {@code ENV} instructions of the Dockerfile's last stage (the runtime image), continuation lines joined. */
    static Map<String, String> imageEnvironment(String dockerfile) {
        List<String> instructions = new ArrayList<>();
        StringBuilder current = null;
        for (String line : dockerfile.split("\n", -1)) {
            String trimmed = line.trim();
            if (current == null) {
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                current = new StringBuilder();
            } else if (trimmed.startsWith("#")) {
                continue; // Docker drops comment lines inside a continued instruction
            }
            if (trimmed.endsWith("\\")) {
                current.append(trimmed, 0, trimmed.length() - 1).append(' ');
            } else {
                current.append(trimmed);
                instructions.add(current.toString());
                current = null;
            }
        }
        Map<String, String> env = new LinkedHashMap<>();
        Map<String, Map<String, String>> stages = new HashMap<>();
        for (String instruction : instructions) {
            String keyword = instruction.split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
            if (keyword.equals("FROM")) {
                // Only the last stage's variables reach the image, with those of the stage it is built on, if any.
                List<String> words = new ArrayList<>(Arrays.asList(instruction.trim().split("\\s+")));
                words.removeIf(w -> w.startsWith("--"));
                env = new LinkedHashMap<>(stages.getOrDefault(words.size() > 1 ? words.get(1) : "", Map.of()));
                if (words.size() > 3 && words.get(2).equalsIgnoreCase("AS")) {
                    stages.put(words.get(3), env);
                }
            } else if (keyword.equals("ENV")) {
                List<String> words = shellWords(instruction.substring(3));
                if (words.size() >= 1 && !words.get(0).contains("=")) { // legacy form: ENV NAME value with spaces
                    env.put(words.get(0), String.join(" ", words.subList(1, words.size())));
                    continue;
                }
                for (String word : words) {
                    int eq = word.indexOf('=');
                    env.put(word.substring(0, eq), word.substring(eq + 1));
                }
            }
        }
        return env;
    }

    /** Splits on unquoted whitespace and removes the quotes, as Docker does for {@code ENV a=b c="d e"}. */
    private static List<String> shellWords(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < text.length()) {
                    word.append(text.charAt(++i));
                } else {
                    word.append(c);
                }
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else {
                if (word == null) {
                    word = new StringBuilder();
                }
                if (c == '"' || c == '\'') {
                    quote = c;
                } else if (c == '\\' && i + 1 < text.length()) {
                    word.append(text.charAt(++i));
                } else {
                    word.append(c);
                }
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }
}
