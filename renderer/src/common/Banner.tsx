// The one banner across a page: an error, a warning or a note, in the tone of what it says. Errors
// are announced to assistive technology (role "alert"); other tones say so only when asked, since a
// banner that is always there (a pre-flight note, a plan running) is not news.

import type { ReactNode } from 'react';

export type BannerTone = 'error' | 'warning' | 'info';

type DataAttributes = { [name: `data-${string}`]: string | number | undefined };

export function Banner(
  props: {
    tone: BannerTone;
    children: ReactNode;
    testId?: string | undefined;
    /** Defaults to "alert" for an error, none otherwise. */
    role?: 'alert' | 'status' | undefined;
    /** Extra classes (a confirmation's layout, say). */
    className?: string | undefined;
  } & DataAttributes,
) {
  const { tone, children, testId, role, className, ...data } = props;
  return (
    <div className={['banner', tone, className].filter(Boolean).join(' ')} role={role ?? (tone === 'error' ? 'alert' : undefined)} data-testid={testId} {...data}>
      {children}
    </div>
  );
}

/** A failure in words, or nothing while there is none. */
export function ErrorBanner({ error, testId }: { error: string | null | undefined; testId?: string }) {
  return error ? (
    <Banner tone="error" testId={testId}>
      {error}
    </Banner>
  ) : null;
}
