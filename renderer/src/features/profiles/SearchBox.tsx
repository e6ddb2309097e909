// The search over a flame graph's frames: text anywhere in a name, or /a regular expression/; what
// it found (frames and their share of samples) is said beside it.

export function SearchBox({ query, onChange, testId, result }: { query: string; onChange: (query: string) => void; testId: string; result: string | null }) {
  return (
    <span className="flame-search">
      <input type="search" value={query} placeholder="Search frames (text or /regex/)" aria-label="Search frames" data-testid={testId} onChange={(event) => onChange(event.target.value)} />
      {result && (
        <span className="muted small" data-testid={`${testId}-result`}>
          {result}
        </span>
      )}
    </span>
  );
}
