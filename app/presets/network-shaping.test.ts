// Tests of a preset's network side: validation, the tc arguments, the reading of `tc qdisc show`
// (as iproute2 prints it), and the plan's refusals, rows, restore record, verdicts and revert.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiError } from '../common/errors.ts';
import { judgeNetwork, networkRestored, planNetwork, type HostNetworkState } from './network-plan.ts';
import { describeRoot, foreignQdiscs, observedShaping, parseQdiscShow, qdiscArguments, sameEgress, tcCommand } from './network-shaping.ts';
import { extendRestoreRecord, planPreset, planRevert, restoreFromJournal, RestoreRecord, type HostPresetState } from './preset-plan.ts';
import { PresetDefinition, presetFieldErrors } from './presets.ts';

/** As iproute2 6.1 prints them. */
const VETH_DEFAULT = 'qdisc noqueue 0: root refcnt 2 ';
const OURS_TBF = 'qdisc tbf b1ab: root refcnt 3 rate 440Mbit burst 219945b lat 50ms ';
const OURS_NETEM = 'qdisc netem b1ab: root refcnt 2 limit 1000 delay 10ms  2ms loss 0.1% rate 400Mbit';
const MQ_DEFAULT = 'qdisc mq 0: root \nqdisc fq_codel 0: parent :2 limit 10240p flows 1024 quantum 1514 target 5ms interval 100ms memory_limit 32Mb ecn drop_batch 64 \nqdisc fq_codel 0: parent :1 limit 10240p flows 1024';
const INGRESS = 'qdisc ingress ffff: parent ffff:fff1 ---------------- ';

function network(overrides: Partial<HostNetworkState> = {}): HostNetworkState {
  return { tc: true, interface: 'eth0', how: 'routes to 10.0.0.1, where Benchlab\'s login comes from', problem: null, qdiscs: VETH_DEFAULT, support: { tbf: true, netem: true }, ...overrides };
}

function hostState(net: HostNetworkState | null, restore: RestoreRecord | null = null): HostPresetState {
  return {
    user: 'root',
    uid: 0,
    groups: ['root'],
    sysctls: {},
    limitsFiles: [],
    dropIns: { '/etc/security/limits.d/90-benchlab.conf': null, '/etc/sysctl.d/90-benchlab.conf': null },
    restore,
    sessionLimits: {},
    network: net,
  };
}

const definition = (net: object | null) => PresetDefinition.parse({ name: 'Link', network: net });

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return error.message;
  }
  assert.fail('expected a refusal');
}

describe('network settings: validation', () => {
  test('bounds, jitter without delay, an interface name that could escape, and a block that sets nothing are refused by field', () => {
    const errors = presetFieldErrors({ name: 'x', network: { interface: 'eth0; reboot', rateMbit: 0, jitterMs: 5, lossPercent: 80 } });
    assert.match(errors['network.interface']!, /interface name/);
    assert.match(errors['network.rateMbit']!, /between 0.1 and 100,000 Mbit\/s/);
    assert.match(errors['network.lossPercent']!, /between 0.001 and 50 %/);
    assert.equal(errors['network.jitterMs'], 'needs a delay to vary around');
    assert.match(presetFieldErrors({ name: 'x', network: {} }).network!, /sets nothing/);
    assert.equal(presetFieldErrors({ name: 'x', network: { rateMbit: 'fast' } })['network.rateMbit'], 'must be a number');
  });

  test('a network block alone makes a preset; the interface defaults to auto', () => {
    assert.deepEqual(presetFieldErrors({ name: 'x', network: { rateMbit: 440 } }), {});
    assert.equal(definition({ rateMbit: 440 }).network?.interface, 'auto');
    assert.equal(PresetDefinition.parse({ name: 'x', sysctls: [{ key: 'net.core.somaxconn', value: '1024' }] }).network, null);
  });
});

