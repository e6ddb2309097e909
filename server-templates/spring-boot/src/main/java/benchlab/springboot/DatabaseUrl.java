// The database Benchlab started for this deployment, from BENCHLAB_DB_URL
// (postgresql://USER:PASSWORD@HOST:PORT/NAME, or `none` when the deployment has no database), turned
// into Spring Boot's JDBC (HikariCP) or R2DBC properties with the pool size every template uses.

package benchlab.springboot;

import benchlab.common.Options;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

record DatabaseUrl(String host, int port, String name, String user, String password) {
    /** Connections per server process, as every template with a database: min(2 × cores, 32). */
    static final int POOL_SIZE = Math.min(2 * Runtime.getRuntime().availableProcessors(), 32);

    /** The database of BENCHLAB_DB_URL; null when it is `none` or unset (the endpoints then answer 503). */
    static DatabaseUrl fromEnvironment(Options options) {
        String url = System.getenv("BENCHLAB_DB_URL");
        if (url == null || url.isBlank() || url.equals("none")) return null;
        try {
            URI uri = new URI(url);
            String[] userInfo = uri.getRawUserInfo() == null ? new String[0] : uri.getRawUserInfo().split(":", 2);
            String name = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
            if (!"postgresql".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 1 || userInfo.length != 2 || name.isEmpty()) {
                throw new IllegalArgumentException("not postgresql://USER:PASSWORD@HOST:PORT/NAME");
            }
            return new DatabaseUrl(uri.getHost(), uri.getPort(), name, decode(userInfo[0]), decode(userInfo[1]));
        } catch (Exception error) {
            // The message leaves the URL out: it holds the password.
            options.fail("BENCHLAB_DB_URL is not a PostgreSQL URL (" + error.getMessage() + ")");
            throw new IllegalStateException("unreachable: fail() exits", error);
        }
    }

    private static String decode(String part) {
        return URLDecoder.decode(part, StandardCharsets.UTF_8);
    }

    /** The servlet variants: JDBC through HikariCP, a fixed pool of POOL_SIZE connections. */
    void putJdbc(Map<String, Object> properties) {
        properties.put("spring.datasource.url", jdbcUrl());
        properties.put("spring.datasource.username", user);
        properties.put("spring.datasource.password", password);
        properties.put("spring.datasource.hikari.maximum-pool-size", POOL_SIZE);
        properties.put("spring.datasource.hikari.minimum-idle", POOL_SIZE);
    }

    /** The webflux variant: R2DBC PostgreSQL through r2dbc-pool, up to POOL_SIZE connections. */
    void putR2dbc(Map<String, Object> properties) {
        properties.put("spring.r2dbc.url", "r2dbc:postgresql://" + host + ":" + port + "/" + name);
        properties.put("spring.r2dbc.username", user);
        properties.put("spring.r2dbc.password", password);
        properties.put("spring.r2dbc.pool.initial-size", POOL_SIZE);
        properties.put("spring.r2dbc.pool.max-size", POOL_SIZE);
    }

    /**
     * One connection before Spring starts, so a database that does not answer fails the start (exit 2,
     * the URL without its password) instead of a deployment that is ready but fails every query.
     */
    void checkReachable(Options options) {
        DriverManager.setLoginTimeout(10);
        try (Connection connection = DriverManager.getConnection(jdbcUrl(), user, password)) {
            connection.isValid(10);
        } catch (SQLException error) {
            options.fail("cannot connect to the database " + this + ": " + error.getMessage());
        }
    }

    private String jdbcUrl() {
        return "jdbc:postgresql://" + host + ":" + port + "/" + name;
    }

    /** For the start line in the server's log: where, with the pool's size. */
    String describe() {
        return "database " + this + ", pool " + POOL_SIZE;
    }

    /** The URL without its password: what log lines show. */
    @Override
    public String toString() {
        return "postgresql://" + user + "@" + host + ":" + port + "/" + name;
    }
}
