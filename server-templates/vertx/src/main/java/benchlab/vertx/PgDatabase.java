// The database endpoints of the Vert.x template on Vert.x's reactive PostgreSQL client: one pool of
// DatabaseUrl.poolSize() connections for the server process, shared by every verticle instance;
// nothing blocks, each statement's result comes back on the event loop of the request that sent it
// (so both variants use it the same way). /queries sends its n SELECTs at once over the pool's
// pipelined connections, /updates writes its rows in one batch. The answers are the shared
// DatabaseEndpoints' own, so Vert.x serves the same bytes as the JDBC templates.

package benchlab.vertx;

import benchlab.common.DatabaseEndpoints;
import benchlab.common.DatabaseEndpoints.Doc;
import benchlab.common.DatabaseEndpoints.Fortune;
import benchlab.common.DatabaseEndpoints.NewDoc;
import benchlab.common.DatabaseEndpoints.Query;
import benchlab.common.DatabaseEndpoints.World;
import benchlab.common.DatabaseUrl;
import benchlab.common.Endpoints.Reply;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

final class PgDatabase implements Database {
    private final DatabaseUrl url;
    private final Pool pool;

    private PgDatabase(DatabaseUrl url, Pool pool) {
        this.url = url;
        this.pool = pool;
    }

    /** The pool for `url`, its connections spread over `eventLoops` loops; opens them lazily. */
    static PgDatabase open(Vertx vertx, DatabaseUrl url, int eventLoops) {
        PgConnectOptions connect = new PgConnectOptions()
                .setHost(url.host()).setPort(url.port()).setDatabase(url.name())
                .setUser(url.user()).setPassword(url.password())
                .setCachePreparedStatements(true);
        PoolOptions poolOptions = new PoolOptions().setMaxSize(DatabaseUrl.poolSize()).setEventLoopSize(eventLoops);
        return new PgDatabase(url, PgBuilder.pool().with(poolOptions).connectingTo(connect).using(vertx).build());
    }

    /** One round trip before the server listens, so that a database out of reach fails the start. */
    @Override
    public Future<Void> check() {
        return pool.query("SELECT 1").execute().mapEmpty();
    }

    @Override
    public Future<Reply> answer(Query query) {
        return switch (query.kind()) {
            case DB -> selectWorld(DatabaseEndpoints.randomId()).map(DatabaseEndpoints::world);
            case QUERIES -> selectWorlds(IntStream.generate(DatabaseEndpoints::randomId).limit(query.count()).toArray())
                    .map(DatabaseEndpoints::worlds);
            case UPDATES -> update(DatabaseEndpoints.distinctSortedIds(query.count())).map(DatabaseEndpoints::worlds);
            case FORTUNES -> pool.preparedQuery(DatabaseEndpoints.SELECT_FORTUNES).execute().map(PgDatabase::fortunes);
            case DOCS -> insertDocAndSelectNewest();
        };
    }

    private Future<World> selectWorld(int id) {
        return pool.preparedQuery(DatabaseEndpoints.SELECT_WORLD).execute(Tuple.of(id)).map(rows -> {
            if (rows.size() == 0) throw new IllegalStateException("world has no row " + id + ": is the database seeded?");
            Row row = rows.iterator().next();
            return new World(row.getInteger(0), row.getInteger(1));
        });
    }

    /** One SELECT per id, as TechEmpower's multiple-queries test asks (no IN list), all sent at once. */
    private Future<List<World>> selectWorlds(int[] ids) {
        List<Future<World>> selects = new ArrayList<>(ids.length);
        for (int id : ids) selects.add(selectWorld(id));
        return Future.all(selects).map(all -> all.<World>list());
    }

    /** Reads each row, then writes every new number in one batch, in id order. */
    private Future<List<World>> update(int[] ids) {
        return selectWorlds(ids).compose(worlds -> {
            List<World> updated = new ArrayList<>(worlds.size());
            List<Tuple> batch = new ArrayList<>(worlds.size());
            for (World world : worlds) {
                World fresh = new World(world.id(), DatabaseEndpoints.randomNumber());
                updated.add(fresh);
                batch.add(Tuple.of(fresh.randomNumber(), fresh.id()));
            }
            return pool.preparedQuery(DatabaseEndpoints.UPDATE_WORLD).executeBatch(batch).map(done -> updated);
        });
    }

    private static Reply fortunes(RowSet<Row> rows) {
        List<Fortune> fortunes = new ArrayList<>(rows.size());
        for (Row row : rows) fortunes.add(new Fortune(row.getInteger(0), row.getString(1)));
        return DatabaseEndpoints.fortunes(fortunes);
    }

    private Future<Reply> insertDocAndSelectNewest() {
        NewDoc doc = DatabaseEndpoints.randomDoc();
        return pool.preparedQuery(DatabaseEndpoints.INSERT_DOC).execute(Tuple.of(doc.title(), doc.body(), doc.count()))
                .compose(inserted -> pool.preparedQuery(DatabaseEndpoints.SELECT_STORED_DOCS).execute())
                .map(rows -> {
                    List<Doc> docs = new ArrayList<>(rows.size());
                    for (Row row : rows) docs.add(new Doc(row.getInteger(0), row.getString(1), row.getString(2), row.getInteger(3)));
                    return DatabaseEndpoints.docs(docs);
                });
    }

    /** For the start line: where the pool connects and how many connections it holds. */
    @Override
    public String describe() {
        return "database " + url.describe() + ", pool " + DatabaseUrl.poolSize();
    }

    @Override
    public Future<Void> close() {
        return pool.close();
    }
}