describe('network settings: tc', () => {
  test('a bandwidth alone is a tbf; delay or loss make a netem that carries the bandwidth too', () => {
    assert.deepEqual(qdiscArguments({ interface: 'auto', rateMbit: 440 }), ['tbf', 'rate', '440mbit', 'burst', '220000', 'latency', '50ms']);
    assert.deepEqual(qdiscArguments({ interface: 'auto', rateMbit: 0.5 }), ['tbf', 'rate', '500kbit', 'burst', '16384', 'latency', '50ms']);
    assert.deepEqual(qdiscArguments({ interface: 'auto', rateMbit: 400, delayMs: 10, jitterMs: 2, lossPercent: 0.1 }), ['netem', 'delay', '10ms', '2ms', 'loss', '0.1%', 'rate', '400mbit']);
    assert.equal(tcCommand('eth0', { interface: 'auto', delayMs: 1.5 }), 'tc qdisc replace dev eth0 root handle b1ab: netem delay 1.5ms');
  });

  test('tc qdisc show is read back: Benchlab\'s qdisc by its handle, the settings in their units', () => {
    assert.deepEqual(observedShaping(OURS_TBF), { rate: 440 });
    assert.deepEqual(observedShaping('qdisc tbf b1ab: root refcnt 3 rate 500Kbit burst 16Kb lat 50ms'), { rate: 0.5 });
    assert.deepEqual(observedShaping(OURS_NETEM), { rate: 400, delay: 10, jitter: 2, loss: 0.1 });
    assert.equal(observedShaping(VETH_DEFAULT), null);
    assert.equal(observedShaping('qdisc tbf 8001: root refcnt 2 rate 1Gbit burst 16Kb lat 50ms'), null, "someone else's tbf is not Benchlab's");
  });

  test("the kernel's default qdiscs are nobody's; another handle is someone's; ingress and reference counts do not count", () => {
    assert.deepEqual(foreignQdiscs(parseQdiscShow(`${MQ_DEFAULT}\n${INGRESS}`)), []);
    assert.deepEqual(foreignQdiscs(parseQdiscShow(OURS_TBF)), []);
    assert.deepEqual(foreignQdiscs(parseQdiscShow('qdisc fq 8001: root refcnt 2 limit 10000p')).map((line) => line.kind), ['fq']);
    assert.ok(sameEgress('qdisc noqueue 0: root refcnt 2 ', `qdisc noqueue 0: root refcnt 3\n${INGRESS}`));
    assert.ok(!sameEgress(VETH_DEFAULT, OURS_TBF));
    assert.equal(describeRoot(VETH_DEFAULT), "noqueue (the kernel's default)");
    assert.equal(describeRoot(OURS_TBF), "tbf b1ab: root rate 440Mbit burst 219945b lat 50ms (Benchlab's)");
  });
});

