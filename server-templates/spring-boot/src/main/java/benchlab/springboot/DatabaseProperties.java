// The deployment's database (jvm-common's DatabaseUrl: BENCHLAB_DB_URL read and checked, the pool size
// every template uses) turned into Spring Boot's JDBC (HikariCP) or R2DBC properties, and the check
// before Spring starts that it answers.

package benchlab.springboot;

import benchlab.common.DatabaseUrl;
import benchlab.common.Options;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

final class DatabaseProperties {
    private DatabaseProperties() {}

    /** The servlet variants: JDBC through HikariCP, a fixed pool of DatabaseUrl.poolSize() connections. */
    static void putJdbc(DatabaseUrl database, Map<String, Object> properties) {
        properties.put("spring.datasource.url", database.jdbcUrl());
        properties.put("spring.datasource.username", database.user());
        properties.put("spring.datasource.password", database.password());
        properties.put("spring.datasource.hikari.maximum-pool-size", DatabaseUrl.poolSize());
        properties.put("spring.datasource.hikari.minimum-idle", DatabaseUrl.poolSize());
    }

    /** The webflux variant: R2DBC PostgreSQL through r2dbc-pool, up to DatabaseUrl.poolSize() connections. */
    static void putR2dbc(DatabaseUrl database, Map<String, Object> properties) {
        properties.put("spring.r2dbc.url", "r2dbc:postgresql://" + database.host() + ":" + database.port() + "/" + database.name());
        properties.put("spring.r2dbc.username", database.user());
        properties.put("spring.r2dbc.password", database.password());
        properties.put("spring.r2dbc.pool.initial-size", DatabaseUrl.poolSize());
        properties.put("spring.r2dbc.pool.max-size", DatabaseUrl.poolSize());
    }

    /**
     * One connection before Spring starts, so a database that does not answer fails the start (exit 2,
     * the URL without its password) instead of a deployment that is ready but fails every query.
     */
    static void checkReachable(DatabaseUrl database, Options options) {
        DriverManager.setLoginTimeout(10);
        try (Connection connection = DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password())) {
            connection.isValid(10);
        } catch (SQLException error) {
            options.fail("cannot connect to the database " + database.describe() + ": " + error.getMessage());
        }
    }

    /** For the start line in the server's log: where (no password), with the pool's size. */
    static String describe(DatabaseUrl database) {
        return "database " + database.describe() + ", pool " + DatabaseUrl.poolSize();
    }
}
