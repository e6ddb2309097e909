// A Benchlab process in miniature for the tests of several processes on one store: it opens the
// data dir, starts one session and one run as the run service does (stamped with its owner token),
// prints {"sessionId":…,"runId":…} and stays alive until it is killed, never ending them:
// `node tests/support/session-owner-child.ts DATA_DIR`.

import { RunsRepository } from '../../main/services/runs/runs-repository.ts';
import { SessionsRepository } from '../../main/services/runs/sessions-repository.ts';
import { openDatabase } from '../../main/services/store/database.ts';

const { db } = openDatabase(process.argv[2]!);
const sessions = new SessionsRepository(db);
const session = sessions.create({ name: 'run by another process', status: 'running' });
sessions.setStatus(session.id, 'running', { started: new Date() });
const runs = new RunsRepository(db);
const runId = runs.create({ sessionId: session.id, ordinal: 1, templateId: 'external', variant: '' });
runs.markStarted(runId);
console.log(JSON.stringify({ sessionId: session.id, runId }));
setInterval(() => undefined, 60_000);
