/**
 * Shell parsing with mvdan-sh (the GopherJS build of mvdan.cc/sh): synchronous, so the guard stays a
 * pure sync function. Flattens the syntax tree into every simple command anywhere in the input
 * (sequences, pipelines, subshells, groups, functions, substitutions) plus every redirect.
 */
import { createRequire } from 'node:module';
import type { ShNode, ShParser, ShSyntax } from 'mvdan-sh';
import { WordBuilder, ansiC, expandBraces, fold, literalWord, type Word, unescapeDouble } from './words.js';

export type RedirectKind = 'write' | 'read' | 'dup' | 'heredoc' | 'herestring';

export interface Redirect {
  kind: RedirectKind;
  /** `>&word` writes to a file when word is not a descriptor number. */
  target: Word | null;
  /** Heredoc / here-string text. */
  body: Word | null;
}

/** Where a command's standard input comes from, when that matters (it may be a script). */
export type Stdin = { kind: 'text'; word: Word } | { kind: 'pipe'; from: SimpleCommand | null };

export interface SimpleCommand {
  args: Word[];
  redirects: Redirect[];
  stdin: Stdin | null;
  raw: string;
}

export interface Script {
  commands: SimpleCommand[];
  /** Every redirect in the input, including those on subshells, groups and loops. */
  redirects: Redirect[];
}

export class ShellParseError extends Error {}

let syntax: ShSyntax | null = null;
/** Loaded on first use: evaluating the 1.5 MB GopherJS module costs ~90 ms of CLI start-up otherwise. */
function sh(): ShSyntax {
  if (!syntax) {
    const req = createRequire(import.meta.url);
    syntax = (req('mvdan-sh') as { syntax: ShSyntax }).syntax;
  }
  return syntax;
}

/**
 * A Go value inside the GopherJS build. The public wrapper objects resolve every field access and
 * NodeType() through reflection (~0.1–0.3 ms each), so the guard reads the internal Go structs: field
 * names are the Go ones, slices are {$array,$offset,$length}, nil pointers equal `constructor.nil`.
 */
interface GoNode {
  readonly [field: string]: unknown;
  Pos(): { Offset(): number };
  End(): { Offset(): number };
}
interface GoSlice {
  $array: unknown[];
  $offset: number;
  $length: number;
}

/** Go strings are UTF-8 bytes held one per JS char: decode them. */
function str(v: unknown): string {
  const s = String(v);
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(s) ? s : Buffer.from(s, 'latin1').toString('utf8');
}

function typeOf(n: unknown): string {
  const c = (n as { constructor?: { string?: string; nil?: unknown } } | null)?.constructor;
  if (!c || typeof c.string !== 'string' || n === c.nil) return '';
  return c.string.startsWith('*syntax.') ? c.string.slice(8) : '';
}
function node(v: unknown): GoNode | null {
  return typeOf(v) ? (v as GoNode) : null;
}
function list(v: unknown): GoNode[] {
  const sl = v as GoSlice | null;
  if (!sl || !Array.isArray(sl.$array) || sl.$length === 0) return [];
  return sl.$array.slice(sl.$offset, sl.$offset + sl.$length) as GoNode[];
}

interface OpCodes {
  pipe: Set<number>;
  write: Set<number>;
  dup: Set<number>;
  heredoc: Set<number>;
  herestring: number;
}
let opCodes: OpCodes | null = null;
/** Operator numbers are internal to mvdan/sh, so learn them from samples instead of hard-coding. */
function ops(): OpCodes {
  if (opCodes) return opCodes;
  const first = (src: string): GoNode => list(parseFile(src).Stmts)[0] as GoNode;
  const binOp = (src: string) => (first(src).Cmd as GoNode).Op as number;
  const rdOp = (src: string) => (list(first(src).Redirs)[0] as GoNode).Op as number;
  opCodes = {
    pipe: new Set([binOp('a | b'), binOp('a |& b')]),
    write: new Set(['a > b', 'a >> b', 'a >| b', 'a <> b', 'a &> b', 'a &>> b'].map(rdOp)),
    dup: new Set([rdOp('a >& b'), rdOp('a <& b')]),
    heredoc: new Set([rdOp('a <<E\nx\nE\n'), rdOp('a <<-E\nx\nE\n')]),
    herestring: rdOp('a <<< b'),
  };
  return opCodes;
}

let parser: ShParser | null = null;
/** The parser's node allocation slabs (Go slices), which its reset() keeps from one Parse to the next. */
const BATCHES = ['litBatch', 'wordBatch', 'wpsBatch', 'stmtBatch', 'stListBatch', 'callBatch'] as const;

