// Applying presets to hosts, safely: plan (a diff the user sees first), apply (journal row, then
// the restore file on the host, then the drop-ins, then live values — each step only after the
// one that lets it be undone; the network's root qdisc last), verify (read back; a fresh login for
// limits; tc for the network), and revert to the exact files, values and qdiscs from before. One operation per host at a time; progress is published.

import { ApiError, messageOf } from '../../../app/common/errors.ts';
import { plural } from '../../../app/common/plural.ts';
import type { Host } from '../../../app/hosts/hosts.ts';
import type { ApplyResult, PendingRevert, PresetProgress, RevertResult } from '../../../app/presets/presets-contract.ts';
import {
  appliedFileMeta,
  extendRestoreRecord,
  fileRestored,
  limitsFilesAfter,
  missingKeyReason,
  NEW_FILE_META,
  planPreset,
  planRevert,
  previousOf,
  restoreFileMeta,
  restoreFromJournal,
  type HostPresetState,
  type PresetPlan,
} from '../../../app/presets/preset-plan.ts';
import { judgeLimits, judgeSysctl, type KeyVerdict } from '../../../app/presets/preset-verify.ts';
import { effectsOf } from '../../../app/presets/preset-effect.ts';
import { judgeNetwork, networkRestored } from '../../../app/presets/network-plan.ts';
import { describeRoot } from '../../../app/presets/network-shaping.ts';
import { readNetwork, readQdiscs, shapeNetwork, unshapeNetwork } from './host-network-io.ts';
import { LIMITS_DROP_IN, normaliseDefinition, RESTORE_FILE, type DropInPath, type Preset, type PresetDefinition } from '../../../app/presets/presets.ts';
import type { EventBus } from '../event-bus.ts';
import type { HostTransport } from '../hosts/host-transport.ts';
import type { Logger } from '../logger.ts';
import type { ChangesRepository } from './changes-repository.ts';
import type { HostsRepository } from '../hosts/hosts-repository.ts';
import { readHost, readLoginLimits, readSysctls, setSysctls, writeFiles, type HostReading, type RemoteAccess } from './host-preset-io.ts';
import type { PresetCatalog } from './preset-catalog.ts';
import { isOwnerAlive, processOwner } from '../store/process-owner.ts';

export interface PresetHostAccess {
  transportFor(hostId: number): HostTransport;
  sudoPasswordFor(hostId: number): string | undefined;
  openFreshLogin(hostId: number): Promise<HostTransport | null>;
}

export interface PresetServiceOptions {
  catalog: PresetCatalog;
  changes: ChangesRepository;
  hosts: HostsRepository;
  connections: PresetHostAccess;
  bus: EventBus;
  log: Logger;
}

