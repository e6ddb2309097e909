// The 43 KB payload /file serves: read once at start, so that a missing file fails the start and
// not the first request, then served from memory (knob cacheFile) or read from disk per request.

package benchlab.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

public final class Payload {
    private final Path file;
    private final byte[] atStart;
    private final boolean inMemory;

    private Payload(Path file, byte[] atStart, boolean inMemory) {
        this.file = file;
        this.atStart = atStart;
        this.inMemory = inMemory;
    }

    static Payload load(Options options, Path file, boolean inMemory) {
        try {
            return new Payload(file, Files.readAllBytes(file), inMemory);
        } catch (IOException error) {
            options.fail("cannot read the payload " + file + ": " + error);
            throw new IllegalStateException("unreachable: fail() exits", error);
        }
    }

    public Path file() {
        return file;
    }

    /** Whether /file is served from memory rather than read per request. */
    public boolean inMemory() {
        return inMemory;
    }

    /** The bytes read at start: what /file serves when inMemory(). */
    public byte[] atStart() {
        return atStart;
    }

    /** The body of /file now: from memory, or a blocking read of the file. */
    public byte[] read() throws IOException {
        return inMemory ? atStart : Files.readAllBytes(file);
    }

    /** For the start line in the server's log. */
    public String describe() {
        return inMemory ? "payload cached in memory" : "payload read per request";
    }
}
