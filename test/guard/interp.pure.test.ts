/**
 * Interpreter one-liners (interp.ts) in spellings the corpus does not use: which argv words carry code
 * (option clusters, values, digits glued to a letter), and the string folds that undo `'r'+'m'`.
 */
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import { foldStrings, interpreterKind } from '../../src/core/guard/interp.js';
import { leadCtx, teammateCtx } from './fixtures.js';

const lead = (cmd: string) => checkCommand('lead', cmd, leadCtx);
const RMTREE: Record<string, string> = {
  node: `"require('fs').rmSync('src',{recursive:true})"`,
  python3: `"import shutil; shutil.rmtree('src')"`,
  perl: `'rmtree("src")'`,
  ruby: `'FileUtils.rm_rf("src")'`,
};
const refusedAsTree = (cmd: string) => expect(lead(cmd), cmd).toMatchObject({ allowed: false, reason: expect.stringMatching(/delete a directory tree from an interpreter one-liner/) });

describe('interpreter names', () => {
  it('python and pypy with any version, node and its kin, perl, ruby, php, lua with a version', () => {
    const kinds = Object.fromEntries(['python', 'python3.11', 'pypy3', 'node', 'nodejs', 'bun', 'deno', 'perl', 'ruby', 'php', 'lua', 'lua5.4', 'pythonx', 'xpython', 'luajit', 'xlua', 'perl5', 'nodex'].map((n) => [n, interpreterKind(n)]));
    expect(kinds).toEqual({
      python: 'python', 'python3.11': 'python', pypy3: 'python', node: 'node', nodejs: 'node', bun: 'node', deno: 'node', perl: 'perl', ruby: 'ruby', php: 'php',
      lua: 'lua', 'lua5.4': 'lua', pythonx: null, xpython: null, luajit: null, xlua: null, perl5: null, nodex: null,
    });
  });
});

describe('where the code is in an interpreter argv', () => {
  it('node: eval, --eval=, --print, -pe, and -p followed by -e (the -e word is the code)', () => {
    for (const cmd of [`node eval ${RMTREE.node}`, `node --eval=${RMTREE.node}`, `node --print ${RMTREE.node}`, `node -pe ${RMTREE.node}`, `node -p -e ${RMTREE.node}`, `node -p -r x -e ${RMTREE.node}`])
      refusedAsTree(cmd);
  });

  it('code that starts with a dash is still code', () => {
    refusedAsTree(`node -e "-require('fs').rmSync('src',{recursive:true})"`);
    refusedAsTree(`python3 -c "-1 if 0 else __import__('shutil').rmtree('src')"`);
  });

  it('options that take a value skip it, glued or separate; flags before the code letter are read through', () => {
    for (const cmd of [`node -r x -e ${RMTREE.node}`, `node --import x -e ${RMTREE.node}`, `node --loader x -e ${RMTREE.node}`, `node --title x -e ${RMTREE.node}`,
      `node --input-type module -e ${RMTREE.node}`, `python3 -Bc ${RMTREE.python3}`, `python3 -Wignore -c ${RMTREE.python3}`, `python3 -c${RMTREE.python3}`,
      `perl -I lib -e ${RMTREE.perl}`, `perl -Ilib -e ${RMTREE.perl}`, `perl -e${RMTREE.perl}`, `ruby -I lib -e ${RMTREE.ruby}`, `php -d x=1 -r 'rmdir("src");'`])
      refusedAsTree(cmd);
  });

  it('perl -l and -0, ruby -W, -T and -0 take only digits, ruby -K one letter: the cluster goes on to -e', () => {
    for (const cmd of [`perl -le ${RMTREE.perl}`, `perl -l0e ${RMTREE.perl}`, `perl -0777e ${RMTREE.perl}`, `perl -0x1F -e ${RMTREE.perl}`, `ruby -We ${RMTREE.ruby}`, `ruby -W0e ${RMTREE.ruby}`, `ruby -T1e ${RMTREE.ruby}`, `ruby -Kue ${RMTREE.ruby}`])
      refusedAsTree(cmd);
    // `-0xe` is a record separator in hex (0x0e): the word after it is a script file, not code.
    expect(lead(`perl -0xe ${RMTREE.perl}`)).toEqual({ allowed: true });
    // Letters whose value is the rest of the cluster (`-M`, `-i`) end it.
    expect(lead(`perl -Mstrict -e 'print 1'`)).toEqual({ allowed: true });
  });

  it('python -m runs a module, but code given before it still runs', () => {
    expect(lead(`python3 -m shutil -c ${RMTREE.python3}`)).toEqual({ allowed: true });
    refusedAsTree(`python3 -c ${RMTREE.python3} -m x`);
  });

  it('a script file, `--` or `-` (stdin) ends the options: what follows is the script\'s', () => {
    for (const cmd of [`python3 x.py -c ${RMTREE.python3}`, `python3 - ${RMTREE.python3}`, `node -- -e ${RMTREE.node}`, 'node --eval', 'node -e'])
      expect(lead(cmd), cmd).toEqual({ allowed: true });
  });
});

