package dev.millpond.ducklake;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** DuckLake's catalog format versions order by their numbers, so only an older catalog is ever offered a migration. */
class CatalogFormatVersionOrderTest {

    @Test
    void formatVersionsOrderByTheirNumbersWithPreReleasesFirst() {
        List<String> ordered = List.of("0.1", "0.2", "0.3-dev1", "0.3", "0.4-dev1", "0.4", "1.0",
                "1.1", "9.9", "10.0");
        for (int i = 0; i < ordered.size(); i++) {
            for (int j = 0; j < ordered.size(); j++) {
                assertThat(Integer.signum(IncompatibleCatalogException.FormatVersion.compare(ordered.get(i),
                        ordered.get(j)))).as("%s vs %s", ordered.get(i), ordered.get(j))
                        .isEqualTo(Integer.signum(Integer.compare(i, j)));
            }
        }
        assertThat(IncompatibleCatalogException.FormatVersion.compare("garbage", "1.0")).isPositive();
    }
}
