// The server runtime's own figures of each second, read on the server host from the files the runtime
// writes (app/runs/runtime-monitors.ts says which, from the server process's command line): a JVM's
// GC pauses from its unified GC log, a Node server's event-loop delay, GC pauses and the monitor's own
// timer runs from the lines its preloaded monitor writes per process. Each file is followed from
// where it ended at the first reading, so what happened before the run is never counted; a file that
// shrank was started again and is read from its beginning.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { ServerMetrics } from '../app/runs/agent-protocol.ts';
import { gcFiguresOf, parseGcPauses } from '../app/runs/gc-log.ts';
import { eventLoopFiguresOf, nodeGcFiguresOf, parseEventLoopLines, processDelay, processGcOf, type EventLoopLine, type ProcessGc } from '../app/runs/event-loop-monitor.ts';
import { runtimeLogsOf } from '../app/runs/runtime-monitors.ts';
import { readProc } from './proc-files.ts';

/** More new text than this in one second is passed over to the file's end (a log flooded by other tags). */
const MAX_READ_BYTES = 1024 * 1024;

type RuntimeFigures = Pick<ServerMetrics, 'gcPauses' | 'gcPauseMs' | 'gcLongestPauseMs' | 'heapAfterGcBytes' | 'eventLoopDelayP50Ms' | 'eventLoopDelayP99Ms' | 'eventLoopDelayMaxMs' | 'monitorWakesPerS'>;

/** A file followed from an offset; whole lines only (a line being written waits for its end). */
class FollowedFile {
  readonly path: string;
  #offset: number | null = null;
  #partial = '';

  constructor(path: string) {
    this.path = path;
  }

  /** Whether the file was read before: the first read marks where it ended, with nothing to compare with. */
  get following(): boolean {
    return this.#offset !== null;
  }

  /** The whole lines written since the last read; null when the file is not there. The first read only marks the end. */
  read(): string | null {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return null;
    }
    try {
      const size = fstatSync(fd).size;
      if (this.#offset === null || size < this.#offset) {
        const first = this.#offset === null;
        this.#offset = first ? size : 0;
        this.#partial = '';
        if (first) return '';
      }
      if (size - this.#offset > MAX_READ_BYTES) {
        this.#offset = size;
        this.#partial = '';
        return '';
      }
      const buffer = Buffer.alloc(size - this.#offset);
      const got = buffer.length === 0 ? 0 : readSync(fd, buffer, 0, buffer.length, this.#offset);
      this.#offset += got;
      const text = this.#partial + buffer.subarray(0, got).toString('utf8');
      const end = text.lastIndexOf('\n');
      this.#partial = text.slice(end + 1);
      return text.slice(0, end + 1);
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }
}

/** The last whole line a file holds now (read from its last 4 KB), or null. */
function lastLineOf(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, 4096));
    const text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, size - buffer.length)).toString('utf8');
    const end = text.lastIndexOf('\n');
    const line = text.slice(text.lastIndexOf('\n', end - 1) + 1, end);
    return end > 0 && line !== '' ? line : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** A path as the process means it: a relative one from its working directory. */
function fromProcess(pid: number, path: string): string {
  return path.startsWith('/') ? path : `/proc/${pid}/cwd/${path}`;
}

/** A process's monitor file as followed: its latest line and the heap it left after its latest GC pause. */
interface Loop {
  file: FollowedFile;
  last: EventLoopLine | null;
  heapBytes: number | null;
}

export class RuntimeSampler {
  #pid: number | null = null;
  #gcLog: FollowedFile | null = null;
  #eventLoopFolder: string | null = null;
  #loops = new Map<number, Loop>();

  /** The figures of the interval for the server process `pid` and its tree; none while it writes none. */
  sample(pid: number | null, tree: readonly number[], nowMs: number): RuntimeFigures {
    if (pid !== this.#pid) this.#attach(pid);
    if (pid === null) return {};
    const figures: RuntimeFigures = {};
    const following = this.#gcLog?.following ?? false;
    const gcText = this.#gcLog?.read() ?? null;
    if (gcText !== null && following) Object.assign(figures, gcFiguresOf(parseGcPauses(gcText)));
    if (this.#eventLoopFolder !== null) Object.assign(figures, this.#eventLoop(tree, nowMs) ?? {});
    return figures;
  }

  #attach(pid: number | null): void {
    this.#pid = pid;
    this.#gcLog = null;
    this.#eventLoopFolder = null;
    this.#loops = new Map();
    if (pid === null) return;
    const argv = (readProc(`/proc/${pid}/cmdline`) ?? '').split('\0').filter((arg) => arg !== '');
    const logs = runtimeLogsOf(argv);
    if (logs.gcLog !== null) this.#gcLog = new FollowedFile(fromProcess(pid, logs.gcLog));
    if (logs.eventLoopFolder !== null) this.#eventLoopFolder = fromProcess(pid, logs.eventLoopFolder);
  }

  /**
   * Each process of the tree that has a file: its delay for the interval; the worst of them. A file
   * met for the first time is only marked, but its last line is kept as the process's latest: the
   * monitor writes a line a second on its own clock, so the next reading may come just before the
   * next line, and then reports that latest line (as for any second without a new one) rather than
   * nothing. GC comes from the new lines only (a pause is counted once), of the processes whose
   * monitor observes it (one of older Benchlab does not: it says nothing of GC, rather than zero).
   */
  #eventLoop(tree: readonly number[], nowMs: number): RuntimeFigures | null {
    const loops = new Map<number, Loop>();
    const delays: Array<EventLoopLine | null> = [];
    const gcs: ProcessGc[] = [];
    for (const pid of tree) {
      const known = this.#loops.get(pid);
      const path = `${this.#eventLoopFolder}/${pid}.jsonl`;
      const loop = known ?? { file: new FollowedFile(path), last: null, heapBytes: null };
      const text = loop.file.read();
      if (text === null) continue;
      loops.set(pid, loop);
      if (!known) {
        const line = lastLineOf(path);
        loop.last = line === null ? null : (parseEventLoopLines(`${line}\n`).at(-1) ?? null);
        loop.heapBytes = loop.last?.heap ?? null;
        continue;
      }
      const fresh = parseEventLoopLines(text);
      delays.push(processDelay(fresh, loop.last, nowMs));
      if ((fresh.at(-1) ?? loop.last)?.gc !== undefined) {
        const gc = processGcOf(fresh, loop.heapBytes);
        loop.heapBytes = gc.heapBytes;
        gcs.push(gc);
      }
      if (fresh.length > 0) loop.last = fresh.at(-1)!;
    }
    this.#loops = loops;
    const delay = eventLoopFiguresOf(delays);
    const gc = nodeGcFiguresOf(gcs);
    return delay === null && gc === null ? null : { ...delay, ...gc };
  }
}
