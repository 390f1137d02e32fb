#!/usr/bin/env node
// Function sizes across the TypeScript tree: the longest functions (lines from declaration to closing
// brace) and each file's deepest block nesting (blocks counted from the file's top level, function
// bodies included). Used to show where complexity sits before and after a split.
// Usage: node scripts/function-sizes.js [--top N] [dir-or-file ...]   (default: the source dirs)
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const args = process.argv.slice(2);
let top = 5;
const roots = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--top") top = Number(args[++i]);
  else roots.push(args[i]);
}
if (roots.length === 0)
  roots.push("provider", "sdk/nodejs", "native", "emulator", "policy", "fleet", "docs/codegen", "tools/codegen");

function files(p) {
  const st = fs.statSync(p);
  if (st.isFile()) return p.endsWith(".ts") && !p.endsWith(".d.ts") ? [p] : [];
  return fs
    .readdirSync(p)
    .filter((n) => n !== "node_modules" && n !== "dist")
    .flatMap((n) => files(path.join(p, n)));
}

function nameOf(node, sf) {
  if (node.name) return node.name.getText(sf);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(sf);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  return "(anonymous)";
}

const functions = [];
const depths = [];
for (const file of roots.flatMap(files)) {
  const sf = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const line = (pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  let deepest = { depth: 0, line: 0 };
  const visit = (node, depth) => {
    const d = ts.isBlock(node) || ts.isCaseClause(node) || ts.isDefaultClause(node) ? depth + 1 : depth;
    if (d > deepest.depth) deepest = { depth: d, line: line(node.getStart(sf)) };
    if (ts.isFunctionLike(node) && node.body) {
      const start = line(node.getStart(sf));
      functions.push({ file, name: nameOf(node, sf), start, lines: line(node.end) - start + 1 });
    }
    ts.forEachChild(node, (c) => visit(c, d));
  };
  visit(sf, 0);
  depths.push({ file, ...deepest });
}

functions.sort((a, b) => b.lines - a.lines);
console.log(`longest functions (of ${functions.length}):`);
for (const f of functions.slice(0, top))
  console.log(`  ${String(f.lines).padStart(4)}  ${f.file}:${f.start} ${f.name}`);
depths.sort((a, b) => b.depth - a.depth);
console.log("deepest block nesting:");
for (const d of depths.slice(0, top)) console.log(`  ${String(d.depth).padStart(4)}  ${d.file}:${d.line}`);
