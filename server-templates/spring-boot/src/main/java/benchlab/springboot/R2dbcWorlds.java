// The database endpoints' queries over R2DBC (Spring's DatabaseClient on r2dbc-postgresql with
// r2dbc-pool), for the webflux variant: nothing blocks, the rows of one request are fetched in parallel
// over the pool's connections.

package benchlab.springboot;

import benchlab.springboot.Rows.Doc;
import benchlab.common.DatabaseEndpoints;
import benchlab.common.DatabaseEndpoints.Fortune;
import benchlab.springboot.Rows.NewDoc;
import benchlab.springboot.Rows.World;
import java.util.List;
import org.springframework.context.annotation.Profile;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

@Repository
@Profile("database & webflux")
class R2dbcWorlds {
    private final DatabaseClient client;

    R2dbcWorlds(DatabaseClient client) {
        this.client = client;
    }

    Mono<World> world() {
        return client.sql("SELECT id, randomnumber FROM world WHERE id = $1").bind(0, Rows.randomNumber())
                .map((row, meta) -> new World(row.get(0, Integer.class), row.get(1, Integer.class))).one();
    }

    Mono<List<World>> worlds(int n) {
        return Flux.range(0, n).flatMap(i -> world()).collectList();
    }

    /** n rows read, then each written back with a new random number (one statement each, in parallel). */
    Mono<List<World>> update(int n) {
        return worlds(n).flatMap(worlds -> {
            List<World> updated = worlds.stream().map(world -> new World(world.id(), Rows.randomNumber())).toList();
            return Flux.fromIterable(updated)
                    .flatMap(world -> client.sql("UPDATE world SET randomnumber = $1 WHERE id = $2")
                            .bind(0, world.randomNumber()).bind(1, world.id()).fetch().rowsUpdated())
                    .then(Mono.just(updated));
        });
    }

    Mono<List<Fortune>> fortunes() {
        return client.sql("SELECT id, message FROM fortune")
                .map((row, meta) -> new Fortune(row.get(0, Integer.class), row.get(1, String.class))).all().collectList();
    }

    /** Stores one random document, then reads 100 stored ones, unsorted (the siege seed's select). */
    Mono<List<Doc>> addDoc() {
        NewDoc doc = NewDoc.random();
        return client.sql("INSERT INTO docs (title, body, count) VALUES ($1, $2, $3)")
                .bind(0, doc.title()).bind(1, doc.body()).bind(2, doc.count()).fetch().rowsUpdated()
                .then(client.sql(DatabaseEndpoints.SELECT_STORED_DOCS)
                        .map((row, meta) -> new Doc(row.get(0, Integer.class), row.get(1, String.class), row.get(2, String.class),
                                row.get(3, Integer.class)))
                        .all().collectList());
    }
}
