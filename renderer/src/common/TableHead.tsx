// A table's header row from its column titles ('' for a column without one, such as actions).

export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, index) => (
          <th key={`${index}-${column}`}>{column}</th>
        ))}
      </tr>
    </thead>
  );
}
