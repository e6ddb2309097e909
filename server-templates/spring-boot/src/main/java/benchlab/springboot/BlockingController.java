// Variant "sync": a blocking @RestController. /sleep holds its request thread for the whole sleep and
// /file is a blocking read, so the container's request threads (knob threads) bound the requests in
// progress, as in a classic servlet.

package benchlab.springboot;

import benchlab.common.Endpoints;
import benchlab.common.Endpoints.Reply;
import benchlab.common.Endpoints.Route;
import benchlab.common.Endpoints.Sleep;
import benchlab.common.Payload;
import java.io.IOException;
import org.springframework.context.annotation.Profile;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@Profile("sync")
class BlockingController extends ContractEndpoints {
    BlockingController(Payload payload) {
        super(payload);
    }

    @GetMapping("/sleep")
    ResponseEntity<byte[]> sleep(@RequestParam(name = "ms", required = false) String ms) throws InterruptedException {
        Route route = route("/sleep", ms);
        if (!(route instanceof Sleep sleep)) return Replies.of((Reply) route);
        Thread.sleep(sleep.ms());
        return Replies.of(sleep.reply());
    }

    @GetMapping("/file")
    ResponseEntity<byte[]> file() throws IOException {
        return Replies.of(Endpoints.file(payload.read()));
    }
}
