// Variant "async" with a database: the same JDBC calls as sync, run on the bounded blocking pool and
// returned as CompletableFutures, so the container's request threads never wait for PostgreSQL.

package benchlab.springboot;

import benchlab.common.DatabaseEndpoints;
import java.util.concurrent.CompletableFuture;
import org.springframework.context.annotation.Profile;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

@RestController
@Profile("async & database")
class AsyncDatabaseController {
    private final JdbcWorlds worlds;
    private final BlockingWork work;
    private final JsonMapper json;

    AsyncDatabaseController(JdbcWorlds worlds, BlockingWork work, JsonMapper json) {
        this.worlds = worlds;
        this.work = work;
        this.json = json;
    }

    @GetMapping("/db")
    CompletableFuture<ResponseEntity<byte[]>> db() {
        return work.submit(() -> Replies.json(json, worlds.world()));
    }

    @GetMapping("/queries")
    CompletableFuture<ResponseEntity<byte[]>> queries(@RequestParam(name = "n", required = false) String n) {
        int count = Rows.queries(n);
        return work.submit(() -> Replies.json(json, worlds.worlds(count)));
    }

    @GetMapping("/updates")
    CompletableFuture<ResponseEntity<byte[]>> updates(@RequestParam(name = "n", required = false) String n) {
        int count = Rows.queries(n);
        return work.submit(() -> Replies.json(json, worlds.update(count)));
    }

    @GetMapping("/fortunes")
    CompletableFuture<ResponseEntity<byte[]>> fortunes() {
        return work.submit(() -> Replies.html(DatabaseEndpoints.fortunes(worlds.fortunes()).body()));
    }

    @RequestMapping(path = "/docs", method = {RequestMethod.GET, RequestMethod.POST})
    CompletableFuture<ResponseEntity<byte[]>> docs() {
        return work.submit(() -> Replies.json(json, worlds.addDoc()));
    }
}
