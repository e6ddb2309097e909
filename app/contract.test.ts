// Tests of the contract: argument validation with field-naming messages, request name checks, buildApi.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  appRequests,
  buildApi,
  events,
  EVENT_NAMES,
  isEventName,
  isRequestName,
  parseArgs,
  REQUEST_NAMES,
  requests,
  type EventName,
  type RequestName,
  type TransportCall,
} from './contract.ts';
import { isApiErrorShape } from './common/errors.ts';
import { draftRequests } from './drafts/drafts-contract.ts';
import { hostEvents, hostRequests } from './hosts/hosts-contract.ts';
import { planEvents, planRequests } from './plans/plans-contract.ts';
import { profileEvents, profileRequests } from './profiles/profiles-contract.ts';
import { presetEvents, presetRequests } from './presets/presets-contract.ts';
import { runEvents, runRequests } from './runs/runs-contract.ts';
import { sessionEvents, sessionRequests } from './sessions/sessions-contract.ts';
import { templateEvents, templateRequests } from './templates/templates-contract.ts';
import { terminalEvents, terminalRequests } from './terminals/terminals-contract.ts';
import { logRequests } from './common/log-contract.ts';

const goodHost = { name: 'srv', address: '10.0.0.3', port: 22, user: 'bench', auth: 'agent' };

function refusal(name: RequestName, args: unknown): { code: string; message: string } {
  const result = parseArgs(name, args);
  assert.equal(result.ok, false, `expected ${name} to refuse ${JSON.stringify(args)}`);
  if (result.ok) throw new Error('unreachable');
  assert.ok(isApiErrorShape(result.error));
  return result.error;
}

describe('parseArgs', () => {
  test('a bad port is invalid_args naming the field', () => {
    const error = refusal('hosts.add', { ...goodHost, port: 70000 });
    assert.equal(error.code, 'invalid_args');
    assert.match(error.message, /^port: /);
    assert.match(error.message, /65535/);
  });

  test('each bad field is named in the message', () => {
    for (const [field, value] of [
      ['address', 'a b'],
      ['name', ''],
      ['user', 'bad user'],
      ['auth', 'kerberos'],
    ] as const) {
      const error = refusal('hosts.add', { ...goodHost, [field]: value });
      assert.equal(error.code, 'invalid_args');
      assert.match(error.message, new RegExp(`^${field}: `), error.message);
    }
  });

  test('nested fields are named by their path', () => {
    const error = refusal('hosts.update', { id: 1, host: { ...goodHost, port: 0 } });
    assert.match(error.message, /^host\.port: /);
    assert.match(refusal('hosts.update', { id: 0, host: goodHost }).message, /^id: /);
    assert.match(refusal('hosts.update', { id: 1 }).message, /^host: /);
  });

  test('missing key path with key auth names keyPath', () => {
    assert.match(refusal('hosts.add', { ...goodHost, auth: 'key' }).message, /^keyPath: .*required/);
  });

  test('unknown fields are refused and named', () => {
    const error = refusal('hosts.add', { ...goodHost, extra: 1 });
    assert.equal(error.code, 'invalid_args');
    assert.match(error.message, /"extra"/);
    assert.match(refusal('app.info', { verbose: true }).message, /"verbose"/);
    assert.match(refusal('sessions.get', { id: 1, a: 1, b: 2 }).message, /fields "a", "b"/);
  });

  test('non-object arguments are refused', () => {
    for (const args of ['x', 42, true, [goodHost]]) {
      assert.equal(refusal('hosts.add', args).code, 'invalid_args');
    }
  });

  test('valid arguments come back parsed (trimmed)', () => {
    const result = parseArgs('hosts.add', { ...goodHost, name: '  srv  ' });
    assert.ok(result.ok);
    assert.equal(result.args.name, 'srv');
    assert.equal(result.args.port, 22);
  });

  test('requests without arguments accept nothing, undefined and null as {}', () => {
    for (const args of [undefined, null, {}]) {
      const result = parseArgs('hosts.list', args);
      assert.ok(result.ok);
      assert.deepEqual(result.args, {});
    }
    const sessions = parseArgs('sessions.list', undefined);
    assert.ok(sessions.ok);
  });

  test('sessions.list takes no search: the Sessions page filters the library itself', () => {
    assert.match(refusal('sessions.list', { search: 'vert' }).message, /unknown field "search"/);
  });

  test('ids must be positive whole numbers', () => {
    for (const id of [0, -3, 1.5, '1', null, Number.NaN]) {
      assert.match(refusal('sessions.get', { id }).message, /^id: /);
    }
    assert.ok(parseArgs('sessions.get', { id: 7 }).ok);
  });

  test('session names are single-line and required', () => {
    assert.match(refusal('sessions.rename', { id: 1, name: '' }).message, /^name: .*required/);
    assert.match(refusal('sessions.rename', { id: 1, name: 'a\nb' }).message, /^name: .*line breaks/);
  });

  test('messages are bounded to a few issues', () => {
    const error = refusal('hosts.add', { name: '', address: '', port: -1, user: '', auth: '' });
    assert.ok(error.message.split('; ').length <= 3, error.message);
  });
});

