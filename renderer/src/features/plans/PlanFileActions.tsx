// The wizard's plan as a file (docs/plan-files.md): "Save plan file…" downloads the draft as
// plan.yaml once it is a whole plan (else it lists what is missing), and "Open plan file…" loads one
// into the wizard — or, when the file is bad, lists every problem with its line and changes nothing.
// The buttons go in the header; what they have to say, in a banner under it (PlanFileMessage).

import { useRef } from 'react';
import { describeProblems, parsePlanFile, sizeProblem } from '../../../../app/plans/plan-file.ts';
import { formatPlanFile } from '../../../../app/plans/plan-file-format.ts';
import type { Study } from '../../../../app/plans/studies.ts';
import type { Host } from '../../../../app/hosts/hosts.ts';
import { Banner } from '../../common/Banner.tsx';
import { saveFile } from '../../common/save-file.ts';
import { draftOfPlanFile, planFileOfDraft } from './plan-file-draft.ts';
import type { WizardDraft } from './wizard-draft.ts';
import { FileInput } from '../../common/FileInput.tsx';

const SAVED_FILE_NAME = 'plan.yaml';

export type PlanFileNews = { tone: 'error' | 'info'; title: string; lines: string[] };

export function PlanFileActions(props: {
  draft: WizardDraft;
  hosts: readonly Host[];
  studies: readonly Study[];
  onOpen: (draft: WizardDraft) => void;
  onNews: (news: PlanFileNews | null) => void;
}) {
  const input = useRef<HTMLInputElement>(null);

  const save = () => {
    const parsed = planFileOfDraft(props.draft, (id) => props.hosts.find((host) => host.id === id)?.name ?? null);
    if (!parsed.ok) {
      props.onNews({ tone: 'error', title: 'The plan cannot be saved as a file yet:', lines: parsed.problems.map((problem) => `${problem.field}: ${problem.message}`) });
      return;
    }
    saveFile(SAVED_FILE_NAME, formatPlanFile(parsed.plan, 'yaml'), 'application/yaml');
    props.onNews(null);
  };

  const open = async (file: File) => {
    const refused = (lines: string) => props.onNews({ tone: 'error', title: `${file.name} was not opened; the wizard is unchanged:`, lines: lines.split('\n') });
    const tooBig = sizeProblem(file.size);
    if (tooBig) return refused(describeProblems(file.name, [tooBig]));
    const parsed = parsePlanFile(await file.text(), /\.json$/i.test(file.name) ? 'json' : 'yaml');
    if (!parsed.ok) return refused(describeProblems(file.name, parsed.problems));
    const { draft, notes } = draftOfPlanFile(parsed.plan, props.hosts, props.studies, props.draft);
    props.onOpen(draft);
    props.onNews({ tone: 'info', title: `Opened ${file.name}: check each step, then run it.`, lines: notes });
  };

  return (
    <div className="actions">
      <button type="button" data-testid="wizard-open-plan-file" onClick={() => input.current?.click()}>
        Open plan file…
      </button>
      <FileInput inputRef={input} testId="wizard-plan-file-input" accept=".yaml,.yml,.json,application/yaml,application/json" onFile={(file) => void open(file)} />
      <button type="button" data-testid="wizard-save-plan-file" onClick={save}>
        Save plan file…
      </button>
    </div>
  );
}

/** What Save or Open had to say: the problems (each with its line) or what was opened and its notes. */
export function PlanFileMessage({ news, onDismiss }: { news: PlanFileNews | null; onDismiss: () => void }) {
  if (!news) return null;
  return (
    <Banner tone={news.tone} testId="wizard-plan-file-message" data-tone={news.tone}>
      <p>{news.title}</p>
      {news.lines.length > 0 && (
        <ul>
          {news.lines.map((line, index) => (
            <li key={`${index}:${line}`} data-testid="wizard-plan-file-line">
              {line}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="link" data-testid="wizard-plan-file-dismiss" onClick={onDismiss}>
        Dismiss
      </button>
    </Banner>
  );
}
