#!/usr/bin/env node
// The code's shape, measured: the figures issue 32 ("Systems as modules") set aims
// for, printed next to them. `npm run bench` prints them too; `node scripts/shape.mjs
// --json` gives them as one object.
//
//   - references to a specific system outside core/systems/ (the registry is inside);
//   - Queue's public methods (counted from core/queue/queue.h's public sections);
//   - production source files (core/, wasm/, web/src/) over 800 lines;
//   - functions over 80 lines, and the longest (C++ by brace matching over text with
//     comments and literals blanked; JS through TypeScript's parser).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function walk(dir, keep, out = []) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'gen' && name !== 'node_modules') walk(full, keep, out);
    } else if (keep(name)) {
      out.push(full);
    }
  }
  return out;
}

const rel = (file) => path.relative(root, file);
const lineCount = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** C++ text with comments, string and character literals replaced by spaces (newlines kept). */
export function blankCpp(text) {
  let out = '';
  let i = 0;
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === 'R' && next === '"' && !/[A-Za-z0-9_]/.test(text[i - 1] ?? '')) {
      const open = text.indexOf('(', i);
      const delimiter = text.slice(i + 2, open);
      const end = text.indexOf(`)${delimiter}"`, open);
      const stop = end < 0 ? text.length : end + delimiter.length + 2;
      out += blank(text.slice(i, stop));
      i = stop;
    } else if (c === '"' || (c === "'" && !/[0-9A-Fa-f]/.test(text[i - 1] ?? ''))) {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += blank(text.slice(i, j + 1));
      i = j + 1;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

const NOT_A_FUNCTION = /^\s*(?:template\s*<[^>]*>\s*)?(?:class|struct|union|enum|namespace|extern\s+"C")\b/;

/**
 * The function bodies of a C++ file: each `{` opened outside any function whose header
 * (the text since the last `;`, `{` or `}` at that level) has a parameter list and is not
 * a class, namespace, enum or an initialiser (`= {`).
 */
export function cppFunctions(text) {
  const code = blankCpp(text).replace(/^[ \t]*#.*$/gm, (line) => ' '.repeat(line.length));
  const functions = [];
  const stack = [];  // for each open brace: 'function' | 'scope'
  let headerStart = 0;
  let inFunction = 0;
  for (let i = 0; i < code.length; i += 1) {
    const c = code[i];
    if (c === '{') {
      if (inFunction > 0) {
        stack.push('inner');
        inFunction += 1;
        continue;
      }
      const header = code.slice(headerStart, i);
      const isFunction = header.includes('(') && !NOT_A_FUNCTION.test(header) && !/=\s*$/.test(header) &&
        !/\)\s*=\s*[^{]*$/.test(header.replace(/\)\s*->/, ')'));
      if (isFunction) {
        const nameMatch = header.match(/([~A-Za-z_][\w:<>~]*(?:operator\s*[^\s(]+)?)\s*\(/);
        const startLine = code.slice(0, headerStart + header.search(/\S/)).split('\n').length;
        stack.push({ name: nameMatch ? nameMatch[1] : '(anonymous)', startLine });
        inFunction = 1;
      } else {
        stack.push('scope');
      }
      headerStart = i + 1;
    } else if (c === '}') {
      const top = stack.pop();
      if (inFunction > 0) {
        inFunction -= 1;
        if (inFunction === 0 && typeof top === 'object') {
          const endLine = code.slice(0, i).split('\n').length;
          functions.push({ name: top.name, lines: endLine - top.startLine + 1, line: top.startLine });
        }
      }
      if (inFunction === 0) headerStart = i + 1;
    } else if (c === ';' && inFunction === 0) {
      headerStart = i + 1;
    } else if (c === ':' && inFunction === 0 && /\b(?:public|private|protected)\s*$/.test(code.slice(headerStart, i))) {
      headerStart = i + 1;
    }
  }
  return functions;
}

/** The functions of a JS module, each with its own span (nested ones counted inside their parents too). */
export function jsFunctions(text, file) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const functions = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const end = source.getLineAndCharacterOfPosition(node.end).line + 1;
      const name = node.name?.getText(source) ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : '(anonymous)');
      functions.push({ name, lines: end - start + 1, line: start });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return functions;
}

/** Queue's public member functions, from the public sections of `class Queue` in queue.h. */
export function queuePublicMethods(header) {
  const code = blankCpp(header);
  const start = code.search(/\bclass\s+Queue\b[^;]*\{/);
  if (start < 0) return [];
  let depth = 0;
  let access = 'private';
  let statement = '';
  const methods = [];
  for (let i = code.indexOf('{', start); i < code.length; i += 1) {
    const c = code[i];
    if (c === '{') {
      depth += 1;
      if (depth === 2 && access === 'public' && /\(/.test(statement)) methods.push(statement);
      if (depth >= 2) statement = '';
      continue;
    }
    if (c === '}') {
      depth -= 1;
      if (depth === 0) break;
      if (depth === 1) statement = '';
      continue;
    }
    if (depth !== 1) continue;
    statement += c;
    const label = statement.match(/^\s*(public|private|protected)\s*:\s*$/);
    if (label) {
      access = label[1];
      statement = '';
    } else if (c === ';') {
      if (access === 'public' && /\(/.test(statement) && !/^\s*(?:using|friend|static_assert|enum|struct|class)\b/.test(statement) &&
          !/=\s*(?:delete|default)\s*;$/.test(statement.trim()) || (access === 'public' && /=\s*default\s*;$/.test(statement.trim()) && false)) {
        methods.push(statement);
      }
      statement = '';
    }
  }
  return methods.map((m) => m.replace(/\s+/g, ' ').trim()).filter((m) => !/^(?:explicit\s+)?Queue\s*\(|^~Queue|operator=/.test(m));
}

const SYSTEM_REFERENCE = /System::k(?:RabbitMqQuorum|BullMq|Sidekiq|Sqs|Lab)\b/g;
// The system column (data, not a branch): the field table's OnlyUnder(System::k…)
// rows in core/policy/schema.cpp (which fields a system owns) and the Policy's
// default member in core/policy/policy.h (System system = System::kLab;).
function isSystemColumn(file, code, index) {
  const end = code.indexOf('\n', index);
  const line = code.slice(code.lastIndexOf('\n', index) + 1, end < 0 ? code.length : end);
  if (file === 'core/policy/schema.cpp') return /OnlyUnder\(\s*$/.test(code.slice(Math.max(0, index - 40), index));
  if (file === 'core/policy/policy.h') return /^\s*System\s+system\s*=\s*System::kLab\s*;/.test(line);
  return false;
}
const JS_SYSTEM_REFERENCE = /(['"])(?:rabbitmq-quorum|bullmq|sidekiq|sqs)\1/g;

export function measure() {
  const cpp = [...walk(path.join(root, 'core'), (n) => /\.(?:h|cpp)$/.test(n)),
    ...walk(path.join(root, 'wasm'), (n) => /\.(?:h|cpp)$/.test(n))];
  const js = [...walk(path.join(root, 'wasm'), (n) => n.endsWith('.mjs')), ...walk(path.join(root, 'web', 'src'), (n) => n.endsWith('.mjs'))];
  const dts = path.join(root, 'wasm', 'index.d.ts');
  const dtsText = readFileSync(dts, 'utf8');
  const dtsGenerated = /generated/i.test(dtsText.split('\n').slice(0, 15).join('\n'));

  const systemRefs = [];
  const systemColumn = [];
  for (const file of cpp) {
    if (rel(file).startsWith('core/systems/')) continue;
    const code = blankCpp(readFileSync(file, 'utf8'));
    for (const m of code.matchAll(SYSTEM_REFERENCE)) {
      const where = `${rel(file)}:${code.slice(0, m.index).split('\n').length}`;
      (isSystemColumn(rel(file), code, m.index) ? systemColumn : systemRefs).push(where);
    }
  }
  const jsSystemRefs = [];
  for (const file of js) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const visit = (node) => {
      if (ts.isBinaryExpression(node) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken,
        ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(node.operatorToken.kind) &&
        JS_SYSTEM_REFERENCE.test(node.getText(source))) {
        jsSystemRefs.push(`${rel(file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
      }
      JS_SYSTEM_REFERENCE.lastIndex = 0;
      if (ts.isCaseClause(node) && JS_SYSTEM_REFERENCE.test(node.expression.getText(source))) {
        jsSystemRefs.push(`${rel(file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
      }
      JS_SYSTEM_REFERENCE.lastIndex = 0;
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  const files = [...cpp, ...js, ...(dtsGenerated ? [] : [dts])];
  const longFiles = files.map((f) => ({ file: rel(f), lines: lineCount(readFileSync(f, 'utf8')) }))
    .filter((f) => f.lines > 800).sort((a, b) => b.lines - a.lines);
  const functions = [
    ...cpp.flatMap((f) => cppFunctions(readFileSync(f, 'utf8')).map((fn) => ({ ...fn, file: rel(f) }))),
    ...js.flatMap((f) => jsFunctions(readFileSync(f, 'utf8'), f).map((fn) => ({ ...fn, file: rel(f) }))),
  ].sort((a, b) => b.lines - a.lines);
  const longFunctions = functions.filter((f) => f.lines > 80);
  const queueMethods = queuePublicMethods(readFileSync(path.join(root, 'core', 'queue', 'queue.h'), 'utf8'));
  const queueIncludes = (readFileSync(path.join(root, 'core', 'queue', 'queue.h'), 'utf8').match(/^#include\s+"/gm) ?? []).length;
  return {
    systemRefs, systemColumn, jsSystemRefs, longFiles, longFunctions, longest: functions[0],
    queuePublicMethods: queueMethods.length, queueMethodList: queueMethods, queueIncludes, dtsGenerated,
  };
}

export function printShape(m = measure(), say = console.log) {
  const row = (what, value, aim) => say(`  ${what.padEnd(58)} ${String(value).padStart(8)}   aim ${aim}`);
  say('shape (issue 32: systems as modules)');
  row('system references outside core/systems/ (C++)', m.systemRefs.length, '0');
  row('system column outside core/systems/ (data, not branches)', m.systemColumn.length, 'data');
  row('system comparisons in JS (=== \'bullmq\' …)', m.jsSystemRefs.length, '0');
  row('Queue public methods (queue.h)', m.queuePublicMethods, '≤ ~25');
  row('project headers queue.h includes', m.queueIncludes, 'what its declarations need');
  row('production files over 800 lines', m.longFiles.length, '0');
  row('functions over 80 lines', m.longFunctions.length, '0');
  row(`longest function (${m.longest.file}:${m.longest.line} ${m.longest.name})`, m.longest.lines, '< 120');
  row('wasm/index.d.ts generated from the tables', m.dtsGenerated ? 'yes' : 'no', 'yes');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const m = measure();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(m, null, 2));
  } else {
    printShape(m);
    if (process.argv.includes('--list')) {
      for (const r of m.systemRefs) console.log(`  system ref  ${r}`);
      for (const r of m.systemColumn) console.log(`  system col  ${r}`);
      for (const r of m.jsSystemRefs) console.log(`  js system   ${r}`);
      for (const f of m.longFiles) console.log(`  long file   ${f.file} ${f.lines}`);
      for (const f of m.longFunctions) console.log(`  long fn     ${f.file}:${f.line} ${f.name} ${f.lines}`);
    }
  }
}