describe('where the options end (what follows is the script\'s, or data)', () => {
  it('words that only look like code options are not: a long option with --eval inside, -I--eval, --print-x', () => {
    for (const cmd of [`node "--title=a--eval=require('fs').rmSync('src',{recursive:true})" x.js`, `perl -I--eval ${RMTREE.perl}`, `node --print-foo ${RMTREE.node}`,
      `perl x-y.pl -e ${RMTREE.perl}`, `python3 x.py ${RMTREE.python3}`, `deno eval "console.log(Deno.args)" ${RMTREE.node}`, `perl -Mfoo=e ${RMTREE.perl}`, `python3 -mshutil -c ${RMTREE.python3}`, `perl eval ${RMTREE.perl}`])
      expect(lead(cmd), cmd).toEqual({ allowed: true });
  });

  it('an option named like one that takes a value, but longer or inside a cluster, takes none', () => {
    for (const cmd of [`node --required -e ${RMTREE.node}`, `python3 -W--title -c ${RMTREE.python3}`, `node --no-warnings -e ${RMTREE.node}`, `perl -mstrict -e ${RMTREE.perl}`])
      refusedAsTree(cmd);
  });

  it('after one -e CODE the next word is read as an option again, even when the code has a dash in it', () => {
    refusedAsTree(`node -e 'console.log(1)' -e ${RMTREE.node}`);
    refusedAsTree(`node -e 'console.log(1-2)' -e ${RMTREE.node}`);
  });

  it('`-` reads the code from standard input; a script file does not', () => {
    refusedAsTree(`echo "import shutil; shutil.rmtree('src')" | python3 -`);
    refusedAsTree(`echo "require('fs').rmSync('src',{recursive:true})" | node`);
    expect(lead(`echo "import shutil; shutil.rmtree('src')" | python3 x.py`)).toEqual({ allowed: true });
  });
});

describe('strings folded before the check', () => {
  it('concatenation, adjacent literals, joins and character codes fold to one string', () => {
    const cases: Record<string, string> = {
      "'r'+'m'": '"rm"',
      "'r' 'm'": '"rm"',
      "'a' + \"b\" + 'c' + 'd' + 'e'": '"abcde"',
      "''.join(['r','m'])": '"rm"',
      '"" . join ( ( "r", "m" ) )': '"rm"',
      "[ 'r' , 'm' ] . join ( '' )": '"rm"',
      "['rm','tree'].join('')": '"rmtree"',
      "''.join(['rm','tree'])": '"rmtree"',
      'String.fromCharCode (114,109)': '"rm"',
      'chr( 114 ) + chr(109)': '"rm"',
      'String.fromCharCode( 114 ,109 )': '"rm"',
      "'r'+'m' x 'a'.join(['b'])": '"rm" x \'a\'.join([\'b\'])',
      "'a\\n'+'b'": "'a\\n'+'b'",
      'chr(0x72)': 'chr(0x72)',
    };
    for (const [code, folded] of Object.entries(cases)) expect(foldStrings(code), code).toBe(folded);
  });

  it('code longer than 16,000 characters is checked as written', () => {
    const at = `${'x'.repeat(16_000 - 7)}'a'+'b'`;
    expect(foldStrings(at).endsWith('"ab"')).toBe(true);
    expect(foldStrings(`y${at}`)).toBe(`y${at}`);
  });
});

describe('what the code does', () => {
  const tm = (cmd: string) => checkCommand('teammate', cmd, teammateCtx);

  it('the lead may write from code only when every path it names is scratch', () => {
    expect(lead(`python3 -c "open('/tmp/a.txt','w').write('x'); open('/tmp/b.txt','w').write('x')"`)).toEqual({ allowed: true });
    for (const cmd of [`python3 -c "open('/tmp/a.txt','w').write('x'); open('src/a.py','w').write('x')"`, `node -e "require('fs').writeFileSync(process.argv[1], 'x')"`])
      expect(lead(cmd), cmd).toMatchObject({ allowed: false, reason: expect.stringMatching(/write or delete files from an interpreter one-liner/) });
  });

  it('a teammate may write its own files from code, not another worktree named in it', () => {
    expect(tm(`python3 -c "open('src/a.py','w').write('x')"`)).toEqual({ allowed: true });
    expect(tm(`python3 -c "print('../bob/a.py')"`)).toEqual({ allowed: true });
    expect(tm(`python3 -c "open('../bob/a.py','w').write('x')"`)).toMatchObject({ allowed: false, reason: expect.stringMatching(/from interpreter code: write into another teammate's worktree \(\/ws\/\.worktrees\/bob\/a\.py\)/) });
  });

  it('a shell command inside code is checked as a line and as an argv; a string that is not shell is just a string', () => {
    expect(lead("node -e 'require(\"child_process\").execSync(`rm -rf src`)'").allowed).toBe(false);
    expect(lead(`python3 -c "import os; os.system('echo hi && rm -rf src')"`)).toMatchObject({ allowed: false, reason: expect.stringMatching(/recursively remove files \(from a shell command inside interpreter code\)/) });
    expect(lead(`python3 -c "import subprocess; subprocess.run(['echo', 'x', 'rm', '-rf', 'src'])"`).allowed).toBe(false);
    expect(lead(`python3 -c "import os; os.system('echo (')"`)).toEqual({ allowed: true });
  });

  it('code on standard input: a here-doc or a literal pipe is read, an unknown pipe only by its words', () => {
    expect(lead(`echo "import shutil; shutil.rmtree('src')" | python3`).allowed).toBe(false);
    expect(lead("python3 <<'EOF'\nprint(1)\nEOF")).toEqual({ allowed: true });
    expect(lead('cat x.py | python3')).toEqual({ allowed: true });
  });

  it('code built at run time passes unless the line carries a destructive verb; the next -e is still read', () => {
    expect(lead('node -e "$CODE"')).toEqual({ allowed: true });
    expect(lead(`node -e "$CODE" -e ${RMTREE.node}`).allowed).toBe(false);
  });
});
