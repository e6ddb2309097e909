// The program the server's own node runs on the server host to take V8's CPU profile of a Node
// server without touching its code: SIGUSR1 opens the server's inspector (on loopback), a minimal
// WebSocket client (node 18+ has no client built in everywhere) asks its Profiler to start, waits for
// stdin to close, then stops it and prints "@v8 <profile JSON>". An inspector it opened it closes
// again (process._debugEnd in the server, once the reply is sent): left open, any local user of the
// host could run code as the server's user through it. One the server was started with stays open.
// Arguments: pid, the served port (not the inspector's), the sampling interval in µs. Plain
// CommonJS for any node the server runs.

export const V8_INSPECTOR_SCRIPT = String.raw`
const fs = require('fs'), net = require('net'), http = require('http'), crypto = require('crypto');
const [pid, servedPort, intervalUs] = process.argv.slice(1).map(Number);
const say = (line) => process.stdout.write(line + '\n');
const fail = (why) => { say('@failed ' + why); process.exit(0); };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The loopback ports the process listens on, from its own sockets in /proc.
function listening() {
  const inodes = new Set();
  for (const fd of fs.readdirSync('/proc/' + pid + '/fd')) {
    try { const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync('/proc/' + pid + '/fd/' + fd)); if (m) inodes.add(m[1]); } catch {}
  }
  const ports = new Set();
  for (const file of ['tcp', 'tcp6']) {
    let text = '';
    try { text = fs.readFileSync('/proc/' + pid + '/net/' + file, 'utf8'); } catch { continue; }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== '0A' || !inodes.has(f[9])) continue;
      const port = parseInt(f[1].split(':').pop(), 16);
      if (port !== servedPort) ports.add(port);
    }
  }
  return [...ports];
}

function targets(port) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/json/list', timeout: 1000 }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => { try { resolve(JSON.parse(body)); } catch { resolve(null); } });
    });
    req.on('error', () => resolve(null));
    req.on('timeout', () => { req.destroy(); resolve(null); });
  });
}

let opened = false;

async function inspectorUrl() {
  for (let attempt = 0; attempt < 50; attempt++) {
    for (const port of listening()) {
      const list = await targets(port);
      if (Array.isArray(list) && list[0] && list[0].webSocketDebuggerUrl) return list[0].webSocketDebuggerUrl;
    }
    if (attempt === 0) { try { process.kill(pid, 'SIGUSR1'); opened = true; } catch (e) { fail('could not signal the server (pid ' + pid + '): ' + e.message); } }
    await sleep(100);
  }
  fail('the server (pid ' + pid + ') opened no inspector on SIGUSR1 (started with --disable-sigusr1?)');
}

function connect(url) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const socket = net.connect(Number(u.port), u.hostname);
    const waiting = new Map();
    let buffer = Buffer.alloc(0), open = false, next = 1, parts = [];
    socket.on('connect', () => socket.write('GET ' + u.pathname + ' HTTP/1.1\r\nHost: ' + u.host + '\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ' + crypto.randomBytes(16).toString('base64') + '\r\nSec-WebSocket-Version: 13\r\n\r\n'));
    socket.on('error', (error) => { reject(error); for (const w of waiting.values()) w.reject(error); });
    socket.on('close', () => { for (const w of waiting.values()) w.reject(new Error('the inspector closed the connection')); });
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!open) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!/^HTTP\/1\.1 101/.test(buffer.toString('latin1', 0, end))) return reject(new Error('the inspector refused the connection (another debugger attached?)'));
        buffer = buffer.subarray(end + 4);
        open = true;
        resolve(send);
      }
      for (;;) {
        if (buffer.length < 2) return;
        let length = buffer[1] & 127, at = 2;
        if (length === 126) { if (buffer.length < 4) return; length = buffer.readUInt16BE(2); at = 4; }
        else if (length === 127) { if (buffer.length < 10) return; length = Number(buffer.readBigUInt64BE(2)); at = 10; }
        if (buffer.length < at + length) return;
        const fin = (buffer[0] & 128) !== 0, opcode = buffer[0] & 15;
        parts.push(buffer.subarray(at, at + length));
        buffer = buffer.subarray(at + length);
        if (!fin) continue;
        const payload = Buffer.concat(parts); parts = [];
        if (opcode !== 1 && opcode !== 0) continue;
        const message = JSON.parse(payload.toString('utf8'));
        const w = message.id !== undefined && waiting.get(message.id);
        if (!w) continue;
        waiting.delete(message.id);
        if (message.error) w.reject(new Error(message.error.message)); else w.resolve(message.result);
      }
    });
    function send(method, params) {
      const id = next++;
      const body = Buffer.from(JSON.stringify({ id, method, params: params || {} }));
      const mask = crypto.randomBytes(4);
      const head = body.length < 126 ? Buffer.from([0x81, 0x80 | body.length]) : body.length < 65536 ? Buffer.from([0x81, 0xfe, body.length >> 8, body.length & 255]) : null;
      if (!head) throw new Error('message too large');
      for (let i = 0; i < body.length; i++) body[i] ^= mask[i & 3];
      socket.write(Buffer.concat([head, mask, body]));
      return new Promise((res, rej) => waiting.set(id, { resolve: res, reject: rej }));
    }
  });
}

(async () => {
  const send = await connect(await inspectorUrl()).catch((e) => fail(e.message));
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: intervalUs });
  await send('Profiler.start');
  say('@started');
  process.stdin.resume();
  await new Promise((resolve) => { process.stdin.on('end', resolve); process.stdin.on('close', resolve); });
  const { profile } = await send('Profiler.stop');
  await send('Profiler.disable').catch(() => {});
  // Closed after the reply is on its way: the connection carrying it goes with the inspector.
  if (opened) await send('Runtime.evaluate', { expression: 'setTimeout(() => process._debugEnd(), 50), undefined' }).catch(() => {});
  process.stdout.write('@v8 ' + JSON.stringify({ nodes: profile.nodes, samples: profile.samples }) + '\n', () => process.exit(0));
})().catch((e) => fail(e.message));
`;
