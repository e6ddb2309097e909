// Answers as Spring ResponseEntity<byte[]>, for Spring MVC and WebFlux alike: the body is bytes made
// here, with its exact Content-Type and Content-Length, so no message converter adds a charset or
// chunks a long JSON array (the contract wants a Content-Length on every 200 answer).

package benchlab.springboot;

import benchlab.common.Endpoints.Reply;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.json.JsonMapper;

final class Replies {
    private static final byte[] NO_DATABASE = "no database: deploy with the knob database on\n".getBytes(StandardCharsets.US_ASCII);

    private Replies() {}

    /** An answer of the shared contract code. */
    static ResponseEntity<byte[]> of(Reply reply) {
        ResponseEntity.BodyBuilder builder = ResponseEntity.status(reply.status());
        if (reply.allow() != null) builder.header(HttpHeaders.ALLOW, reply.allow());
        return body(builder, reply.type(), reply.body());
    }

    /** A JSON answer, written by Spring Boot's own Jackson mapper. */
    static ResponseEntity<byte[]> json(JsonMapper mapper, Object value) {
        return body(ResponseEntity.ok(), "application/json", mapper.writeValueAsBytes(value));
    }

    static ResponseEntity<byte[]> html(byte[] page) {
        return body(ResponseEntity.ok(), "text/html; charset=utf-8", page);
    }

    /** The database endpoints of a deployment without a database. */
    static ResponseEntity<byte[]> noDatabase() {
        return body(ResponseEntity.status(503), "text/plain", NO_DATABASE);
    }

    private static ResponseEntity<byte[]> body(ResponseEntity.BodyBuilder builder, String type, byte[] body) {
        return builder.header(HttpHeaders.CONTENT_TYPE, type).contentLength(body.length).body(body);
    }
}
