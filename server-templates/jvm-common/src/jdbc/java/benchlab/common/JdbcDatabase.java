// The database endpoints over JDBC, for the JVM templates that block on a thread per request
// (Tomcat; Jetty's blocking servlet, and its async handler on a pool of its own): PostgreSQL's driver
// behind a HikariCP pool of DatabaseUrl.poolSize() connections, one per server process, and each
// endpoint's statements run on one connection borrowed for the request. The answers are
// DatabaseEndpoints' own, so every template serves the same bytes.

package benchlab.common;

import benchlab.common.DatabaseEndpoints.Doc;
import benchlab.common.DatabaseEndpoints.Fortune;
import benchlab.common.DatabaseEndpoints.NewDoc;
import benchlab.common.DatabaseEndpoints.Query;
import benchlab.common.DatabaseEndpoints.World;
import benchlab.common.Endpoints.Reply;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

public final class JdbcDatabase implements AutoCloseable {
    private static final String SELECT_WORLD = jdbc(DatabaseEndpoints.SELECT_WORLD);
    private static final String UPDATE_WORLD = jdbc(DatabaseEndpoints.UPDATE_WORLD);
    private static final String SELECT_FORTUNES = jdbc(DatabaseEndpoints.SELECT_FORTUNES);
    private static final String INSERT_DOC = jdbc(DatabaseEndpoints.INSERT_DOC);
    private static final String SELECT_STORED_DOCS = jdbc(DatabaseEndpoints.SELECT_STORED_DOCS);

    private final DatabaseUrl url;
    private final HikariDataSource pool;

    private JdbcDatabase(DatabaseUrl url, HikariDataSource pool) {
        this.url = url;
        this.pool = pool;
    }

    /**
     * The pool for this deployment's database (BENCHLAB_DB_URL); null when it has none. The pool
     * opens its connections at once, so a database that cannot be reached fails the start, not the
     * first request.
     */
    public static JdbcDatabase fromEnvironment(Options options) {
        DatabaseUrl url = DatabaseUrl.fromEnvironment(options);
        if (url == null) return null;
        HikariConfig config = new HikariConfig();
        config.setPoolName("benchlab-db");
        config.setJdbcUrl(url.jdbcUrl());
        config.setUsername(url.user());
        config.setPassword(url.password());
        // A fixed pool, as TechEmpower's JDBC entries run it: no connection opened or closed mid-run.
        config.setMaximumPoolSize(DatabaseUrl.poolSize());
        config.setMinimumIdle(DatabaseUrl.poolSize());
        config.setConnectionTimeout(10_000);
        try {
            return new JdbcDatabase(url, new HikariDataSource(config));
        } catch (RuntimeException error) {
            options.fail("cannot connect to the database " + url.describe() + ": " + error.getMessage());
            throw new IllegalStateException("unreachable: fail() exits", error);
        }
    }

    /** The answer to a database request, blocking the calling thread for its statements. */
    public Reply answer(Query query) throws SQLException {
        try (Connection connection = pool.getConnection()) {
            return switch (query.kind()) {
                case DB -> DatabaseEndpoints.world(selectWorlds(connection, new int[] {DatabaseEndpoints.randomId()}).get(0));
                case QUERIES -> DatabaseEndpoints.worlds(selectWorlds(connection, randomIds(query.count())));
                case UPDATES -> DatabaseEndpoints.worlds(update(connection, DatabaseEndpoints.distinctSortedIds(query.count())));
                case FORTUNES -> DatabaseEndpoints.fortunes(fortunes(connection));
                case DOCS -> DatabaseEndpoints.docs(insertDocAndSelectNewest(connection));
            };
        }
    }

    private static int[] randomIds(int count) {
        int[] ids = new int[count];
        for (int i = 0; i < count; i++) ids[i] = DatabaseEndpoints.randomId();
        return ids;
    }

    /** One SELECT per id, as TechEmpower's multiple-queries test asks (no IN list). */
    private static List<World> selectWorlds(Connection connection, int[] ids) throws SQLException {
        List<World> worlds = new ArrayList<>(ids.length);
        try (PreparedStatement select = connection.prepareStatement(SELECT_WORLD)) {
            for (int id : ids) {
                select.setInt(1, id);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) throw new SQLException("world has no row " + id + ": is the database seeded?");
                    worlds.add(new World(row.getInt(1), row.getInt(2)));
                }
            }
        }
        return worlds;
    }

    /** Reads each row, then writes every new number in one batch (one round trip), in id order. */
    private static List<World> update(Connection connection, int[] ids) throws SQLException {
        List<World> updated = new ArrayList<>(ids.length);
        for (World world : selectWorlds(connection, ids)) updated.add(new World(world.id(), DatabaseEndpoints.randomNumber()));
        try (PreparedStatement update = connection.prepareStatement(UPDATE_WORLD)) {
            for (World world : updated) {
                update.setInt(1, world.randomNumber());
                update.setInt(2, world.id());
                update.addBatch();
            }
            update.executeBatch();
        }
        return updated;
    }

    private static List<Fortune> fortunes(Connection connection) throws SQLException {
        List<Fortune> fortunes = new ArrayList<>(16);
        try (PreparedStatement select = connection.prepareStatement(SELECT_FORTUNES); ResultSet rows = select.executeQuery()) {
            while (rows.next()) fortunes.add(new Fortune(rows.getInt(1), rows.getString(2)));
        }
        return fortunes;
    }

    private static List<Doc> insertDocAndSelectNewest(Connection connection) throws SQLException {
        NewDoc doc = DatabaseEndpoints.randomDoc();
        try (PreparedStatement insert = connection.prepareStatement(INSERT_DOC)) {
            insert.setString(1, doc.title());
            insert.setString(2, doc.body());
            insert.setInt(3, doc.count());
            insert.executeUpdate();
        }
        List<Doc> docs = new ArrayList<>(100);
        try (PreparedStatement select = connection.prepareStatement(SELECT_STORED_DOCS); ResultSet rows = select.executeQuery()) {
            while (rows.next()) docs.add(new Doc(rows.getInt(1), rows.getString(2), rows.getString(3), rows.getInt(4)));
        }
        return docs;
    }

    /** PostgreSQL's $1, $2… as JDBC's "?": the statements number their parameters in order. */
    private static String jdbc(String sql) {
        return sql.replaceAll("\\$\\d+", "?");
    }

    /** For the start line: where the pool connects and how many connections it holds. */
    public String describe() {
        return "database " + url.describe() + ", pool " + DatabaseUrl.poolSize();
    }

    @Override
    public void close() {
        pool.close();
    }
}
