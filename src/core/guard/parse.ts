/**
 * Shell parsing with mvdan-sh (the GopherJS build of mvdan.cc/sh): synchronous, so the guard stays a
 * pure sync function. Flattens the syntax tree into every simple command anywhere in the input
 * (sequences, pipelines, subshells, groups, functions, substitutions) plus every redirect.
 */
import { createRequire } from 'node:module';
import type { ShNode, ShSyntax } from 'mvdan-sh';
import { WordBuilder, ansiC, type Word, unescapeDouble } from './words.js';

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

interface OpCodes {
  pipe: Set<number>;
  write: Set<number>;
  read: Set<number>;
  dup: Set<number>;
  heredoc: Set<number>;
  herestring: number;
}
let opCodes: OpCodes | null = null;
/** Operator numbers are internal to mvdan/sh, so learn them from samples instead of hard-coding. */
function ops(): OpCodes {
  if (opCodes) return opCodes;
  const parser = sh().NewParser();
  const first = (src: string): ShNode => stmts(parser.Parse(src, ''))[0] as ShNode;
  const binOp = (src: string) => (first(src).Cmd as ShNode).Op as number;
  const rdOp = (src: string) => (list<ShNode>(first(src).Redirs)[0] as ShNode).Op as number;
  opCodes = {
    pipe: new Set([binOp('a | b'), binOp('a |& b')]),
    write: new Set(['a > b', 'a >> b', 'a >| b', 'a <> b', 'a &> b', 'a &>> b'].map(rdOp)),
    read: new Set([rdOp('a < b')]),
    dup: new Set([rdOp('a >& b'), rdOp('a <& b')]),
    heredoc: new Set([rdOp('a <<E\nx\nE\n'), rdOp('a <<-E\nx\nE\n')]),
    herestring: rdOp('a <<< b'),
  };
  return opCodes;
}

function list<T>(v: unknown): T[] {
  return Array.isArray(v) ? (v as T[]) : [];
}
function stmts(file: ShNode): ShNode[] {
  return list<ShNode>(file.Stmts);
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
  of(node: ShNode): string {
    return this.slice(node.Pos().Offset(), node.End().Offset());
  }
}

function substBody(node: ShNode, src: Source): string {
  const raw = src.of(node);
  return node.Backquotes ? raw.slice(1, -1) : raw.slice(2, -1);
}

function addParts(b: WordBuilder, parts: ShNode[], quoted: boolean, src: Source): void {
  const s = sh();
  for (const part of parts) {
    switch (s.NodeType(part)) {
      case 'Lit':
        if (quoted) b.addStatic(unescapeDouble(String(part.Value)));
        else b.addUnquotedLit(String(part.Value));
        break;
      case 'SglQuoted':
        b.addStatic(part.Dollar ? ansiC(String(part.Value)) : String(part.Value));
        break;
      case 'DblQuoted':
        addParts(b, list<ShNode>(part.Parts), true, src);
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

function toWord(node: ShNode, src: Source, quoted = false): Word {
  const b = new WordBuilder();
  addParts(b, list<ShNode>(node.Parts), quoted, src);
  return b.build(src.of(node));
}

function toRedirect(r: ShNode, src: Source): Redirect {
  const o = ops();
  const op = r.Op as number;
  const word = r.Word ? toWord(r.Word as ShNode, src) : null;
  if (o.heredoc.has(op)) return { kind: 'heredoc', target: null, body: r.Hdoc ? toWord(r.Hdoc as ShNode, src, true) : null };
  if (op === o.herestring) return { kind: 'herestring', target: null, body: word };
  if (o.dup.has(op)) {
    // `2>&1`, `>&-` duplicate descriptors; `>&file` (bash) writes a file.
    const fdLike = word !== null && !word.dynamic && /^(\d+-?|-)$/.test(word.text);
    return { kind: fdLike ? 'dup' : 'write', target: fdLike ? null : word, body: null };
  }
  return { kind: o.write.has(op) ? 'write' : 'read', target: word, body: null };
}

function key(node: ShNode): string {
  return `${node.Pos().Offset()}:${node.End().Offset()}`;
}

/** Parses `src`; throws ShellParseError on invalid syntax. */
export function parseScript(src: string): Script {
  const s = sh();
  let file: ShNode;
  try {
    file = s.NewParser().Parse(src, '');
  } catch (err) {
    const e = err as { Error?: () => string; message?: string };
    const msg = typeof e.Error === 'function' ? e.Error() : (e.message ?? String(err));
    throw new ShellParseError(msg.replace(/^:/, ''));
  }
  const source = new Source(src);
  const o = ops();
  const statements: ShNode[] = [];
  const pipes: Array<[producer: ShNode, consumer: ShNode]> = [];
  s.Walk(file, (node) => {
    if (!node) return true;
    const t = s.NodeType(node);
    if (t === 'Stmt') statements.push(node);
    else if (t === 'BinaryCmd' && o.pipe.has(node.Op as number)) {
      let producer = node.X as ShNode;
      // `a | b | c` nests to the left: the producer for c is the last stage of `a | b`.
      for (;;) {
        const inner = producer.Cmd as ShNode;
        if (s.NodeType(inner) !== 'BinaryCmd' || !o.pipe.has(inner.Op as number)) break;
        producer = inner.Y as ShNode;
      }
      pipes.push([producer, node.Y as ShNode]);
    }
    return true;
  });

  const byStmt = new Map<string, SimpleCommand>();
  const commands: SimpleCommand[] = [];
  const redirects: Redirect[] = [];
  for (const st of statements) {
    const rds = list<ShNode>(st.Redirs).map((r) => toRedirect(r, source));
    redirects.push(...rds);
    const cmd = st.Cmd as ShNode | null;
    if (!cmd || s.NodeType(cmd) !== 'CallExpr') continue;
    const args = list<ShNode>(cmd.Args).map((w) => toWord(w, source));
    if (args.length === 0) continue; // assignments only; substitutions inside were walked
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
