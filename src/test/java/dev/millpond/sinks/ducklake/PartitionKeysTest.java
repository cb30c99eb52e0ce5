package dev.millpond.sinks.ducklake;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionKeysTest {

    @Test
    void onlyKeysThatRecordAColumnsValueAsItIsCount() {
        assertThat(PartitionKeys.valueColumns(" Event , year(_inserted_at),identity( Team_Id ), bucket(8, id),hour(ts)"))
                .containsExactlyInAnyOrder("event", "team_id");
        assertThat(PartitionKeys.valueColumns("year(_inserted_at),month(_inserted_at)")).isEmpty();
    }
}
