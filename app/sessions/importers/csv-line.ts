// One line of a CSV results file split into fields (RFC 4180 quoting: "a,b" and "" for a quote),
// a file that starts with its header read row by row with its columns (`headedCsv`),
// and a header read into column positions. A quoted field never spans lines in the formats read
// here (JMeter, vegeta and hey write none), so one that does is reported as a damaged line.

import { ImportError } from './imported-result.ts';

export function splitCsvLine(text: string, line: number, separator = ','): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === separator) {
      fields.push(field);
      field = '';
    } else field += char;
  }
  if (quoted) throw new ImportError(line, 'a quoted field is not closed on its line: the file is damaged or truncated');
  fields.push(field);
  return fields;
}

/** Positions of the named columns in a header line; every `required` one must be there. */
export function readHeader(fields: readonly string[], required: readonly string[], line: number, what: string): Map<string, number> {
  const columns = new Map(fields.map((name, index) => [name.trim(), index]));
  const lacking = required.filter((name) => !columns.has(name));
  if (lacking.length > 0) throw new ImportError(line, `the header of ${what} lacks ${lacking.join(', ')}`);
  return columns;
}

/** The field of a named column (known to be in the header). */
export function column(fields: readonly string[], columns: ReadonlyMap<string, number>, name: string, line: number): string {
  const value = fields[columns.get(name)!];
  if (value === undefined) throw new ImportError(line, `the line has ${fields.length} fields, too few for ${name}: truncated?`);
  return value;
}

/**
 * The lines of a CSV file that starts with its header: blank lines skipped, the header checked
 * (`checkHeader`, for a format's own words on a wrong first line) and read into columns, then each
 * row's fields handed on with them. `read` says whether the header was seen.
 */
export function headedCsv(
  header: { required: readonly string[]; what: string; check?: (fields: readonly string[], line: number) => void },
  row: (fields: readonly string[], columns: ReadonlyMap<string, number>, line: number) => void,
): { line(text: string, number: number): void; readonly read: boolean } {
  let columns: Map<string, number> | null = null;
  return {
    line(text, number) {
      if (text.trim() === '') return;
      const fields = splitCsvLine(text.trim(), number);
      if (columns) return row(fields, columns, number);
      header.check?.(fields, number);
      columns = readHeader(fields, header.required, number, header.what);
    },
    get read() {
      return columns !== null;
    },
  };
}
