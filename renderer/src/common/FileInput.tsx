// The hidden file input behind an "Open…" or "Import…" button: the button clicks it through `inputRef`,
// and `onFile` hears the file chosen. The input is cleared at once, so choosing the same file again
// (after fixing it) fires again.

import type { RefObject } from 'react';

export function FileInput({ inputRef, testId, accept, onFile }: { inputRef: RefObject<HTMLInputElement | null>; testId: string; accept?: string; onFile: (file: File) => void }) {
  return (
    <input
      ref={inputRef}
      type="file"
      accept={accept}
      hidden
      data-testid={testId}
      onChange={(event) => {
        const file = event.target.files?.[0];
        event.target.value = '';
        if (file) onFile(file);
      }}
    />
  );
}