/**
 * A reused parser hands out nodes from slabs that still hold the previous trees' nodes, and those
 * reach older slabs: every tree ever parsed stays reachable (measured ~6 KB per short command, without
 * bound). Dropping the slabs after each parse breaks the chain. If the internal layout is not the
 * expected one, use a fresh parser per parse instead (slower for short commands, same correctness).
 */
function releaseBatches(p: ShParser): boolean {
  const inner = ((p as unknown as { __internal_object__?: { Parser?: Record<string, unknown> } }).__internal_object__?.Parser) ?? null;
  if (!inner) return false;
  for (const k of BATCHES) {
    const nil = (inner[k] as { constructor?: { nil?: unknown } } | undefined)?.constructor?.nil;
    if (nil === undefined) return false;
    inner[k] = nil;
  }
  return true;
}

function parseFile(src: string): GoNode {
  let file: ShNode;
  try {
    // Parses never overlap (the guard is synchronous), so one parser serves them all.
    parser ??= sh().NewParser();
    const p = parser;
    try {
      file = p.Parse(src, '');
    } finally {
      if (!releaseBatches(p)) parser = null;
    }
  } catch (err) {
    const e = err as { Error?: () => string; message?: string };
    const msg = typeof e.Error === 'function' ? e.Error() : (e.message ?? String(err));
    throw new ShellParseError(msg.replace(/^:/, ''));
  }
  return file.__internal_object__ as GoNode;
}

/** Slices source by mvdan's byte offsets (they differ from string indices once non-ASCII appears). */
class Source {
  private readonly bytes: Buffer | null;
  constructor(private readonly src: string) {
    // eslint-disable-next-line no-control-regex
    this.bytes = /^[\x00-\x7f]*$/.test(src) ? null : Buffer.from(src, 'utf8');
  }
  slice(from: number, to: number): string {
    return this.bytes ? this.bytes.subarray(from, to).toString('utf8') : this.src.slice(from, to);
  }
  of(n: GoNode): string {
    return this.slice(n.Pos().Offset(), n.End().Offset());
  }
}

function substBody(n: GoNode, src: Source): string {
  const raw = src.of(n);
  return n.Backquotes ? raw.slice(1, -1) : raw.slice(2, -1);
}

function addParts(b: WordBuilder, parts: GoNode[], quoted: boolean, src: Source): void {
  for (const part of parts) {
    switch (typeOf(part)) {
      case 'Lit':
        if (quoted) b.addStatic(unescapeDouble(str(part.Value)));
        else b.addUnquotedLit(str(part.Value));
        break;
      case 'SglQuoted':
        b.addStatic(part.Dollar ? ansiC(str(part.Value)) : str(part.Value));
        break;
      case 'DblQuoted':
        addParts(b, list(part.Parts), true, src);
        break;
      case 'CmdSubst':
        b.addSubst(substBody(part, src));
        break;
      case 'ExtGlob':
        b.glob = true;
        b.addStatic(src.of(part));
        break;
      default: // ParamExp, ArithmExp, ProcSubst, BraceExp: value unknown until run time
        b.markDynamic();
    }
  }
}

function toWord(n: GoNode, src: Source, quoted = false): Word {
  const b = new WordBuilder();
  addParts(b, list(n.Parts), quoted, src);
  return b.build(src.of(n));
}

function toRedirect(r: GoNode, src: Source): Redirect {
  const o = ops();
  const op = r.Op as number;
  const w = node(r.Word);
  const word = w ? toWord(w, src) : null;
  if (o.heredoc.has(op)) {
    const body = node(r.Hdoc);
    return { kind: 'heredoc', target: null, body: body ? toWord(body, src, true) : null };
  }
  if (op === o.herestring) return { kind: 'herestring', target: null, body: word };
  if (o.dup.has(op)) {
    // `2>&1`, `>&-` duplicate descriptors; `>&file` (bash) writes a file.
    const fdLike = word !== null && !word.dynamic && /^(\d+-?|-)$/.test(word.text);
    return { kind: fdLike ? 'dup' : 'write', target: fdLike ? null : word, body: null };
  }
  return { kind: o.write.has(op) ? 'write' : 'read', target: word, body: null };
}

interface Collected {
  statements: GoNode[];
  pipes: Array<[producer: GoNode, consumer: GoNode]>;
}

