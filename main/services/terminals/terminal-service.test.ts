// TerminalManager against real shells on this machine (LocalTransport): echo, UTF-8 split across
// reads, acknowledgement backpressure under a `yes` flood, close and unknown ids, and a view that
// comes back to an open shell (list, attach with its scrollback).

import assert from 'node:assert/strict';
import { after, afterEach, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../../../app/common/errors.ts';
import { SCROLLBACK_CHARS, UNACKED_LIMIT } from '../../../app/terminals/terminal.ts';
import { EventBus } from '../event-bus.ts';
import { LocalTransport } from '../hosts/local-transport.ts';
import { MAX_EVENT_BYTES, TerminalManager } from './terminal-service.ts';
import { childProcesses } from '../../../tests/support/processes.ts';

const SIZE = { cols: 120, rows: 40 };

/** What one terminal has sent, as the UI would see it. */
class Screen {
  text = '';
  bytes = 0;
  events = 0;
  /** The `seq` of the last event. */
  seq = 0;
  acked = 0;
  exit: number | null | undefined = undefined;
  /** The largest (received − acknowledged) seen when an event arrived. */
  maxAhead = 0;
  readonly #waiters = new Set<() => void>();

  constructor(bus: EventBus, id: () => string | undefined, autoAck: ((bytes: number) => void) | null) {
    bus.subscribe('terminal.data', (event) => {
      if (event.terminalId !== id()) return;
      this.text += event.data;
      this.bytes += event.bytes;
      this.events += 1;
      assert.equal(event.seq, this.seq + 1, 'events are numbered in order');
      this.seq = event.seq;
      this.maxAhead = Math.max(this.maxAhead, this.bytes - this.acked);
      if (autoAck) {
        this.acked += event.bytes;
        autoAck(event.bytes);
      }
      this.#waiters.forEach((wake) => wake());
    });
    bus.subscribe('terminal.exit', (event) => {
      if (event.terminalId !== id()) return;
      this.exit = event.code;
      this.#waiters.forEach((wake) => wake());
    });
  }

  /** Resolves once `check` holds, re-checked on every event; fails after timeoutMs. */
  async until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      const left = deadline - Date.now();
      if (left <= 0) assert.fail(`timed out waiting for ${what}; last output: ${JSON.stringify(this.text.slice(-300))}`);
      await new Promise<void>((wake) => {
        const done = () => {
          clearTimeout(timer);
          this.#waiters.delete(done);
          wake();
        };
        const timer = setTimeout(done, Math.min(left, 100));
        this.#waiters.add(done);
      });
    }
  }
}

let manager: TerminalManager | undefined;

/** Pids of the `script` processes this test process started (each local shell is one). */
const ownShellProcesses = () => childProcesses(process.pid, 'script');

async function waitForNoShellProcesses(timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let left = ownShellProcesses();
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(50);
    left = ownShellProcesses();
  }
  return left;
}

/**
 * A slow UI: acknowledges (`ack`) every 20 ms until `done` holds, failing with `what` after
 * `timeoutMs`. The pace is part of what is tested (a reader slower than the shell), not a wait.
 */
async function readSlowly(done: () => boolean, what: string, ack: () => void, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await sleep(20);
    ack();
  }
}

afterEach(() => {
  manager?.closeAll();
  manager = undefined;
});