function base64Of(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** An error that says how far an apply or revert got, keeping its code. */
function stoppedAt(step: string, host: Host, error: unknown, afterChanges: boolean): ApiError {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
  const code = error instanceof ApiError ? error.code : 'unavailable';
  const hint = afterChanges ? ` ${host.name} may be partly changed: Revert puts back what it held before.` : ` Nothing was changed on ${host.name}.`;
  return new ApiError(code, `${step} on ${host.name} failed: ${message}.${hint}`);
}

export class PresetService {
  readonly #options: PresetServiceOptions;
  readonly #busy = new Set<number>();

  constructor(options: PresetServiceOptions) {
    this.#options = options;
    // At start, the journal tells which hosts still carry changes (an apply Benchlab never reverted,
    // or one it never finished because it died).
    for (const pending of this.pending()) {
      options.log.warn('presets', `${pending.hostName}: changes pending revert (${pending.state === 'interrupted' ? 'an apply was interrupted' : `applied ${pending.presets.join(', ')}`}); Revert is on the Presets page`);
    }
  }

  #access(hostId: number): RemoteAccess {
    return { transport: this.#options.connections.transportFor(hostId), sudoPassword: this.#options.connections.sudoPasswordFor(hostId) };
  }

  #progress(hostId: number, operation: PresetProgress['operation'], step: string, message: string): void {
    this.#options.bus.publish('presets.progress', { hostId, operation, step, message, at: new Date().toISOString() });
  }

  async #exclusive<T>(host: Host, work: () => Promise<T>): Promise<T> {
    if (this.#busy.has(host.id)) throw new ApiError('conflict', `an apply or revert is already running on ${host.name}`);
    this.#busy.add(host.id);
    try {
      return await work();
    } finally {
      this.#busy.delete(host.id);
    }
  }

  /** Reads the host; without a usable restore file there, the journal says what was there before. */
  async #read(hostId: number, preset: Preset | null): Promise<HostReading> {
    const journalKeys = this.#options.changes.unreverted(hostId).flatMap((entry) => Object.keys(entry.previous.sysctls));
    const reading = await readHost(this.#access(hostId), { keys: [...(preset?.sysctls.map((sysctl) => sysctl.key) ?? []), ...journalKeys] });
    if (!reading.state.restore) {
      const fromJournal = restoreFromJournal(this.#options.changes.unreverted(hostId).map((entry) => entry.previous));
      if (fromJournal) reading.state.restore = fromJournal;
    }
    // The network is read only where the preset shapes it or an earlier apply did (that interface then).
    const wanted = preset?.network?.interface ?? reading.state.restore?.network?.interface;
    if (wanted !== undefined) reading.state.network = await readNetwork(this.#access(hostId), wanted);
    return reading;
  }

  #plan(preset: Preset, hostId: number, reading: HostReading): PresetPlan {
    const hostName = this.#options.hosts.get(hostId).name;
    const plan = planPreset({ presetId: preset.id, hostId, hostName, definition: preset }, reading.state);
    if (reading.restoreProblem) plan.notes.push(reading.restoreProblem);
    return plan;
  }

  async plan(presetId: string, hostId: number): Promise<PresetPlan> {
    const preset = this.#options.catalog.get(presetId);
    this.#options.hosts.get(hostId);
    return this.#plan(preset, hostId, await this.#read(hostId, preset));
  }

  /**
   * `revertedBy`: the running plan (in words) that will revert this change at its end: until it
   * releases the host (release()) or its process dies, the change is not a pending revert.
   */
  async apply(presetId: string, hostId: number, planId: string, options: { revertedBy?: string } = {}): Promise<ApplyResult> {
    const preset = this.#options.catalog.get(presetId);
    const host = this.#options.hosts.get(hostId);
    return this.#exclusive(host, async () => {
      const progress = (step: string, message: string) => this.#progress(hostId, 'apply', step, message);
      progress('read', `reading the current settings of ${host.name}`);
      const reading = await this.#read(hostId, preset);
      const plan = this.#plan(preset, hostId, reading);
      if (plan.planId !== planId) {
        throw new ApiError('conflict', `${host.name} or the preset changed since the plan was made: look at the new plan, then apply again`);
      }
      if (plan.noChanges) {
        progress('verify', 'no changes to make; verifying what is in effect');
        const verdicts = await this.#verify(hostId, preset, plan, reading, {});
        // The row of the apply that made these changes gets what is in effect now.
        const earlier = this.#options.changes.unreverted(hostId).filter((entry) => entry.presetId === presetId && entry.status === 'applied').at(-1);
        if (earlier) this.#options.changes.setEffects(earlier.id, effectsOf(preset.name, verdicts));
        progress('done', 'no changes');
        return { hostId, presetId, outcome: 'no changes', changeId: null, plan, verdicts, notes: plan.notes };
      }

      const changed = plan.sysctls.filter((row) => row.change === 'change');
      const files = plan.files.filter((file) => file.action !== 'unchanged');
      progress('journal', 'recording the previous values in the journal');
      const changeId = this.#options.changes.begin({
        hostId,
        presetId,
        keys: [...changed.map((row) => row.key), ...files.map((file) => file.path), ...(plan.network && plan.network.action !== 'unchanged' ? [`tc ${plan.network.interface}`] : [])],
        previous: previousOf(plan, reading.state),
        applied: {
          presetName: preset.name,
          sysctls: Object.fromEntries(changed.map((row) => [row.key, row.next])),
          files: Object.fromEntries(files.map((file) => [file.path, file.next])),
          ...(plan.network?.action === 'shape' && preset.network ? { network: { interface: plan.network.interface, command: plan.network.command } } : {}),
        },
        heldBy: options.revertedBy ? { what: options.revertedBy, owner: processOwner() } : null,
      });

      const access = this.#access(hostId);
      try {
        progress('restore', `writing the restore record ${RESTORE_FILE}`);
        const record = extendRestoreRecord(reading.state.restore, plan, reading.state, new Date().toISOString());
        await writeFiles(access, 'write-restore', { [RESTORE_FILE]: { base64: base64Of(`${JSON.stringify(record, null, 2)}\n`), meta: restoreFileMeta(record) } });
      } catch (error) {
        this.#options.changes.markFailed(changeId);
        throw stoppedAt('Writing the restore record', host, error, false);
      }

      let step = 'Writing the drop-in files';
      try {
        progress('files', `writing ${files.map((file) => file.path).join(' and ')}`);
        await writeFiles(
          access,
          'write-drop-ins',
          Object.fromEntries(
            files.map((file) => [file.path, file.next === null ? null : { base64: base64Of(file.next), meta: appliedFileMeta(file.path as DropInPath, reading.state) }]),
          ),
        );
        step = 'Setting the sysctls live';
        progress('live', changed.length > 0 ? `setting ${plural(changed.length, 'sysctl')} live with sysctl -w` : 'no sysctl to set live');
        const writes = await setSysctls(access, Object.fromEntries(changed.map((row) => [row.key, row.next])));
        let tcError: string | null = null;
        if (plan.network?.action === 'shape' && preset.network) {
          step = 'Shaping the network';
          progress('network', `shaping ${plan.network.interface}: ${plan.network.command}`);
          tcError = await shapeNetwork(access, plan.network.interface, preset.network);
        } else if (plan.network?.action === 'restore') {
          step = 'Removing the earlier shaping';
          progress('network', `removing Benchlab's qdisc from ${plan.network.interface}`);
          await unshapeNetwork(access, plan.network.interface);
        }
        step = 'Verifying';
        progress('verify', plan.network ? 'reading the sysctls, the qdiscs and the limits of a new login back' : 'reading the sysctls back and the limits of a new login');
        const verdicts = await this.#verify(hostId, preset, plan, reading, writes, tcError);
        this.#options.changes.markApplied(changeId, effectsOf(preset.name, verdicts));
        const effective = verdicts.filter((verdict) => verdict.status === 'applied').length;
        this.#options.log.info('presets', `${host.name}: applied preset "${preset.name}" (${plural(plan.changes, 'change')}; ${effective} of ${verdicts.length} keys verified in effect)`);
        progress('done', 'applied');
        const notes = [...plan.notes];
        if (preset.limits.length > 0) notes.push(`Benchlab's own connection to ${host.name} keeps its old limits: reconnect the host before a run that needs the new ones.`);
        return { hostId, presetId, outcome: 'applied', changeId, plan, verdicts, notes };
      } catch (error) {
        this.#options.log.error('presets', `${host.name}: applying "${preset.name}" stopped: ${messageOf(error)}`);
        throw stoppedAt(step, host, error, true);
      }
    });
  }

  async #verify(
    hostId: number,
    preset: Preset,
    plan: PresetPlan,
    reading: HostReading,
    writes: Record<string, { ok: boolean; error: string | null }>,
    tcError: string | null = null,
  ): Promise<KeyVerdict[]> {
    const access = this.#access(hostId);
    const readback = await readSysctls(access, plan.sysctls.map((row) => row.key));
    const network = preset.network && plan.network ? judgeNetwork(preset.network, plan.network.interface, await readQdiscs(access, plan.network.interface), tcError) : [];
    const sysctlVerdicts = [...plan.sysctls.map((row) => judgeSysctl(row, writes[row.key], readback[row.key] ?? null)), ...network];
    const limits = normaliseDefinition(preset).limits;
    if (limits.length === 0) return sysctlVerdicts;

    let fresh = null;
    let freshProblem: string | null = null;
    try {
      const login = await this.#options.connections.openFreshLogin(hostId);
      if (!login) freshProblem = 'This machine is driven without a login, so pam_limits never runs for Benchlab here';
      else {
        try {
          fresh = await readLoginLimits(login);
        } finally {
          login.close();
        }
      }
    } catch (error) {
      freshProblem = `a new login failed: ${messageOf(error)}`;
    }
    const limitsDropIn = plan.files.find((file) => file.path === LIMITS_DROP_IN)?.next ?? null;
    const state: HostPresetState = reading.state;
    const limitVerdicts = judgeLimits(limits, {
      files: limitsFilesAfter(state, limitsDropIn),
      login: { user: state.user, uid: state.uid, groups: state.groups },
      fresh,
      freshProblem,
      before: state.sessionLimits,
      nrOpen: reading.nrOpen,
    });
    return [...sysctlVerdicts, ...limitVerdicts];
  }

  async revert(hostId: number): Promise<RevertResult> {
    const host = this.#options.hosts.get(hostId);
    return this.#exclusive(host, async () => {
      const progress = (step: string, message: string) => this.#progress(hostId, 'revert', step, message);
      progress('read', `reading the current settings of ${host.name}`);
      const reading = await this.#read(hostId, null);
      const record = reading.state.restore;
      const journal = this.#options.changes.unreverted(hostId);
      if (!record) {
        progress('done', 'nothing to revert');
        return { hostId, outcome: 'nothing to revert', sysctls: [], files: [], network: null, notes: [`${host.name} carries no changes from Benchlab.`] };
      }
      const plan = planRevert(reading.state, record);
      const access = this.#access(hostId);
      let step = 'Restoring the files';
      try {
        const files = plan.files.filter((file) => file.action !== 'unchanged');
        progress('files', files.length > 0 ? `restoring ${files.map((file) => file.path).join(' and ')}` : 'the files are already as they were');
        await writeFiles(
          access,
          'write-drop-ins',
          Object.fromEntries(files.map((file) => [file.path, file.original === null ? null : { base64: file.original, meta: file.meta ?? NEW_FILE_META }])),
        );
        step = 'Restoring the sysctls';
        const changed = plan.sysctls.filter((row) => row.change === 'change');
        progress('live', `restoring ${plural(changed.length, 'sysctl')} with sysctl -w`);
        const writes = await setSysctls(access, Object.fromEntries(changed.map((row) => [row.key, row.original])));
        if (plan.network?.action === 'remove') {
          step = 'Removing the network shaping';
          progress('network', `removing Benchlab's qdisc from ${plan.network.interface}`);
          await unshapeNetwork(access, plan.network.interface);
        }

        step = 'Checking the revert';
        progress('verify', 'reading the files and sysctls back');
        const after = await readHost(access, { keys: plan.sysctls.map((row) => row.key) });
        const sysctls = plan.sysctls.map((row) => {
          const observed = after.state.sysctls[row.key]?.value ?? null;
          const restored = observed === row.original;
          const write = writes[row.key];
          const reason = restored ? null : row.change === 'missing' || observed === null ? missingKeyReason(row.key) : write && !write.ok ? (write.error ?? 'sysctl -w failed') : `the kernel reads back "${observed}"`;
          return { key: row.key, original: row.original, observed, status: restored ? ('restored' as const) : ('not restored' as const), reason };
        });
        const filesBack = plan.files.map((file) => ({
          path: file.path,
          action: file.action,
          restored: fileRestored(after.state.dropIns[file.path as DropInPath], file.original, file.meta),
        }));
        const network = record.network ? await this.#networkBack(access, record.network) : null;
        // A key the kernel no longer has cannot be put back and need not be: it holds nothing.
        const complete = filesBack.every((file) => file.restored) && sysctls.every((row) => row.status === 'restored' || row.observed === null) && (network === null || network.status === 'restored');
        if (!complete) {
          progress('done', 'incomplete');
          return { hostId, outcome: 'incomplete', sysctls, files: filesBack, network, notes: ['Some values could not be put back; the restore record and the journal are kept, so Revert can be tried again.'] };
        }
        step = 'Removing the restore record';
        progress('cleanup', `removing ${RESTORE_FILE}`);
        await writeFiles(access, 'remove-restore', { [RESTORE_FILE]: null });
        this.#options.changes.markReverted(hostId);
        this.#options.log.info('presets', `${host.name}: reverted ${plural(journal.length, 'preset change')}`);
        progress('done', 'reverted');
        const notes = plan.files.some((file) => file.path === LIMITS_DROP_IN && file.action !== 'unchanged')
          ? ['Limits go back for new logins; processes started meanwhile keep the limits they got.']
          : [];
        return { hostId, outcome: 'reverted', sysctls, files: filesBack, network, notes };
      } catch (error) {
        this.#options.log.error('presets', `${host.name}: revert stopped: ${messageOf(error)}`);
        throw stoppedAt(step, host, error, true);
      }
    });
  }

  /** The interface's qdiscs after a revert against those the record kept. */
  async #networkBack(access: RemoteAccess, record: { interface: string; qdiscs: string }): Promise<NonNullable<RevertResult['network']>> {
    const after = await readQdiscs(access, record.interface);
    const restored = networkRestored(record, after);
    return {
      interface: record.interface,
      original: describeRoot(record.qdiscs),
      observed: describeRoot(after),
      status: restored ? 'restored' : 'not restored',
      reason: restored ? null : `tc shows "${after.split('\n')[0] ?? ''}" where "${record.qdiscs.split('\n')[0] ?? ''}" was`,
    };
  }

  /** Hosts whose journal holds changes not reverted yet (shown at start, with a revert button). */
  /** Creates a user preset (no `id`) or updates one in the catalog, and says which in the log. */
  save(definition: PresetDefinition, ids: { id?: string | undefined; basedOn?: string | null | undefined } = {}): Preset {
    const saved = this.#options.catalog.save(definition, ids);
    this.#options.log.info('presets', `${ids.id ? 'updated' : 'created'} preset "${saved.name}"`);
    return saved;
  }

  remove(id: string): boolean {
    const name = this.#options.catalog.get(id).name;
    const removed = this.#options.catalog.remove(id);
    if (removed) this.#options.log.info('presets', `removed preset "${name}"`);
    return removed;
  }

  /** The plan of this process that held the host's changes ended: what it left unreverted is pending again. */
  release(hostId: number): void {
    this.#options.changes.release(hostId, processOwner());
  }

  /**
   * Hosts whose journal holds changes nobody will revert: left by an apply that never finished or a
   * Benchlab that ended, or applied on their own. A change a running plan (of any live process on the
   * store) will revert at its end is not one.
   */
  pending(): PendingRevert[] {
    return this.#options.changes
      .hostsWithChanges()
      .filter((hostId) => !this.#busy.has(hostId))
      .flatMap((hostId) => {
        const entries = this.#options.changes.unreverted(hostId).filter((entry) => !(entry.heldBy && isOwnerAlive(entry.heldBy.owner)));
        if (entries.length === 0) return [];
        return [
          {
            hostId,
            hostName: this.#options.hosts.get(hostId).name,
            presets: [...new Set(entries.map((entry) => entry.applied.presetName))],
            state: entries.some((entry) => entry.status === 'pending') ? ('interrupted' as const) : ('applied' as const),
            since: entries[0]?.appliedAt ?? '',
          },
        ];
      });
  }
}
