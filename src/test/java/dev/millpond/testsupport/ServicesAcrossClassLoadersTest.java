package dev.millpond.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * A {@code @QuarkusTest} sees this package through a Quarkus class loader; it must still get the
 * services owned by the system class loader's {@link Services}, not start a second set.
 */
@ServiceBacked
@QuarkusTest
@TestProfile(ServicesAcrossClassLoadersTest.NoDevServices.class)
class ServicesAcrossClassLoadersTest {

    /** Dev Services would look for Docker, which does not exist here. */
    public static class NoDevServices implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.devservices.enabled", "false");
        }
    }

    @Test
    void aQuarkusTestUsesTheServicesOwnedByTheSystemClassLoader() throws Exception {
        assertThat(Services.class.getClassLoader()).isNotSameAs(ClassLoader.getSystemClassLoader());

        assertThat(Services.kafka().bootstrapServers()).isEqualTo(ownerView("kafka", "bootstrapServers"));
        assertThat(Services.postgres().port()).isEqualTo(ownerView("postgres", "port"));
        assertThat(Services.s3().endpoint()).isEqualTo(ownerView("s3", "endpoint"));
    }

    @Test
    void attachedViewsWorkAgainstTheSharedServices() throws Exception {
        String topic = Services.uniqueName("attached");
        Services.kafka().createTopic(topic, 1);
        assertThat(Services.kafka().produce(topic, 0, List.of(new byte[] {42}))).containsExactly(0L);
        assertThat(Services.kafka().readAll(topic, 0)).singleElement().satisfies(r -> assertThat(r.value()).containsExactly(42));

        DuckLakeStack lake = Services.newDuckLake();
        try (Connection connection = lake.openQueryConnection()) {
            // More rows than DuckLake inlines into the catalog, so the write reaches the object store.
            DuckDbSql.execute(connection, "CREATE TABLE lake.t AS SELECT range AS x FROM range(1000)");
            assertThat(DuckDbSql.queryLong(connection, "SELECT count(*) FROM lake.t")).isEqualTo(1000);
        }
        assertThat(lake.listDataFiles()).anyMatch(key -> key.endsWith(".parquet"));
    }

    /** Calls {@code Services.<service>().<accessor>()} on the copy of Services in the system class loader. */
    private static Object ownerView(String service, String accessor) throws Exception {
        Class<?> owner = Class.forName(Services.class.getName(), true, ClassLoader.getSystemClassLoader());
        Object instance = owner.getMethod(service).invoke(null);
        return instance.getClass().getMethod(accessor).invoke(instance);
    }
}
