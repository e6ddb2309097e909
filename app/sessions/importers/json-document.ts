// A whole-file JSON document (k6's summary export, oha's --json) gathered line by line up to a
// cap, then parsed once; a syntax error keeps the parser's own line and column, a document that is
// no object says so. Also the parser of a file that is one JSON object, and the small readers of its
// fields.

import { ImportError, type FormatParser, type ImportedResult } from './imported-result.ts';
import { jsonNumber } from './import-numbers.ts';
import { messageOf } from '../../common/errors.ts';

/** Summaries are a few KB; a document this large is not one. */
export const MAX_DOCUMENT_CHARS = 32 * 1024 * 1024;

export class JsonDocument {
  readonly #parts: string[] = [];
  #chars = 0;

  add(text: string, line: number): void {
    this.#chars += text.length + 1;
    if (this.#chars > MAX_DOCUMENT_CHARS) throw new ImportError(line, `the JSON document is larger than ${MAX_DOCUMENT_CHARS / 1024 / 1024} MiB: this is no summary`);
    this.#parts.push(text);
  }

  get empty(): boolean {
    return this.#parts.every((part) => part.trim() === '');
  }

  parse(what: string): Record<string, unknown> {
    if (this.empty) throw new ImportError(null, 'the file is empty');
    let value: unknown;
    try {
      value = JSON.parse(this.#parts.join('\n'));
    } catch (error) {
      const position = /line (\d+)/.exec(messageOf(error));
      throw new ImportError(position ? Number(position[1]) : null, `${what} is not valid JSON (${messageOf(error)}): truncated?`);
    }
    if (!isObject(value)) throw new ImportError(null, `${what} is a JSON object; this file holds ${Array.isArray(value) ? 'an array' : typeof value}`);
    return value;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A nested object field, or an error naming its path. */
export function objectAt(value: Record<string, unknown>, key: string, path: string): Record<string, unknown> {
  const found = value[key];
  if (!isObject(found)) throw new ImportError(null, `${path}.${key} is missing or not an object`);
  return found;
}

/**
 * The parser of a file that is one JSON object (autocannon's, bombardier's, Artillery's): text before
 * its `{` is refused with `hint` (how to run the tool for it); `read` gets the object, called `what`.
 */
export function jsonObjectParser(hint: string, what: string, read: (root: Record<string, unknown>) => ImportedResult): FormatParser {
  const document = new JsonDocument();
  return {
    line(text, number) {
      if (document.empty && text.trim() !== '' && !text.trim().startsWith('{')) throw new ImportError(number, hint);
      document.add(text, number);
    },
    finish: () => read(document.parse(what)),
  };
}

/** A count field (absent: 0), or an error naming it. */
export function jsonCount(value: unknown, field: string): number {
  const number = jsonNumber(value ?? 0, null, field);
  if (!Number.isSafeInteger(number) || number < 0) throw new ImportError(null, `${field} is not a count`);
  return number;
}
