// A table row's secondary actions behind one "⋯" button, so a row keeps its width at 1280 pixels.
// The list is a popover: it opens in the top layer, where neither the table's clipping nor the
// page's scrolling cuts it off, and it closes on Escape, on a click outside or once an item is chosen.

import { useId, useRef, type ReactNode, type ToggleEvent } from 'react';

export function RowMenu({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);

  /** Below the button, right edges aligned (before it shows); above it once measured, when the viewport has no room below. */
  const place = (event: ToggleEvent<HTMLDivElement>) => {
    if (event.newState !== 'open' || !button.current || !list.current) return;
    const anchor = button.current.getBoundingClientRect();
    const menu = list.current;
    menu.style.right = `${Math.max(4, window.innerWidth - anchor.right)}px`;
    const below = anchor.bottom + 4;
    const height = menu.offsetHeight;
    menu.style.top = `${below + height > window.innerHeight && anchor.top - 4 - height > 0 ? anchor.top - 4 - height : below}px`;
  };

  return (
    <>
      <button type="button" ref={button} className="row-menu-button" popoverTarget={id} aria-haspopup="menu" aria-label={label} title={label} data-testid={testId}>
        ⋯
      </button>
      <div
        id={id}
        ref={list}
        popover="auto"
        role="menu"
        className="row-menu"
        data-testid={`${testId}-list`}
        onBeforeToggle={place}
        onToggle={place}
        onClick={(event) => {
          if ((event.target as HTMLElement).closest('button')) list.current?.hidePopover();
        }}
      >
        {children}
      </div>
    </>
  );
}
