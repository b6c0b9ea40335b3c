import { useState } from 'react';
import { DiffModeEnum, DiffView } from '@git-diff-view/react';
import { teammateBranch } from '../../../contract/branch';

export interface LeftConflicted {
  agent: string | null;
  into: string;
  files: Array<{ path: string; patch: string | null; marked: string | null }>;
  /** Files resolved or edited since the merge was left: abort asks first and saves them. */
  touched: string[];
}

/**
 * A merge left in progress in the lead's checkout: each conflicted file with both sides (the lead's version on
 * the left, the teammate's on the right) and the file as git left it, with its conflict markers. Abort puts
 * the lead's checkout back where it was; while it holds the person's work it asks first, and that work is saved.
 */
export function ConflictView({ left, onAbort }: { left: LeftConflicted; onAbort: (confirm: boolean) => void }) {
  const theirs = left.agent ? teammateBranch(left.agent) : 'the branch';
  const [asking, setAsking] = useState(false);
  const touched = left.touched ?? [];
  const done = left.files.length === 0;
  return (
    <div className="merge-conflicts" data-testid="left-conflicted">
      <div className="merge-conflicts-head">
        <strong>
          {done ? `Merge of ${theirs} into ${left.into}: nothing left conflicted — commit it` : `Merge of ${theirs} into ${left.into} left in progress: ${left.files.length} conflicted file${left.files.length === 1 ? '' : 's'}`}
        </strong>
        <span className="muted" data-testid="merge-next">
          {done ? "Every conflict is resolved: run git commit in the lead's checkout to finish the merge." : "Resolve them in the lead's checkout (edit, git add, git commit), or abort."}
        </span>
        <button onClick={() => (touched.length ? setAsking(true) : onAbort(false))}>Abort merge</button>
      </div>
      {asking && (
        <div className="merge-abort-confirm" role="alertdialog" aria-label="abort the merge?">
          <span>
            You resolved or edited {touched.join(', ')}. Aborting backs out of the merge; that work is first saved to a patch under .thclaws/merge-aborts/.
          </span>
          <button
            className="danger"
            onClick={() => {
              setAsking(false);
              onAbort(true);
            }}
          >
            Abort and save my work
          </button>
          <button autoFocus onClick={() => setAsking(false)}>
            Keep the merge
          </button>
        </div>
      )}
      {left.files.map((f) => (
        <div key={f.path} className="review-file merge-conflict-file" data-path={f.path}>
          <div className="review-file-head">
            <span className="review-status s-modified">U</span>
            <span className="review-path">{f.path}</span>
            <span className="review-source">
              ours: {left.into} · theirs: {theirs}
            </span>
          </div>
          {f.patch ? (
            <div role="region" aria-label={`both sides of ${f.path}`}>
              <DiffView
                data={{ oldFile: { fileName: f.path }, newFile: { fileName: f.path }, hunks: [f.patch] }}
                diffViewMode={DiffModeEnum.Split}
                diffViewWrap
                diffViewHighlight={false}
                diffViewTheme="dark"
                diffViewFontSize={12}
              />
            </div>
          ) : (
            <div className="review-empty">one side deleted the file (or it is too large to compare)</div>
          )}
          {f.marked !== null && (
            <details className="merge-marked">
              <summary>the file as git left it, with conflict markers</summary>
              <pre tabIndex={0} aria-label={`${f.path} with conflict markers`}>
                {f.marked}
              </pre>
            </details>
          )}
        </div>
      ))}
    </div>
  );
}
