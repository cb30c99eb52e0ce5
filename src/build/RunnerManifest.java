import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Adds the JVM module options the app needs to the main attributes of the runnable jar's manifest, so that
 * {@code java -jar target/quarkus-app/quarkus-run.jar} needs no flags: Arrow's memory layer reads the address field
 * of {@code java.nio.Buffer} ({@code Add-Opens: java.base/java.nio}), and DuckDB loads its JNI library
 * ({@code Enable-Native-Access: ALL-UNNAMED}, which JDK 22 and later ask for).
 *
 * <p>Quarkus writes the {@code Add-Opens} its own extensions ask for and replaces an application's entry
 * ({@code quarkus.package.jar.manifest.attributes}) instead of adding to it; only an extension can contribute to its
 * list. So the build runs this after Quarkus has written the jar: the packages given are added to whatever Quarkus
 * wrote, which stays. Running it twice changes nothing.
 *
 * <p>Usage (a single-file program, no compilation step): {@code java RunnerManifest.java <jar> <module/package>...}
 */
public final class RunnerManifest {

    private static final Attributes.Name ADD_OPENS = new Attributes.Name("Add-Opens");
    private static final Attributes.Name ENABLE_NATIVE_ACCESS = new Attributes.Name("Enable-Native-Access");

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: RunnerManifest <jar> <module/package>...");
        }
        Path jar = Path.of(args[0]);
        List<String> opens = List.of(args).subList(1, args.length);

        Manifest manifest;
        try (JarFile in = new JarFile(jar.toFile())) {
            manifest = in.getManifest();
        }
        if (manifest == null || manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS) == null) {
            throw new IllegalStateException(jar + " has no runnable manifest: run this after Quarkus has built it");
        }
        Attributes main = manifest.getMainAttributes();
        TreeSet<String> merged = new TreeSet<>(words(main.getValue(ADD_OPENS)));
        merged.addAll(opens);
        String addOpens = String.join(" ", merged);
        if (addOpens.equals(main.getValue(ADD_OPENS)) && "ALL-UNNAMED".equals(main.getValue(ENABLE_NATIVE_ACCESS))) {
            System.out.println(jar + ": Add-Opens " + addOpens + ", Enable-Native-Access ALL-UNNAMED (unchanged)");
            return;
        }
        main.put(ADD_OPENS, addOpens);
        main.put(ENABLE_NATIVE_ACCESS, "ALL-UNNAMED");

        // Rewritten whole, the manifest first (as JarInputStream expects), the other entries copied as they were.
        Path rewritten = jar.resolveSibling(jar.getFileName() + ".tmp");
        try (JarFile in = new JarFile(jar.toFile());
             JarOutputStream out = new JarOutputStream(Files.newOutputStream(rewritten), manifest)) {
            Enumeration<JarEntry> entries = in.entries();
            while (entries.hasMoreElements()) {
                JarEntry entry = entries.nextElement();
                if (entry.getName().equalsIgnoreCase(JarFile.MANIFEST_NAME)
                        || entry.getName().equalsIgnoreCase("META-INF/")) {
                    continue;
                }
                out.putNextEntry(new JarEntry(entry.getName()));
                try (InputStream data = in.getInputStream(entry)) {
                    data.transferTo(out);
                }
                out.closeEntry();
            }
        }
        Files.move(rewritten, jar, StandardCopyOption.REPLACE_EXISTING);
        System.out.println(jar + ": Add-Opens " + addOpens + ", Enable-Native-Access ALL-UNNAMED");
    }

    private static List<String> words(String value) {
        return value == null || value.isBlank() ? List.of() : Arrays.asList(value.strip().split("\\s+"));
    }

    private RunnerManifest() {
    }
}
