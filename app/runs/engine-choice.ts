// Which load engine drives a run: the user's choice (`auto`, the default; `native`; `node`) and the
// rules that turn it into the engine that runs on the client host. The native engine runs only on
// Linux on x86_64 or aarch64, from a binary this Benchlab has, against an http target; `auto` then
// falls back to the Node engine with one notice line saying why, and `native` is refused before
// anything starts. Also what a session records of it (in its config), read back for display.

import { z } from 'zod';
import { LOAD_ENGINES, type LoadEngineKind } from './agent-protocol.ts';

export const ENGINE_CHOICES = ['auto', 'native', 'node'] as const;
export const EngineChoice = z.enum(ENGINE_CHOICES, { error: `must be one of ${ENGINE_CHOICES.join(', ')}` });
export type EngineChoice = z.infer<typeof EngineChoice>;
export const DEFAULT_ENGINE_CHOICE: EngineChoice = 'auto';

/** The architectures the native engine is built for, by Go's names. */
export const NATIVE_ENGINE_ARCHS = ['amd64', 'arm64'] as const;
export type NativeEngineArch = (typeof NATIVE_ENGINE_ARCHS)[number];

/** The binary's file name in a build or a package (out/engine, resources/engine). */
export function nativeEngineFileName(arch: NativeEngineArch): string {
  return `benchlab-engine-linux-${arch}`;
}

const ARCH_OF_MACHINE: Readonly<Record<string, NativeEngineArch>> = { x86_64: 'amd64', amd64: 'amd64', aarch64: 'arm64', arm64: 'arm64' };

/** Go's architecture for a host's `uname -m`, when the native engine is built for it; null otherwise. */
export function nativeEngineArch(machine: string): NativeEngineArch | null {
  return ARCH_OF_MACHINE[machine.trim()] ?? null;
}

/** What is known of the client host and the run before the binary is looked for. */
export interface EngineHost {
  /** `uname -s`. */
  os: string;
  /** `uname -m`. */
  machine: string;
}

/** Why the native engine cannot drive this run from this host, in words that follow "unavailable on <host>: "; null when it can. */
export function nativeEngineObstacle(host: EngineHost, protocol: 'http' | 'https'): string | null {
  if (protocol !== 'http') return 'the target is https, which the native engine does not speak';
  if (host.os.trim() !== 'Linux') return `it runs ${host.os.trim() || 'an unknown system'}, not Linux`;
  if (!nativeEngineArch(host.machine)) return `no native engine is built for ${host.machine.trim() || 'its architecture'} (only x86_64 and aarch64)`;
  return null;
}

export type EngineDecision = { kind: LoadEngineKind; notice: string | null } | { error: string };

/**
 * The engine that runs, given the choice and why the native engine cannot run there (null: it can).
 * `auto` falls back with a notice; `native` where it cannot run is an error for the user.
 */
export function decideEngine(choice: EngineChoice, hostName: string, obstacle: string | null): EngineDecision {
  if (choice === 'node') return { kind: 'node', notice: null };
  if (obstacle === null) return { kind: 'native', notice: null };
  if (choice === 'native') return { error: `the native engine is unavailable on ${hostName}: ${obstacle}; choose the engine auto or node` };
  return { kind: 'node', notice: `native engine unavailable on ${hostName}: ${obstacle}; using the Node engine` };
}

/** What a session keeps of its engine (config.engine): the choice, the engine that ran, and the fallback notice if any. */
export const RecordedEngine = z
  .object({
    choice: EngineChoice,
    kind: z.enum(LOAD_ENGINES),
    notice: z.string().nullable(),
  })
  .strict();
export type RecordedEngine = z.infer<typeof RecordedEngine>;

/** The engine a stored session recorded; null for sessions from before engines were recorded (the Node engine ran those) or imported ones. */
export function recordedEngineOf(config: Record<string, unknown>): RecordedEngine | null {
  const parsed = RecordedEngine.safeParse(config.engine);
  return parsed.success ? parsed.data : null;
}

/** "native engine" / "Node engine", as labels say it. */
export function engineLabel(kind: LoadEngineKind): string {
  return kind === 'native' ? 'native engine' : 'Node engine';
}
