package dev.millpond.sinks.ducklake;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class VariantCompanionsTest {

    private static Field text(String name) {
        return new Field(name, FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
    }

    @Test
    void configuredCompanionsInAnyCaseAndLiveVariantColumnsAreStripped() {
        Map<String, String> live = new LinkedHashMap<>();
        live.put("legacy_blob", "variant");
        live.put("props", "VARCHAR");
        VariantCompanions companions = new VariantCompanions(List.of("props"));

        VariantCompanions.Stripped stripped = companions.strip(
                List.of(text("props"), text("PROPS_variant"), text("Legacy_Blob"), text("keep")), LiveSchema.of(live));

        assertThat(stripped.kept()).extracting(Field::getName).containsExactly("props", "keep");
        assertThat(stripped.dropped()).containsExactly("PROPS_variant", "Legacy_Blob");
    }

    @Test
    void sourcesAreFoundInTheBatchSpelling() {
        VariantCompanions companions = new VariantCompanions(List.of("props", "person"));

        assertThat(companions.sourcesIn(List.of(text("Props"), text("x"))))
                .containsExactly(new VariantCompanions.Source("Props", "props_variant"));
        assertThat(new VariantCompanions(List.of()).sourcesIn(List.of(text("props")))).isEmpty();
    }
}
