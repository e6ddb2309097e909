// A deployment without a database (knob database off, BENCHLAB_DB_URL `none`): the database endpoints
// answer 503 and say which knob to turn on. Plain answers, so Spring MVC and WebFlux both serve it.

package benchlab.springboot;

import org.springframework.context.annotation.Profile;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Profile("!database")
class NoDatabaseController {
    @RequestMapping(path = {"/db", "/queries", "/updates", "/fortunes"}, method = RequestMethod.GET)
    ResponseEntity<byte[]> query() {
        return Replies.noDatabase();
    }

    @RequestMapping(path = "/docs", method = {RequestMethod.GET, RequestMethod.POST})
    ResponseEntity<byte[]> docs() {
        return Replies.noDatabase();
    }
}
