// The 43 KB payload /file serves: read once at start, so that a missing file fails the start and
// not the first request, then served from memory (knob cacheFile) or read from disk per request.

package benchlab.common;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.CompletionHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;

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

    /**
     * The body of /file without blocking the caller, for the async variants: from memory, or read
     * with an AsynchronousFileChannel (completed on its own threads, never a request thread).
     */
    public CompletableFuture<byte[]> readAsync() {
        if (inMemory) return CompletableFuture.completedFuture(atStart);
        AsynchronousFileChannel channel;
        ByteBuffer buffer;
        try {
            channel = AsynchronousFileChannel.open(file, StandardOpenOption.READ);
            buffer = ByteBuffer.allocate(Math.toIntExact(channel.size()));
        } catch (IOException | ArithmeticException error) {
            return CompletableFuture.failedFuture(error);
        }
        CompletableFuture<byte[]> read = new CompletableFuture<>();
        channel.read(buffer, 0, null, new CompletionHandler<Integer, Void>() {
            @Override
            public void completed(Integer count, Void attachment) {
                if (count >= 0 && buffer.hasRemaining()) {
                    // A short read: go on from where it stopped.
                    channel.read(buffer, buffer.position(), null, this);
                    return;
                }
                close(channel);
                read.complete(buffer.array());
            }

            @Override
            public void failed(Throwable error, Void attachment) {
                close(channel);
                read.completeExceptionally(error);
            }
        });
        return read;
    }

    private static void close(AsynchronousFileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // read-only: nothing to lose
        }
    }
}
