// The output of a script run on a host that announces each part with a marker line
// (`<marker> <name>`): split into its named sections, one reader for every probe script.

/**
 * Section name → its lines. `clean` shapes each line (the host facts trim them, the system info keeps
 * leading white space, the preset scripts keep files byte-exact); a line it leaves empty is dropped,
 * and anything before the first marker is ignored (a login banner, a shell's noise).
 */
export function splitSections(text: string, marker: string, clean: (line: string) => string = (line) => line): Map<string, string[]> {
  const found = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const raw of text.split(/\r?\n/)) {
    if (raw.startsWith(`${marker} `)) {
      current = [];
      found.set(raw.slice(marker.length + 1).trim(), current);
      continue;
    }
    const line = clean(raw);
    if (current && line !== '') current.push(line);
  }
  return found;
}