after(async () => {
  // Whatever a failed test left running must not keep this test process alive.
  for (const pid of await waitForNoShellProcesses(3000)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

function setup(options: { autoAck: boolean; stallMs?: number }) {
  const bus = new EventBus();
  const transport = new LocalTransport();
  const terminals = new TerminalManager({
    bus,
    ...(options.stallMs ? { stallMs: options.stallMs } : {}),
    transportFor: (hostId) => {
      if (hostId !== 1) throw new ApiError('disconnected', `host ${hostId} is not connected`);
      return transport;
    },
  });
  manager = terminals;
  let id: string | undefined;
  const screen = new Screen(bus, () => id, options.autoAck ? (bytes) => id && terminals.ack(id, bytes) : null);
  return {
    terminals,
    screen,
    open: async () => {
      id = await terminals.open(1, SIZE);
      return id;
    },
  };
}

test('opens a shell, runs a command and shows its output', async () => {
  const { terminals, screen, open } = setup({ autoAck: true });
  const id = await open();
  assert.match(id, /^t\d+$/);
  terminals.input(id, 'echo hello-$((6*7))\r');
  // The typed line echoes as "hello-$((6*7))"; only the shell's answer contains hello-42.
  await screen.until(() => screen.text.includes('hello-42'), 'hello-42');
  assert.deepEqual(terminals.list(), [id]);
});

test('terminal ids count up and a host that is not connected is refused', async () => {
  const { terminals, open } = setup({ autoAck: true });
  const first = await open();
  const second = await terminals.open(1, SIZE);
  assert.equal(Number(second.slice(1)), Number(first.slice(1)) + 1);
  await assert.rejects(terminals.open(2, SIZE), (error: ApiError) => error.code === 'disconnected');
});

test('multibyte characters split across reads and events arrive whole', async () => {
  const { terminals, screen, open } = setup({ autoAck: true });
  const id = await open();
  // 3-byte characters in reads of arbitrary size (the PTY's, and the 16/64 KiB event limits): splits are certain.
  // Octal escapes, so the echoed command line itself holds no €.
  terminals.input(id, "printf '\\342\\202\\254%.0s' $(seq 1 30000); echo; echo done-$((1+1))\r");
  await screen.until(() => screen.text.includes('done-2'), 'done-2');
  assert.equal(screen.text.match(/€/g)?.length, 30000);
  assert.ok(!screen.text.includes('\uFFFD'), 'no replacement character: no character was cut in two');
});

test('a flood never runs more than UNACKED_LIMIT ahead of the acks, and resumes when acked', async () => {
  const { terminals, screen, open } = setup({ autoAck: false });
  const id = await open();
  const ackAll = () => {
    const bytes = screen.bytes - screen.acked;
    screen.acked += bytes;
    terminals.ack(id, bytes);
  };
  terminals.input(id, 'yes\r');

  // Nobody acknowledges: output stops at the limit and the shell is paused.
  await screen.until(() => terminals.stats(id).paused, 'the shell to be paused');
  // The shell had more to say: it is held back, not sent, while nothing is acknowledged.
  await screen.until(() => terminals.stats(id).pending > 0, 'output held back');
  const stalled = screen.bytes;
  assert.equal(terminals.stats(id).sent, stalled);
  assert.ok(stalled <= UNACKED_LIMIT, `sent ${stalled} bytes unacknowledged, limit ${UNACKED_LIMIT}`);
  assert.ok(stalled >= UNACKED_LIMIT / 2, `the limit is used, not starved (${stalled} bytes)`);

  // A slow reader acknowledges everything it has; output resumes, window after window.
  await readSlowly(() => screen.bytes > stalled + 4 * UNACKED_LIMIT, 'output to resume after the acks', () => {
    ackAll();
    const stats = terminals.stats(id);
    assert.ok(stats.unacked <= UNACKED_LIMIT, `unacked ${stats.unacked} > ${UNACKED_LIMIT}`);
  });
  assert.ok(screen.maxAhead <= UNACKED_LIMIT + MAX_EVENT_BYTES, `ran ${screen.maxAhead} bytes ahead of the acks`);
  assert.ok(terminals.stats(id).maxUnacked <= UNACKED_LIMIT);
  // Small PTY reads are merged: far fewer events than 4 KiB reads would give.
  assert.ok(screen.events < screen.bytes / 4096, `${screen.events} events for ${screen.bytes} bytes`);

  // Ctrl-C stops `yes`; keep acknowledging until the prompt answers again.
  terminals.input(id, '\x03');
  terminals.input(id, 'echo back-$((40+2))\r');
  await readSlowly(() => screen.text.slice(-4096).includes('back-42'), 'the prompt to come back after Ctrl-C', ackAll);
});

test('a paused shell that hears no ack at all lets one more window through per stall period', async () => {
  // What happens when events or acks were lost (a reconnecting WebSocket): slow, bounded, never stuck.
  const { terminals, screen, open } = setup({ autoAck: false, stallMs: 400 });
  const id = await open();
  terminals.input(id, 'yes\r');
  await screen.until(() => terminals.stats(id).paused, 'the shell to be paused');
  const firstWindow = screen.bytes;
  // Held while the stall period runs: more output waits, not sent beyond the one window.
  await screen.until(() => terminals.stats(id).pending > 0, 'output held back');
  assert.ok(firstWindow <= UNACKED_LIMIT, `sent ${firstWindow} bytes unacknowledged, limit ${UNACKED_LIMIT}`);
  await screen.until(() => screen.bytes > firstWindow, 'the next window after the stall period', 3000);
  await screen.until(() => terminals.stats(id).paused, 'paused again');
  assert.ok(screen.bytes <= 2 * UNACKED_LIMIT + MAX_EVENT_BYTES, `${screen.bytes} bytes after one stall period`);
  assert.ok(terminals.stats(id).maxUnacked <= UNACKED_LIMIT);
});

test('close ends the shell with terminal.exit and forgets the id', async () => {
  const { terminals, screen, open } = setup({ autoAck: true });
  const id = await open();
  terminals.input(id, 'echo ready-$((2*3))\r');
  await screen.until(() => screen.text.includes('ready-6'), 'ready-6');
  terminals.close(id);
  await screen.until(() => screen.exit !== undefined, 'terminal.exit');
  assert.deepEqual(terminals.list(), []);
  assert.throws(() => terminals.close(id), (error: ApiError) => error.code === 'not_found');
  assert.deepEqual(await waitForNoShellProcesses(2000), [], 'the closed shell is really gone');
});

test('a shell that exits by itself reports terminal.exit', async () => {
  const { terminals, screen, open } = setup({ autoAck: true });
  const id = await open();
  terminals.input(id, 'exit 3\r');
  await screen.until(() => screen.exit !== undefined, 'terminal.exit');
  // The code is the transport's to tell: SSH gives 3; util-linux `script` gives it only with -e.
  assert.ok(screen.exit === null || typeof screen.exit === 'number');
  assert.deepEqual(terminals.list(), []);
});

test('closing a flooding, paused shell still ends it', async () => {
  const { terminals, screen, open } = setup({ autoAck: false });
  const id = await open();
  terminals.input(id, 'yes\r');
  await screen.until(() => terminals.stats(id).paused, 'the shell to be paused');
  terminals.close(id);
  await screen.until(() => screen.exit !== undefined, 'terminal.exit');
  assert.deepEqual(terminals.list(), []);
  assert.deepEqual(await waitForNoShellProcesses(2000), [], 'the closed shell is really gone');
});

test('unknown terminal ids are not_found', () => {
  const { terminals } = setup({ autoAck: true });
  for (const call of [
    () => terminals.close('t999'),
    () => terminals.input('t999', 'x'),
    () => terminals.resize('t999', SIZE),
    () => terminals.ack('t999', 1),
  ]) {
    assert.throws(call, (error: ApiError) => error instanceof ApiError && error.code === 'not_found');
  }
});

test('closeAll ends every shell', async () => {
  const { terminals, screen, open } = setup({ autoAck: true });
  await open();
  await terminals.open(1, SIZE);
  assert.equal(terminals.list().length, 2);
  terminals.closeAll();
  assert.deepEqual(terminals.list(), []);
  assert.notEqual(screen.exit, undefined);
});

test('a view that comes back lists the open shell and attaches with its scrollback, then sees what follows', async () => {
  const { terminals, screen, open } = setup({ autoAck: true });
  const id = await open();
  terminals.resize(id, { cols: 100, rows: 30 });
  terminals.input(id, 'echo before-$((3*4))\r');
  await screen.until(() => screen.text.includes('before-12'), 'before-12');
  assert.deepEqual(terminals.openTerminals(), [{ terminalId: id, hostId: 1, size: { cols: 100, rows: 30 } }]);

  const attached = terminals.attach(id);
  assert.equal(attached.seq, screen.seq, 'the scrollback holds every event so far');
  assert.equal(attached.scrollback, screen.text);

  terminals.input(id, 'echo after-$((5*5))\r');
  await screen.until(() => screen.text.includes('after-25'), 'after-25');
  assert.ok(screen.seq > attached.seq, 'later output comes in later events');
  assert.equal(terminals.attach(id).scrollback, screen.text);

  terminals.close(id);
  assert.deepEqual(terminals.openTerminals(), [], 'a closing shell is not offered again');
});

test('the scrollback keeps the last output, from a line start', async () => {
  const { terminals, screen, open } = setup({ autoAck: true });
  const id = await open();
  terminals.input(id, `seq -f 'line-%07g' 1 ${Math.ceil((2 * SCROLLBACK_CHARS) / 13)}; echo done-$((2+3))\r`);
  await screen.until(() => screen.text.includes('done-5'), 'done-5', 20_000);
  const { scrollback } = terminals.attach(id);
  assert.ok(scrollback.length <= SCROLLBACK_CHARS * 1.25, `${scrollback.length} characters kept`);
  assert.ok(scrollback.length >= SCROLLBACK_CHARS - 20, `${scrollback.length} characters kept (at most one 14-character line less than the limit)`);
  assert.match(scrollback, /^line-\d{7}\r\n/, 'starts at a line start');
  assert.ok(screen.text.endsWith(scrollback), 'the newest output is kept');
});

test('attaching releases a shell paused for views that are gone', async () => {
  const { terminals, screen, open } = setup({ autoAck: false });
  const id = await open();
  terminals.input(id, 'yes\r');
  await screen.until(() => terminals.stats(id).paused, 'the shell to be paused');
  const before = screen.bytes;
  terminals.attach(id);
  assert.equal(terminals.stats(id).unacked <= UNACKED_LIMIT, true);
  await screen.until(() => screen.bytes > before, 'output to flow again after the attach');
  terminals.input(id, '\x03');
});

test('a shell its view left is not held back by acks nobody sends, and is again once a view attaches', async () => {
  const { terminals, screen, open } = setup({ autoAck: false });
  const id = await open();
  terminals.detach(id);
  terminals.input(id, 'yes\r');
  await screen.until(() => screen.bytes > 4 * UNACKED_LIMIT, 'output far past the limit without acks');
  assert.equal(terminals.stats(id).unacked, 0);
  terminals.attach(id);
  await screen.until(() => terminals.stats(id).paused, 'paused again for the view that attached');
  assert.ok(terminals.stats(id).unacked <= UNACKED_LIMIT);
  terminals.input(id, '\x03');
});
