// Writes resources/payload/payload-43k.bin: the 43 KB body of the contract's /file endpoint.
// Deterministic (xorshift32 from a fixed seed), so anyone can regenerate the committed file and get
// the same bytes: 688 lines of 63 printable ASCII characters and "\n", 44032 bytes (43 KiB).
// Run: node scripts/generate-payload.ts [--check]

import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const PAYLOAD_FILE = join(resolve(import.meta.dirname, '..'), 'resources', 'payload', 'payload-43k.bin');
export const PAYLOAD_BYTES = 44032;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .,';

export function generatePayload(): Buffer {
  const bytes = Buffer.alloc(PAYLOAD_BYTES);
  let state = 0x43_4b_42_4c; // "CKBL"
  for (let i = 0; i < PAYLOAD_BYTES; i++) {
    if (i % 64 === 63) {
      bytes[i] = 0x0a;
      continue;
    }
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    bytes[i] = ALPHABET.charCodeAt(state % ALPHABET.length);
  }
  return bytes;
}

if (import.meta.main) {
  const bytes = generatePayload();
  if (process.argv.includes('--check')) {
    const same = readFileSync(PAYLOAD_FILE).equals(bytes);
    console.log(same ? `${PAYLOAD_FILE} matches` : `${PAYLOAD_FILE} differs from the generator's output`);
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(PAYLOAD_FILE, bytes);
    console.log(`wrote ${PAYLOAD_FILE} (${bytes.length} bytes)`);
  }
}