describe('network settings: plan', () => {
  test('refusals say why before anything changes: no tc, no interface, a kernel without netem, a qdisc of someone else\'s', () => {
    const shaping = { interface: 'auto', rateMbit: 440 };
    assert.match(refusal(() => planNetwork(shaping, network({ tc: false }), null, 'lab-client')), /lab-client has no tc command \(iproute2\)/);
    assert.match(refusal(() => planNetwork(shaping, network({ interface: null, problem: 'there is no interface "eth9"' }), null, 'lab-client')), /lab-client: there is no interface "eth9"/);
    assert.match(refusal(() => planNetwork({ interface: 'auto', delayMs: 5 }, network({ support: { tbf: true, netem: false } }), null, 'h')), /no netem qdisc/);
    assert.ok(planNetwork(shaping, network({ support: { tbf: true, netem: false } }), null, 'h'), 'a bandwidth alone needs only tbf');
    assert.match(refusal(() => planNetwork(shaping, network({ qdiscs: 'qdisc fq 8001: root refcnt 2 limit 10000p' }), null, 'h')), /qdisc Benchlab did not set \(fq 8001:/);
    assert.match(refusal(() => planNetwork(shaping, network(), { interface: 'eth1', qdiscs: VETH_DEFAULT }, 'h')), /still carries Benchlab's shaping on eth1/);
  });

  test('each setting current → planned; an earlier identical shaping is no change', () => {
    const fresh = planNetwork({ interface: 'auto', rateMbit: 440 }, network(), null, 'h')!;
    assert.equal(fresh.action, 'shape');
    assert.deepEqual(fresh.rows, [{ setting: 'rate', label: 'bandwidth', current: null, next: '440 Mbit/s', change: 'change' }]);
    assert.equal(fresh.command, 'tc qdisc replace dev eth0 root handle b1ab: tbf rate 440mbit burst 220000 latency 50ms');
    const again = planNetwork({ interface: 'auto', rateMbit: 440 }, network({ qdiscs: OURS_TBF }), { interface: 'eth0', qdiscs: VETH_DEFAULT }, 'h')!;
    assert.equal(again.action, 'unchanged');
    const other = planNetwork({ interface: 'auto', rateMbit: 100 }, network({ qdiscs: OURS_TBF }), { interface: 'eth0', qdiscs: VETH_DEFAULT }, 'h')!;
    assert.deepEqual(other.rows.map((row) => [row.current, row.next, row.change]), [['440 Mbit/s', '100 Mbit/s', 'change']]);
  });

  test('the preset plan counts the network rows, keeps the qdiscs from before in the restore record, and a later preset without network removes the shaping', () => {
    const plan = planPreset({ presetId: 'link', hostId: 1, definition: definition({ rateMbit: 440 }) }, hostState(network()));
    assert.equal(plan.changes, 1);
    assert.equal(plan.noChanges, false);
    assert.ok(plan.notes.some((note) => /Benchlab's own SSH link/.test(note)));
    const record = extendRestoreRecord(null, plan, hostState(network()), 'now');
    assert.deepEqual(record.network, { interface: 'eth0', qdiscs: VETH_DEFAULT });
    assert.deepEqual(RestoreRecord.parse(JSON.parse(JSON.stringify(record))).network, record.network);
    assert.deepEqual(restoreFromJournal([record])?.network, record.network);

    const shaped = hostState(network({ qdiscs: OURS_TBF }), record);
    const without = planPreset({ presetId: 'plain', hostId: 1, definition: PresetDefinition.parse({ name: 'plain', sysctls: [] , network: null, limits: [{ domain: 'root', type: '-', item: 'nofile', value: '1000' }] }) }, shaped);
    assert.equal(without.network?.action, 'restore');
    assert.equal(without.network?.command, 'tc qdisc del dev eth0 root');
    assert.deepEqual(planRevert(shaped, record).network, { interface: 'eth0', original: VETH_DEFAULT, action: 'remove' });
    assert.equal(planRevert(hostState(network(), record), record).network?.action, 'unchanged');
  });

  test('a restore record naming an interface that could escape a command is refused', () => {
    const parsed = RestoreRecord.safeParse({ format: 1, createdAt: '', sysctls: {}, files: {}, network: { interface: 'eth0 && reboot', qdiscs: '' } });
    assert.equal(parsed.success, false);
  });
});

describe('network settings: verdicts and revert', () => {
  test('applied only when tc reads each setting back; otherwise not effective with the reason', () => {
    const shaping = { interface: 'auto', rateMbit: 400, delayMs: 10, jitterMs: 2, lossPercent: 0.1 };
    assert.deepEqual(judgeNetwork(shaping, 'eth0', OURS_NETEM, null).map((verdict) => verdict.status), ['applied', 'applied', 'applied', 'applied']);
    const refused = judgeNetwork(shaping, 'eth0', VETH_DEFAULT, 'Error: Specified qdisc kind is unknown.');
    assert.deepEqual(refused[0], {
      kind: 'network',
      key: 'eth0 bandwidth',
      expected: '400 Mbit/s',
      observed: null,
      status: 'not effective',
      reason: 'tc refused it: Error: Specified qdisc kind is unknown.',
    });
    assert.equal(judgeNetwork({ interface: 'auto', rateMbit: 100 }, 'eth0', OURS_TBF, null)[0]!.reason, 'tc reads back 440 Mbit/s');
  });

  test('a revert is done when the egress qdiscs are those from before', () => {
    assert.ok(networkRestored({ interface: 'eth0', qdiscs: VETH_DEFAULT }, 'qdisc noqueue 0: root refcnt 2'));
    assert.ok(!networkRestored({ interface: 'eth0', qdiscs: VETH_DEFAULT }, OURS_TBF));
  });
});
