// A benchmark of this folder inside Pyodide, under Node: the eager engine against micrograd.replay's
// pure-Python replay where the browser site runs them (no numpy or torch there).
//
//     node benchmarks/pyodide.mjs pure_replay                   # ~20 s on the 2-core machine
//     node benchmarks/pyodide.mjs pure_replay --rounds 3 --workloads W
//     node benchmarks/pyodide.mjs gpt --rounds 2 --names 10     # ~3 minutes
//
// The first argument names the benchmark (pure_replay or gpt); the others go to its main().
// Pyodide is node_modules/pyodide (`npm ci`); src/micrograd is copied into Pyodide's file system
// at /home/pyodide/micrograd, and imported from there, as the site unpacks its wheel.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const { loadPyodide } = await import(join(ROOT, "node_modules/pyodide/pyodide.mjs"));

const start = performance.now();
const py = await loadPyodide({
  indexURL: join(ROOT, "node_modules/pyodide/"),
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});

function copyTree(from, to) {
  py.FS.mkdirTree(to);
  for (const name of readdirSync(from)) {
    if (name === "__pycache__") continue;
    const path = join(from, name);
    if (statSync(path).isDirectory()) copyTree(path, `${to}/${name}`);
    else py.FS.writeFile(`${to}/${name}`, readFileSync(path));
  }
}
copyTree(join(ROOT, "src/micrograd"), "/home/pyodide/micrograd");
const [bench, ...args] = process.argv.slice(2);
if (!["pure_replay", "gpt"].includes(bench)) {
  console.error("usage: node benchmarks/pyodide.mjs pure_replay|gpt [arguments of its main()]");
  process.exit(2);
}
for (const name of [`${bench}.py`, "worker.py"]) {
  py.FS.writeFile(`/home/pyodide/${name}`, readFileSync(join(HERE, name)));
}
console.log(`Pyodide ${py.version} loaded in ${((performance.now() - start) / 1000).toFixed(1)} s`);

py.globals.set("ARGS", py.toPy(args));
py.globals.set("BENCH", bench);
py.runPython(`
import importlib, sys
sys.path.insert(0, "/home/pyodide")
importlib.import_module(BENCH).main(list(ARGS))
`);