describe('request and event names', () => {
  test('every request in the map is a request name', () => {
    assert.deepEqual([...REQUEST_NAMES].sort(), Object.keys(requests).sort());
    for (const name of REQUEST_NAMES) assert.equal(isRequestName(name), true);
    for (const name of [
      'app.info',
      'hosts.list',
      'hosts.add',
      'hosts.update',
      'hosts.remove',
      'sessions.list',
      'sessions.get',
      'sessions.rename',
      'sessions.delete',
    ]) {
      assert.equal(isRequestName(name), true, name);
    }
  });

  test('inherited and unknown names are refused', () => {
    for (const name of [
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'valueOf',
      '__defineGetter__',
      'hosts',
      'hosts.',
      'hosts.drop',
      'HOSTS.LIST',
      ' hosts.list',
      '',
      undefined,
      null,
      42,
      {},
      ['hosts.list'],
    ]) {
      assert.equal(isRequestName(name), false, String(name));
    }
  });

  test('event names likewise', () => {
    assert.ok(EVENT_NAMES.includes('log'));
    assert.equal(isEventName('log'), true);
    for (const name of ['__proto__', 'constructor', 'toString', 'logs', '', null]) assert.equal(isEventName(name), false);
  });
});

describe('capability maps', () => {
  // Each capability's request map and event map (null: it publishes none), with the namespaces their names may use.
  const capabilities: Array<[string, object, object | null, string[]]> = [
    ['app', appRequests, null, ['app']],
    ['log', logRequests, null, ['log']],
    ['hosts', hostRequests, hostEvents, ['hosts']],
    ['terminals', terminalRequests, terminalEvents, ['terminal']],
    ['sessions', sessionRequests, sessionEvents, ['sessions', 'compare', 'replay']],
    ['presets', presetRequests, presetEvents, ['presets']],
    ['templates', templateRequests, templateEvents, ['templates']],
    ['runs', runRequests, runEvents, ['runs']],
    ['plans', planRequests, planEvents, ['plans']],
    ['profiles', profileRequests, profileEvents, ['profiles']],
    ['drafts', draftRequests, null, ['drafts']],
  ];
  const requestMaps = capabilities.map(([capability, map, , namespaces]): [string, object, string[]] => [capability, map, namespaces]);
  const eventMaps = capabilities.flatMap(([capability, , map, namespaces]): Array<[string, object, string[]]> => (map ? [[capability, map, namespaces]] : []));

  function assertComposed(maps: Array<[string, object, string[]]>, composed: object, appWide: string[]): void {
    const owner = new Map<string, string>();
    for (const [capability, map, namespaces] of maps) {
      for (const name of Object.keys(map)) {
        assert.equal(owner.get(name), undefined, `${name} is in both ${owner.get(name)} and ${capability}`);
        owner.set(name, capability);
        assert.ok(namespaces.includes(name.split('.')[0]!), `${name} does not belong to ${capability}`);
        assert.equal((composed as Record<string, unknown>)[name], (map as Record<string, unknown>)[name], `${name} is composed as ${capability} defines it`);
      }
    }
    assert.deepEqual(Object.keys(composed).filter((name) => !owner.has(name)), appWide, 'every name comes from one capability map');
  }

  test('the contract is exactly the capability request maps, no name in two of them', () => {
    assertComposed(requestMaps, requests, []);
  });

  test('the events are the capability event maps plus the app-wide log line', () => {
    assertComposed(eventMaps, events, ['log']);
  });
});

