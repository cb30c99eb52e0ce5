package dev.millpond.sinks.hoglake;

import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CatalogInfo;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The control plane's data_path is checked before anything is uploaded under it. */
class CatalogResolutionTest {

    private static CatalogInfo catalog(String dataPath) {
        return new CatalogInfo("millpond", dataPath, 1, 1);
    }

    @Test
    void wellFormedPathsPassAndMalformedOnesRefuseStartup() {
        for (String ok : List.of("s3://b", "s3://b/", "s3://b/lake", "s3://b/lake/x/", "s3://b.c-d/a_b/c.d/")) {
            assertThat(CatalogResolution.checked(catalog(ok), Optional.empty()).dataPath()).isEqualTo(ok);
        }
        for (String bad : List.of("", "s3://", "s3:///lake", "s3://b//lake", "s3://b/./lake", "s3://b/lake/..",
                "s3://b/../other", "s3://b/lake//", "s3://b/la ke", "s3://b/lake\n", "gs://b/lake", "/local/path")) {
            assertThatThrownBy(() -> CatalogResolution.checked(catalog(bad), Optional.empty()))
                    .as("'%s'", bad).isInstanceOf(HoglakeStartupException.class)
                    .hasMessageContaining("malformed data_path").hasMessageNotContaining("\n");
        }
        assertThatThrownBy(() -> CatalogResolution.checked(catalog(null), Optional.empty()))
                .hasMessageContaining("malformed data_path (none)");
    }

    @Test
    void generatedPathsWithADotSegmentAnywhereAreRefused() {
        Random random = new Random(3);
        String[] dots = {"", ".", ".."};
        for (int i = 0; i < 1_000; i++) {
            int segments = 1 + random.nextInt(5);
            StringBuilder path = new StringBuilder("s3://bucket");
            int bad = random.nextInt(segments);
            for (int s = 0; s < segments; s++) {
                path.append('/').append(s == bad ? dots[random.nextInt(dots.length)] : "seg" + random.nextInt(99));
            }
            String p = path.toString();
            if (p.endsWith("/") && !p.endsWith("//") && bad == segments - 1) {
                continue; // one trailing slash is the usual spelling of a prefix
            }
            assertThat(CatalogResolution.wellFormed(p)).as(p).isFalse();
        }
    }

    @Test
    void aCatalogWhosePathDiffersFromTheConfiguredOneRefusesStartup() {
        assertThat(CatalogResolution.checked(catalog("s3://b/lake/"), Optional.of("s3://b/lake")).dataPath())
                .isEqualTo("s3://b/lake/");
        assertThatThrownBy(() -> CatalogResolution.checked(catalog("s3://other/lake"), Optional.of("s3://b/lake")))
                .isInstanceOf(HoglakeStartupException.class)
                .hasMessage("Hoglake catalog 'millpond' has data_path s3://other/lake but HOGLAKE_DATA_PATH=s3://b/lake"
                        + " — fix HOGLAKE_DATA_PATH (or unset it to use the catalog's own path)");
    }
}
