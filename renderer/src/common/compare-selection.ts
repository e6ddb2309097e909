// The sessions picked for comparison, kept in localStorage so the Sessions page and the wizard's
// finished plan can hand them to the Compare page, and a reload keeps them.

const KEY = 'benchlab.compare.selection';

export function loadSelection(): number[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id) && id > 0) : [];
  } catch {
    return [];
  }
}

export function saveSelection(ids: readonly number[]): void {
  localStorage.setItem(KEY, JSON.stringify([...new Set(ids)]));
}
