// The state of an edit form checked as the user types with the back end's own rules: the draft,
// which fields were touched (a field's error shows once it was, or after a first Save), the save
// in flight and what the back end refused. The host form and the preset editor use it.

import { useState, type FormEvent } from 'react';
import { errorMessage } from '../api-context.tsx';

export interface EditForm<D> {
  draft: D;
  errors: Record<string, string>;
  /** A field's error, once the user touched that field or tried to save. */
  shown: (field: string) => string | undefined;
  touch: (field: string) => void;
  /** A new draft after the user changed `field`. */
  change: (next: D | ((current: D) => D), field: string) => void;
  submit: (event: FormEvent) => Promise<void>;
  submitted: boolean;
  saving: boolean;
  serverError: string | null;
}

export function useEditForm<D>(initial: D | (() => D), fieldErrors: (draft: D) => Record<string, string>, save: (draft: D) => Promise<void>): EditForm<D> {
  const [draft, setDraft] = useState<D>(initial);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const errors = fieldErrors(draft);
  const touch = (field: string) => setTouched((current) => new Set(current).add(field));

  const change = (next: D | ((current: D) => D), field: string) => {
    setDraft(next);
    touch(field);
    setServerError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    setSaving(true);
    try {
      await save(draft);
    } catch (failure) {
      setServerError(errorMessage(failure));
    } finally {
      setSaving(false);
    }
  };

  return { draft, errors, shown: (field) => (submitted || touched.has(field) ? errors[field] : undefined), touch, change, submit, submitted, saving, serverError };
}
