// Variant "webflux" with a database: the database endpoints over R2DBC, never blocking an event loop.

package benchlab.springboot;

import benchlab.common.DatabaseEndpoints;
import org.springframework.context.annotation.Profile;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

@RestController
@Profile("webflux & database")
class ReactiveDatabaseController {
    private final R2dbcWorlds worlds;
    private final JsonMapper json;

    ReactiveDatabaseController(R2dbcWorlds worlds, JsonMapper json) {
        this.worlds = worlds;
        this.json = json;
    }

    @GetMapping("/db")
    Mono<ResponseEntity<byte[]>> db() {
        return worlds.world().map(world -> Replies.json(json, world));
    }

    @GetMapping("/queries")
    Mono<ResponseEntity<byte[]>> queries(@RequestParam(name = "n", required = false) String n) {
        return worlds.worlds(Rows.queries(n)).map(rows -> Replies.json(json, rows));
    }

    @GetMapping("/updates")
    Mono<ResponseEntity<byte[]>> updates(@RequestParam(name = "n", required = false) String n) {
        return worlds.update(Rows.queries(n)).map(rows -> Replies.json(json, rows));
    }

    @GetMapping("/fortunes")
    Mono<ResponseEntity<byte[]>> fortunes() {
        return worlds.fortunes().map(rows -> Replies.html(DatabaseEndpoints.fortunes(rows).body()));
    }

    @RequestMapping(path = "/docs", method = {RequestMethod.GET, RequestMethod.POST})
    Mono<ResponseEntity<byte[]>> docs() {
        return worlds.addDoc().map(rows -> Replies.json(json, rows));
    }
}
