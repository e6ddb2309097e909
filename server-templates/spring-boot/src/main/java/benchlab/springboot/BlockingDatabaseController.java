// Variant "sync" with a database: the database endpoints as blocking JDBC calls on the request thread.

package benchlab.springboot;

import benchlab.common.DatabaseEndpoints;
import org.springframework.context.annotation.Profile;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

@RestController
@Profile("sync & database")
class BlockingDatabaseController {
    private final JdbcWorlds worlds;
    private final JsonMapper json;

    BlockingDatabaseController(JdbcWorlds worlds, JsonMapper json) {
        this.worlds = worlds;
        this.json = json;
    }

    @GetMapping("/db")
    ResponseEntity<byte[]> db() {
        return Replies.json(json, worlds.world());
    }

    @GetMapping("/queries")
    ResponseEntity<byte[]> queries(@RequestParam(name = "n", required = false) String n) {
        return Replies.json(json, worlds.worlds(Rows.queries(n)));
    }

    @GetMapping("/updates")
    ResponseEntity<byte[]> updates(@RequestParam(name = "n", required = false) String n) {
        return Replies.json(json, worlds.update(Rows.queries(n)));
    }

    @GetMapping("/fortunes")
    ResponseEntity<byte[]> fortunes() {
        return Replies.html(DatabaseEndpoints.fortunes(worlds.fortunes()).body());
    }

    @RequestMapping(path = "/docs", method = {RequestMethod.GET, RequestMethod.POST})
    ResponseEntity<byte[]> docs() {
        return Replies.json(json, worlds.addDoc());
    }
}
