import { useEffect, useMemo, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { DiffModeEnum, DiffView, SplitSide, type DiffViewProps } from '@git-diff-view/react';
import '@git-diff-view/react/styles/diff-view.css';
import type { FileChangeView, ReviewCommentView } from '../../../contract/api';
import { act } from '../../context';
import { useDashboard } from '../../store';
import { NearScreen } from './near-screen';
import { paginatePatch } from './patch-pages';
import { lineAt, opensComment } from './line-tap';

type WidgetStore = Parameters<NonNullable<DiffViewProps<unknown>['onCreateUseWidgetHook']>>[0];

/** Past this many changed lines a file starts collapsed ("show" renders it). */
export const LARGE_FILE_LINES = 1500;
/** Past this many changed lines a file is shown without syntax highlighting (it would hold up the first paint). */
export const HIGHLIGHT_MAX_LINES = 1000;
/** Hunk lines per page of a diff: a page is rendered when it comes near the screen. */
const PAGE_LINES = 300;
/** The first page is small: it is what the first paint waits for. */
const FIRST_PAGE_LINES = 80;
export const ROW_PX = 20;

const LETTER: Record<FileChangeView['status'], string> = { added: 'A', modified: 'M', deleted: 'D', renamed: 'R', copied: 'C', type_changed: 'T' };

function langOf(p: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(p)?.[1]?.toLowerCase() ?? '';
  const map: Record<string, string> = { ts: 'typescript', tsx: 'typescript', js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', py: 'python', rs: 'rust', go: 'go', md: 'markdown', json: 'json', sh: 'bash', css: 'css', html: 'xml', yml: 'yaml', yaml: 'yaml', java: 'java', c: 'c', h: 'c', cpp: 'cpp', rb: 'ruby' };
  return map[ext] ?? 'plaintext';
}

/** A comment on one line, or on a range from it down to `end` (the host checks the lines are in the diff). */
function CommentForm({ agent, file, line, onClose }: { agent: string; file: FileChangeView; line: number; onClose: () => void }) {
  const [text, setText] = useState('');
  const [end, setEnd] = useState(line);
  const save = async () => {
    if (!text.trim()) return;
    const ok = await act({ type: 'review_comment', agent, path: file.path, line, end_line: end > line ? end : null, text });
    if (ok !== undefined) onClose();
  };
  return (
    <div className="review-comment-form" data-testid="comment-form">
      <textarea autoFocus rows={3} value={text} onChange={(e) => setText(e.target.value)} placeholder={`comment on ${file.path}:${line}${end > line ? `-${end}` : ''}`} aria-label="review comment" />
      <div>
        <label>
          lines {line} to
          <input type="number" min={line} value={end} onChange={(e) => setEnd(Math.max(line, Number(e.target.value) || line))} aria-label="last line of the comment" />
        </label>
        <button className="primary" onClick={() => void save()}>
          Add to review
        </button>
        <button onClick={onClose}>Cancel</button>
      </div>
    </div>
  );
}

/** Drawn on its line in today's diff: only a comment the host followed to where its lines are now. */
const onLine = (c: ReviewCommentView) => c.state === 'pending' || c.state === 'sent';
/** Not yet with the teammate ("Send review" sends it). */
export const unsent = (c: ReviewCommentView) => c.state === 'pending' || (c.state === 'outdated' && !c.sent_at);

function where(c: ReviewCommentView): string {
  return `${c.path}:${c.line}${c.end_line && c.end_line !== c.line ? `-${c.end_line}` : ''}`;
}

function CommentBox({ agent, comments, quoted = false }: { agent: string; comments: ReviewCommentView[]; quoted?: boolean }) {
  return (
    <div className="review-comments">
      {comments.map((c) => (
        <div key={c.id} className={`review-comment ${c.state}`} data-state={c.state} data-comment={c.id}>
          <span className="review-comment-state">{c.state === 'outdated' ? (c.sent_at ? 'outdated' : 'outdated, not sent yet') : c.state}</span>
          {quoted && (
            <div className="review-comment-quoted">
              <span className="muted">
                {where(c)} {c.state === 'resolved' ? '' : c.gone ? '— the file is no longer in the changes; written on:' : '— written on an earlier version:'}
              </span>
              <pre>{c.lines.join('\n')}</pre>
            </div>
          )}
          <span className="review-comment-text">{c.text}</span>
          {c.state !== 'resolved' && (
            <button onClick={() => void act({ type: 'review_comment_state', agent, comment_id: c.id, state: 'resolved' })} title="mark resolved">
              Resolve
            </button>
          )}
          {unsent(c) && <button onClick={() => void act({ type: 'review_comment_state', agent, comment_id: c.id, state: 'deleted' })}>Delete</button>}
        </div>
      ))}
    </div>
  );
}

/** Comments no longer drawn on a line (outdated, resolved): each with the lines it was written about. */
export function EarlierComments({ agent, comments, title }: { agent: string; comments: ReviewCommentView[]; title: string }) {
  if (!comments.length) return null;
  return (
    <div className="review-earlier" data-testid="earlier-comments">
      <div className="muted">{title}</div>
      <CommentBox agent={agent} comments={comments} quoted />
    </div>
  );
}

/**
 * The diff component's sideways-scrolling boxes take no props of their own: each one it renders (now or when a
 * page is filled in later) gets a tab stop and a name here, so a keyboard can scroll a long line into view.
 */
function KeyboardScroll({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const mark = () => {
      for (const box of el.querySelectorAll<HTMLElement>('.diff-table-scroll-container:not([tabindex])')) {
        const side = box.classList.contains('old-diff-table-wrapper') ? ' (old side)' : box.classList.contains('new-diff-table-wrapper') ? ' (new side)' : '';
        box.tabIndex = 0;
        box.setAttribute('role', 'region');
        box.setAttribute('aria-label', `${label}${side}`);
      }
    };
    mark();
    const mo = new MutationObserver(mark);
    mo.observe(el, { childList: true, subtree: true });
    return () => mo.disconnect();
  }, [label]);
  return <div ref={ref}>{children}</div>;
}

/** One file of a teammate's changes: header (status, counts, where, viewed), then its diff or why there is none. */
export function FileDiff({ agent, file, split, wrap }: { agent: string; file: FileChangeView; split: boolean; wrap: boolean }) {
  const key = `${agent}\0${file.source}\0${file.path}`;
  const viewedSig = useDashboard((s) => s.viewed[key]);
  const markViewed = useDashboard((s) => s.markViewed);
  const allComments = useDashboard((s) => s.comments[agent]);
  const viewed = viewedSig === file.sig;
  const large = (file.added ?? 0) + (file.deleted ?? 0) > LARGE_FILE_LINES;
  const [open, setOpen] = useState(!viewed && !large);
  const [patch, setPatch] = useState<{ sig: string; text: string | null } | null>(null);
  useEffect(() => {
    if (viewedSig !== undefined && viewedSig !== file.sig) markViewed(key, null); // changed since: no longer viewed
  }, [viewedSig, file.sig, key, markViewed]);
  // A large file starts collapsed but its patch is fetched anyway (one file at a time is cheap for the
  // host): "Show" then only renders.
  useEffect(() => {
    if ((!open && !large) || file.binary || file.huge || patch?.sig === file.sig) return;
    let live = true;
    void act({ type: 'review_file', agent, path: file.path, source: file.source }).then((r) => {
      if (live && r) setPatch({ sig: file.sig, text: (r as { patch: string | null }).patch });
    });
    return () => {
      live = false;
    };
  }, [open, large, agent, file, patch?.sig]);
  const pages = useMemo(() => (open && patch?.text ? paginatePatch(patch.text, PAGE_LINES, FIRST_PAGE_LINES) : []), [open, patch?.text]);
  const changed = (file.added ?? 0) + (file.deleted ?? 0);
  const comments = (allComments ?? []).filter((c) => c.path === file.path && !c.gone);
  const extend: Record<string, { data: ReviewCommentView[] }> = {};
  for (const c of comments.filter(onLine)) (extend[String(c.line)] ??= { data: [] }).data.push(c);
  const earlier = comments.filter((c) => !onLine(c));
  // A file with one side only (added, deleted) reads as one column: side by side would leave half of it empty.
  const mode = split && file.status !== 'added' && file.status !== 'deleted' ? DiffModeEnum.Split : DiffModeEnum.Unified;
  // Each page's comment-form store, so a tap on a line (no hover on a phone) opens the form the "+" opens.
  const widgets = useRef<Array<WidgetStore | undefined>>([]);
  const counts = file.huge ? `huge file (${file.size ?? '?'} bytes): not shown` : file.binary ? 'binary' : `+${file.added ?? 0} −${file.deleted ?? 0}`;
  return (
    <div className={`review-file${viewed ? ' viewed' : ''}`} data-path={file.path} data-source={file.source} id={`f-${encodeURIComponent(key)}`}>
      <div className="review-file-head">
        <button className="review-toggle" onClick={() => setOpen(!open)} aria-label={open ? 'collapse' : 'expand'}>
          {open ? '▾' : '▸'}
        </button>
        <span className={`review-status s-${file.status}`}>{LETTER[file.status]}</span>
        <span className="review-path">{file.old_path ? `${file.old_path} → ${file.path}` : file.path}</span>
        <span className={`review-source src-${file.source}`}>{file.source}</span>
        <span className="review-counts">{counts}</span>
        {comments.length > 0 && <span className="review-ncomments">{comments.length} comment{comments.length === 1 ? "" : "s"}</span>}
        <label className="review-viewed">
          <input type="checkbox" checked={viewed} onChange={(e) => { markViewed(key, e.target.checked ? file.sig : null); if (e.target.checked) setOpen(false); }} />
          viewed
        </label>
      </div>
      <EarlierComments agent={agent} comments={earlier} title="Comments whose lines changed since (or resolved), with the lines they were written about" />
      {open && !file.binary && !file.huge && (
        <div className="review-file-body">
          {!patch ? (
            <div className="review-loading">loading…</div>
          ) : patch.text === null ? (
            <div className="review-empty">too large to show</div>
          ) : (
            pages.map((page, i) => {
              const view = (
                <DiffView<ReviewCommentView[]>
                  data={{ oldFile: { fileName: file.old_path ?? file.path, fileLang: langOf(file.path) }, newFile: { fileName: file.path, fileLang: langOf(file.path) }, hunks: [page.text] }}
                  diffViewMode={mode}
                  diffViewHighlight={changed <= HIGHLIGHT_MAX_LINES}
                  diffViewWrap={wrap}
                  diffViewTheme="dark"
                  diffViewFontSize={12}
                  diffViewAddWidget={file.status !== 'deleted'}
                  onAddWidgetClick={() => undefined}
                  onCreateUseWidgetHook={(w) => (widgets.current[i] = w)}
                  renderWidgetLine={({ lineNumber, side, onClose }) => (side === SplitSide.new ? <CommentForm agent={agent} file={file} line={lineNumber} onClose={onClose} /> : <div className="review-empty">comment on the new side (the teammate's version)</div>)}
                  extendData={{ newFile: extend }}
                  renderExtendLine={({ data }) => <CommentBox agent={agent} comments={data} />}
                />
              );
              const open = (e: MouseEvent<HTMLDivElement>) => {
                const at = file.status !== 'deleted' && opensComment(e.target as Element, (e.nativeEvent as PointerEvent).pointerType) ? lineAt(e.target as Element) : null;
                if (at) widgets.current[i]?.getReadonlyState().setWidget({ side: at.side, lineNumber: at.line });
              };
              const boxed = (
                <div className="review-diff-lines" onClick={open}>
                  <KeyboardScroll label={`diff of ${file.path}${pages.length > 1 ? `, part ${i + 1}` : ''}`}>{view}</KeyboardScroll>
                </div>
              );
              return i === 0 ? <div key={i}>{boxed}</div> : <NearScreen key={i} estimate={(page.lines + 1) * ROW_PX}>{boxed}</NearScreen>;
            })
          )}
        </div>
      )}
      {!open && large && !viewed && !file.binary && !file.huge && (
        <div className="review-large">
          Large diff ({changed.toLocaleString('en')} lines) collapsed.{' '}
          <button className="review-show" onClick={() => setOpen(true)}>
            Show
          </button>
        </div>
      )}
    </div>
  );
}
