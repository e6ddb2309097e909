// The options of a select that picks one entry of a list (a host, a preset, a study, a run): one
// <option> per entry, its value the entry's id and its text the entry's name unless told otherwise.

export function EntryOptions<Entry extends { id: string | number; name?: string }>(props: { entries: readonly Entry[]; text?: (entry: Entry) => string }) {
  return props.entries.map((entry) => (
    <option key={entry.id} value={entry.id}>
      {props.text ? props.text(entry) : (entry.name ?? String(entry.id))}
    </option>
  ));
}