/** Finds every statement and pipe: hand-written for the common nodes, reflective for the rare ones. */
function collect(file: GoNode): Collected {
  const o = ops();
  const out: Collected = { statements: [], pipes: [] };
  const pipe = (n: GoNode): void => {
    let producer = n.X as GoNode;
    // `a | b | c` nests to the left: the producer for c is the last stage of `a | b`.
    for (;;) {
      const inner = node(producer.Cmd);
      if (!inner || typeOf(inner) !== 'BinaryCmd' || !o.pipe.has(inner.Op as number)) break;
      producer = inner.Y as GoNode;
    }
    out.pipes.push([producer, n.Y as GoNode]);
  };
  /** Any node: visits every syntax node below it (tests, arithmetic, parameter operations). */
  const generic = (v: unknown, depth = 0): void => {
    if (depth > 200 || v === null || typeof v !== 'object') return;
    if (Array.isArray((v as GoSlice).$array)) {
      for (const x of list(v)) generic(x, depth + 1);
      return;
    }
    const t = typeOf(v);
    if (!t) return;
    const n = v as GoNode;
    if (t === 'Stmt') return stmt(n);
    if (t === 'Word') return word(n);
    for (const k of Object.keys(n)) if (k !== '$val') generic(n[k], depth + 1);
  };
  const words = (ws: unknown): void => list(ws).forEach(word);
  const stmts = (ss: unknown): void => list(ss).forEach(stmt);
  function word(w: GoNode | null): void {
    if (!w) return;
    for (const part of list(w.Parts)) {
      switch (typeOf(part)) {
        case 'Lit':
        case 'SglQuoted':
        case 'ExtGlob':
        case 'BraceExp':
          break;
        case 'DblQuoted':
          word(part);
          break;
        case 'CmdSubst':
        case 'ProcSubst':
          stmts(part.Stmts);
          break;
        default:
          generic(part);
      }
    }
  }
  function assigns(as: unknown): void {
    for (const a of list(as)) {
      if (node(a.Array) || node(a.Index)) generic(a);
      else word(node(a.Value));
    }
  }
  function ifClause(c: GoNode | null): void {
    if (!c) return;
    stmts(c.Cond);
    stmts(c.Then);
    ifClause(node(c.Else));
  }
  function stmt(st: GoNode | null): void {
    if (!st) return;
    out.statements.push(st);
    for (const r of list(st.Redirs)) {
      word(node(r.Word));
      word(node(r.Hdoc));
    }
    const cmd = node(st.Cmd);
    if (!cmd) return;
    switch (typeOf(cmd)) {
      case 'CallExpr':
        assigns(cmd.Assigns);
        words(cmd.Args);
        break;
      case 'BinaryCmd':
        if (o.pipe.has(cmd.Op as number)) pipe(cmd);
        stmt(node(cmd.X));
        stmt(node(cmd.Y));
        break;
      case 'Subshell':
      case 'Block':
        stmts(cmd.Stmts);
        break;
      case 'IfClause':
        ifClause(cmd);
        break;
      case 'WhileClause':
        stmts(cmd.Cond);
        stmts(cmd.Do);
        break;
      case 'FuncDecl':
        stmt(node(cmd.Body));
        break;
      case 'TimeClause':
      case 'CoprocClause':
        stmt(node(cmd.Stmt));
        break;
      case 'DeclClause':
        assigns(cmd.Args);
        break;
      default: // ForClause, CaseClause, TestClause, ArithmCmd, LetClause
        generic(cmd);
    }
  }
  stmts(file.Stmts);
  return out;
}

function key(n: GoNode): string {
  return `${n.Pos().Offset()}:${n.End().Offset()}`;
}

/** Parses `src`; throws ShellParseError on invalid syntax. */
export function parseScript(src: string): Script {
  const file = parseFile(src);
  const source = new Source(src);
  const { statements, pipes } = collect(file);
  const byStmt = new Map<string, SimpleCommand>();
  const commands: SimpleCommand[] = [];
  const redirects: Redirect[] = [];
  for (const st of statements) {
    const rds = list(st.Redirs).map((r) => toRedirect(r, source));
    redirects.push(...rds);
    const cmd = node(st.Cmd);
    if (!cmd || typeOf(cmd) !== 'CallExpr') continue;
    // Brace lists of plain characters expand before anything else runs: `{rm,-rf,src}` is `rm -rf src`.
    const args = list(cmd.Args).flatMap((w) => {
      const word = toWord(w, source);
      const expanded = word.dynamic && !word.cmdSubst ? expandBraces(word.raw) : null;
      return expanded ? expanded.map((t) => ({ ...literalWord(fold(t)), raw: word.raw, glob: /[*?[]/.test(t) })) : [word];
    });
    if (args.length === 0) continue; // assignments only; substitutions inside were collected
    const textIn = rds.find((r) => r.kind === 'heredoc' || r.kind === 'herestring');
    const sc: SimpleCommand = {
      args,
      redirects: rds,
      stdin: textIn?.body ? { kind: 'text', word: textIn.body } : null,
      raw: source.of(st),
    };
    byStmt.set(key(st), sc);
    commands.push(sc);
  }
  for (const [producer, consumer] of pipes) {
    const c = byStmt.get(key(consumer));
    if (c && !c.stdin) c.stdin = { kind: 'pipe', from: byStmt.get(key(producer)) ?? null };
  }
  return { commands, redirects };
}
