// Reading ~/.ssh/config (or text the user pasted) into host entry candidates for the import
// dialog. Owns the file access only; app/hosts/ssh-config.ts holds the OpenSSH parsing rules.

import { readFile } from 'node:fs/promises';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ApiError, messageOf } from '../../../app/common/errors.ts';
import { parseSshConfig, type SshConfigCandidate } from '../../../app/hosts/ssh-config.ts';

export interface SshConfigImport {
  /** The file read, or 'pasted text'. */
  source: string;
  candidates: SshConfigCandidate[];
  warnings: string[];
}

/** A real ssh config is a few KB; anything this big is the wrong file. */
const MAX_CONFIG_BYTES = 1024 * 1024;

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    // userInfo throws when the uid has no passwd entry (some containers).
    return process.env.USER ?? process.env.LOGNAME ?? 'unknown';
  }
}

/** Candidates from `text`, or from ~/.ssh/config when no text is given. A missing file is a warning, not an error. */
export async function readSshConfigCandidates(text?: string, options: { home?: string } = {}): Promise<SshConfigImport> {
  const home = options.home ?? homedir();
  const parseOptions = { home, currentUser: currentUser() };
  if (text !== undefined) return { source: 'pasted text', ...parseSshConfig(text, parseOptions) };

  const path = join(home, '.ssh', 'config');
  let content: Buffer;
  try {
    content = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return { source: path, candidates: [], warnings: [`${path} does not exist: there are no hosts to import (paste a config instead)`] };
    }
    const reason = code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : messageOf(error);
    throw new ApiError('unavailable', `cannot read ${path}: ${reason}`);
  }
  if (content.length > MAX_CONFIG_BYTES) {
    throw new ApiError('too_large', `${path} is ${Math.round(content.length / 1024)} KB, more than an ssh config can sensibly be (limit ${MAX_CONFIG_BYTES / 1024} KB)`);
  }
  return { source: path, ...parseSshConfig(content.toString('utf8'), parseOptions) };
}
