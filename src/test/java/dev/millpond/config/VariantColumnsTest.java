package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class VariantColumnsTest {

    @Test
    void unsetOrBlankMeansDualWriteIsOff() {
        assertThat(TestEnv.load().ducklake().variantColumns().enabled()).isFalse();
        assertThat(TestEnv.load("MILLPOND_VARIANT_COLUMNS", " ").ducklake().variantColumns()).isEqualTo(VariantColumns.none());
    }

    @Test
    void aCommaListOfSafeIdentifiersIsKeptInOrderWithoutCaseDuplicates() {
        VariantColumns v = TestEnv.load("MILLPOND_VARIANT_COLUMNS", " properties, person_properties,,Properties ")
                .ducklake().variantColumns();
        assertThat(v.sources()).isEqualTo(List.of("properties", "person_properties"));
    }

    @Test
    void unsafeNamesAreRefused() {
        assertThatThrownBy(() -> TestEnv.load("MILLPOND_VARIANT_COLUMNS", "props,utm-source"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("MILLPOND_VARIANT_COLUMNS");
    }

    @Test
    void companionNamesAreRefusedInAnyCase() {
        assertThatThrownBy(() -> TestEnv.load("MILLPOND_VARIANT_COLUMNS", "props_VARIANT"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("list the source column");
    }

    @Test
    void hoglakeRefusesVariantColumnsAtStartup() {
        assertThatThrownBy(() -> TestEnv.load("MILLPOND_DESTINATION", "hoglake", "MILLPOND_VARIANT_COLUMNS", "props"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("MILLPOND_VARIANT_COLUMNS is DuckLake-only");
    }
}
