package dev.millpond.vocabulary;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ColumnNamesTest {

    /** Generated names over a small alphabet, so case collisions are frequent: exactly one spelling per fold wins. */
    @Test
    void theFirstSpellingOfEachNameWinsAndEveryLaterOneIsADuplicate() {
        Random random = new Random(11);
        for (int round = 0; round < 200; round++) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                StringBuilder b = new StringBuilder();
                for (int j = 0; j < 1 + random.nextInt(3); j++) {
                    b.append("abAB_".charAt(random.nextInt(5)));
                }
                names.add(b.toString());
            }
            ColumnNames.Spellings spellings = new ColumnNames.Spellings();
            Set<String> seenFolded = new HashSet<>();
            List<String> winners = new ArrayList<>();
            for (String n : names) {
                boolean first = spellings.first(n);
                assertThat(first).as("%s in %s", n, names).isEqualTo(seenFolded.add(n.toLowerCase(Locale.ROOT)));
                if (first) {
                    winners.add(n);
                }
            }
            assertThat(winners.stream().map(ColumnNames::fold).distinct().count()).isEqualTo(winners.size());
        }
    }

    @Test
    void aBatchColumnLandsInTheExactLiveColumnElseTheTablesSpelling() {
        assertThat(ColumnNames.liveSpelling("a", List.of("A", "b"))).hasValue("A");
        assertThat(ColumnNames.liveSpelling("A", List.of("a", "A"))).as("exact first").hasValue("A");
        assertThat(ColumnNames.liveSpelling("Team_ID", List.of("team_id"))).hasValue("team_id");
        assertThat(ColumnNames.liveSpelling("c", List.of("a", "b"))).isEmpty();
    }
}
