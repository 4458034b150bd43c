// The page's Python: Pyodide, loaded from the site's own folder, with micrograd's wheel unpacked
// into it. One worker per page; the page sends {id, call, args} and gets {id, ok, value | error};
// while loading it also gets {progress: text}. Messages are handled one at a time, in order.
// A module worker: Pyodide 314 runs in module workers only.
import { loadPyodide } from "../../pyodide/pyodide.mjs";

const SITE = new URL("../../", import.meta.url); // this file is SITE/assets/site/worker.js

let python = null;
let helper = null;
let queue = Promise.resolve();

function progress(key, extra) {
  self.postMessage({ progress: key, extra: extra || null });
}

async function fetchOk(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r;
}

async function start(lang) {
  const t0 = performance.now();
  const manifest = await (await fetchOk(new URL("assets/site/manifest.json", SITE))).json();
  progress("runtime", manifest.pyodide);
  const indexURL = new URL("pyodide/", SITE).href;
  python = await loadPyodide({ indexURL, packageBaseUrl: indexURL, fullStdLib: false });
  progress("package", manifest.wheel);
  const wheel = await (await fetchOk(new URL(manifest.wheel, SITE))).arrayBuffer();
  python.unpackArchive(new Uint8Array(wheel), "wheel");
  // the files the documents name by their repository path (examples/newton.py ...)
  const files = await (await fetchOk(new URL(manifest.files, SITE))).json();
  for (const [path, text] of Object.entries(files)) {
    const full = "/home/pyodide/" + path;
    python.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
    python.FS.writeFile(full, text);
  }
  const source = await (await fetchOk(new URL("assets/site/mg_site.py", SITE))).text();
  python.FS.writeFile("/home/pyodide/mg_site.py", source);
  python.runPython("import sys; sys.path.insert(0, '/home/pyodide')");
  helper = python.pyimport("mg_site");
  helper.use_language(lang);
  return { seconds: (performance.now() - t0) / 1000, pyodide: manifest.pyodide, wheel: manifest.wheel };
}

function toJs(value) {
  if (value && typeof value.toJs === "function") {
    const out = value.toJs({ dict_converter: Object.fromEntries, create_pyproxies: false });
    value.destroy();
    return out;
  }
  return value;
}

async function handle(msg) {
  if (msg.call === "start") return start(...msg.args); // the page's language
  if (!helper) throw new Error("Python is not loaded");
  const fn = helper[msg.call];
  if (!fn) throw new Error(`no function ${msg.call}`);
  return toJs(fn(...(msg.args || [])));
}

self.onmessage = (event) => {
  const msg = event.data;
  queue = queue.then(async () => {
    try {
      self.postMessage({ id: msg.id, ok: true, value: await handle(msg) });
    } catch (e) {
      // a Python error that escaped the helper: its text is Python's traceback
      self.postMessage({ id: msg.id, ok: false, error: String((e && e.message) || e) });
    }
  });
};