describe('buildApi', () => {
  function recordingChannel() {
    const calls: Array<{ name: RequestName; args: unknown }> = [];
    const subscriptions: Array<{ event: EventName; listener: (payload: unknown) => void }> = [];
    let unsubscribed = 0;
    const channel: TransportCall = {
      call: async (name, args) => {
        calls.push({ name, args });
        return { answeredFor: name, args };
      },
      subscribe: (event, listener) => {
        subscriptions.push({ event, listener });
        return () => {
          unsubscribed++;
        };
      },
    };
    return { channel, calls, subscriptions, unsubscribed: () => unsubscribed };
  }

  test('one function per request, grouped by namespace', () => {
    const { channel } = recordingChannel();
    const api = buildApi('web', channel) as unknown as Record<string, unknown>;
    const expected = new Map<string, string[]>();
    for (const name of REQUEST_NAMES) {
      const [namespace, method] = name.split('.') as [string, string];
      expected.set(namespace, [...(expected.get(namespace) ?? []), method]);
    }
    for (const [namespace, methods] of expected) {
      const group = api[namespace] as Record<string, unknown>;
      assert.equal(typeof group, 'object', namespace);
      assert.deepEqual(Object.keys(group).sort(), [...methods].sort());
      for (const method of methods) assert.equal(typeof group[method], 'function', `${namespace}.${method}`);
    }
    assert.deepEqual(
      Object.keys(api).sort(),
      [...expected.keys(), 'subscribe', 'transport'].sort(),
    );
    assert.equal(api.transport, 'web');
  });

  test('each function calls the channel with its own request name and args', async () => {
    const { channel, calls } = recordingChannel();
    const api = buildApi('electron', channel);
    assert.equal(api.transport, 'electron');
    const answer = await api.hosts.add(goodHost as Parameters<typeof api.hosts.add>[0]);
    assert.deepEqual(answer, { answeredFor: 'hosts.add', args: goodHost });
    await api.sessions.rename({ id: 4, name: 'renamed' });
    await api.hosts.list();
    await api.app.info();
    assert.deepEqual(calls, [
      { name: 'hosts.add', args: goodHost },
      { name: 'sessions.rename', args: { id: 4, name: 'renamed' } },
      { name: 'hosts.list', args: {} },
      { name: 'app.info', args: {} },
    ]);
  });

  test('every request name reaches the channel unchanged', async () => {
    const { channel, calls } = recordingChannel();
    const api = buildApi('cli', channel) as unknown as Record<string, Record<string, (args?: unknown) => Promise<unknown>>>;
    for (const name of REQUEST_NAMES) {
      const [namespace, method] = name.split('.') as [string, string];
      await api[namespace]![method]!({ marker: name });
    }
    assert.deepEqual(
      calls.map((call) => call.name),
      REQUEST_NAMES,
    );
    for (const call of calls) assert.deepEqual(call.args, { marker: call.name });
  });

  test('subscribe passes through to the channel and returns its unsubscribe', () => {
    const { channel, subscriptions, unsubscribed } = recordingChannel();
    const api = buildApi('web', channel);
    const seen: unknown[] = [];
    const stop = api.subscribe('log', (line) => seen.push(line));
    assert.equal(subscriptions.length, 1);
    assert.equal(subscriptions[0]?.event, 'log');
    subscriptions[0]?.listener({ message: 'hello' });
    assert.deepEqual(seen, [{ message: 'hello' }]);
    stop();
    assert.equal(unsubscribed(), 1);
  });

  test('channel failures reach the caller', async () => {
    const api = buildApi('web', {
      call: async () => {
        throw Object.assign(new Error('nope'), { code: 'disconnected' });
      },
      subscribe: () => () => {},
    });
    await assert.rejects(api.hosts.list(), /nope/);
  });
});
