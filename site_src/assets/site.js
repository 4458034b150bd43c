// The site's pages, run in the browser: the Run buttons of the documents' Python blocks, the
// stepper, the playground and practice. Python runs in a Web Worker (worker.js: Pyodide and this
// package's wheel, loaded from the site's own folder); the page only sends calls and draws.
(function () {
  "use strict";

  const SCRIPT = document.currentScript;
  const SITE = new URL("../../", SCRIPT.src); // this file is SITE/assets/site/site.js
  const LANG = (document.documentElement.lang || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
  // The page's words, in its language: a block of micrograd.text's catalog that the site's build
  // put into every page (site_src/hooks.py), so the site says what the package says.
  const WORDS = JSON.parse(document.getElementById("mg-words").textContent);

  function say(key, fields) {
    return WORDS[key].replace(/\{(\w+)\}/g, (_, k) => String(fields && k in fields ? fields[k] : ""));
  }

  // ------------------------------------------------------------------ Python in a worker
  const state = { worker: null, ready: null, calls: new Map(), next: 1, dead: null };
  const site = (window.mgSite = { lang: LANG, loadSeconds: null, status: "idle" });
  let statusLine = null;

  function setStatus(kind, text) {
    if (!statusLine) {
      statusLine = document.createElement("div");
      statusLine.className = "mg-status";
      statusLine.setAttribute("role", "status");
      document.body.appendChild(statusLine);
    }
    statusLine.dataset.status = kind;
    statusLine.textContent = text;
    site.status = kind;
    site.statusText = text;
    if (kind === "ready") setTimeout(() => statusLine.dataset.status === "ready" && statusLine.classList.add("mg-faded"), 4000);
    else statusLine.classList.remove("mg-faded");
  }

  function python() {
    if (state.ready) return state.ready;
    setStatus("loading", say("starting"));
    const t0 = performance.now();
    // Made from a blob, the worker keeps this page's Content-Security-Policy (one loaded from a
    // URL would take its policy from response headers, which a static host does not send): code
    // a visitor runs in Python can then reach nothing but the site itself.
    const entry = JSON.stringify(new URL("assets/site/worker.js", SITE).href);
    const boot = new Blob([`import ${entry};`], { type: "text/javascript" });
    const worker = (state.worker = new Worker(URL.createObjectURL(boot), { type: "module" }));
    state.worker.onmessage = (event) => {
      const m = event.data;
      if (m.progress) {
        setStatus("loading", say(m.progress, { x: m.extra }));
        return;
      }
      const pending = state.calls.get(m.id);
      if (!pending) return;
      state.calls.delete(m.id);
      if (m.ok) pending.resolve(m.value);
      else {
        if (/fatal error|RuntimeError: (memory access|unreachable)|Maximum call stack/i.test(m.error)) {
          state.dead = m.error;
          setStatus("error", say("crashed", { x: m.error.split("\n")[0] }));
        }
        pending.reject(new Error(m.error));
      }
    };
    state.worker.onerror = (event) => {
      const text = event.message || "worker error";
      setStatus("error", say("failed", { x: text }));
      for (const p of state.calls.values()) p.reject(new Error(text));
      state.calls.clear();
    };
    state.ready = send("start", LANG).then(
      (info) => {
        const seconds = (performance.now() - t0) / 1000;
        site.loadSeconds = seconds;
        site.pythonSeconds = info.seconds;
        setStatus("ready", say("ready", { s: seconds.toFixed(1) }));
        return info;
      },
      (e) => {
        if (state.worker === worker) setStatus("error", say("failed", { x: e.message })); // not ended on purpose
        throw e;
      }
    );
    return state.ready;
  }

  function send(name, ...args) {
    return new Promise((resolve, reject) => {
      if (state.dead) return reject(new Error(state.dead));
      const id = state.next++;
      state.calls.set(id, { resolve, reject });
      state.worker.postMessage({ id, call: name, args });
    });
  }

  // Python, loaded; a crashed one starts again (no reload needed)
  function ready() {
    if (state.dead) restartPython(state.dead);
    return python();
  }

  async function call(name, ...args) {
    await ready();
    return send(name, ...args);
  }

  // End the worker (a check over its time limit, the Stop button, a Python that crashed): every
  // pending call fails with `why`, and the next call starts Python again in a new worker.
  function restartPython(why) {
    if (state.worker) state.worker.terminate();
    state.worker = null;
    state.ready = null;
    state.dead = null;
    for (const p of state.calls.values()) p.reject(new Error(why));
    state.calls.clear();
    setStatus("stopped", why);
  }

  // A script of the site, loaded once, on the page that needs it.
  const scripts = new Map();
  function loadScript(path) {
    if (!scripts.has(path))
      scripts.set(
        path,
        new Promise((resolve, reject) => {
          const tag = el("script", { src: new URL(path, SITE).href });
          tag.onload = resolve;
          tag.onerror = () => reject(new Error(`${path} could not be loaded`));
          document.head.append(tag);
        })
      );
    return scripts.get(path);
  }

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // ------------------------------------------------------------------ runnable blocks
  // Every python block of a document page, in order, shares one namespace, as
  // tests/test_tutorial.py runs them. Run of block k shows what block k prints after blocks
  // 1..k-1 as they read now, which is what the document shows under it: running it on top of
  // whatever ran before would use later blocks' variables (re-run after the last block, the
  // tutorial's second block used a later section's L and printed -10003.0 where the document
  // says -3.0). So the namespace holds blocks 1..n, run in order (`ran`: the code each one ran);
  // Run of block k runs blocks n+1..k in it, and where it holds block k or a later one already,
  // or an earlier block's code has changed since it ran, it is made new first and blocks 1..k
  // run again. One Run button that always means that is simpler to use than a second "run from
  // the top" action a learner has to know about; it costs running the blocks above again (the
  // tutorial's 23 take 2 to 3 s).
  function setupBlocks() {
    const blocks = Array.from(document.querySelectorAll(".mg-run"));
    if (!blocks.length) return;
    let chain = Promise.resolve();
    let ran = [];
    let ranIn = null; // the worker whose namespace `ran` describes (a new Python has an empty one)
    for (const box of document.querySelectorAll(".mg-expected")) box.dataset.label = say("expected");
    const items = blocks.map((block, k) => {
      block.dataset.block = String(k);
      const bar = el("div", { class: "mg-toolbar" });
      const run = el("button", { type: "button", class: "md-button mg-button", "data-action": "run" }, say("run"));
      const edit = el("button", { type: "button", class: "mg-link", "data-action": "edit" }, say("edit"));
      const restore = el("button", { type: "button", class: "mg-link", "data-action": "restore", hidden: "" }, say("restore"));
      const note = el("span", { class: "mg-note", "data-note": "" });
      bar.append(run, edit, restore, note);
      const output = el("pre", { class: "mg-output", "data-output": "", "data-state": "idle" });
      block.after(bar, output);
      const pre = block.querySelector("pre");
      const item = { block, run, note, output, state: "idle", editor: null, k };
      run.addEventListener("click", () => {
        chain = chain.then(() => runUpTo(k));
      });
      edit.addEventListener("click", () => {
        if (item.editor) return;
        const text = code(item);
        item.editor = el("textarea", { class: "mg-editor", spellcheck: "false", "data-editor": "" });
        item.editor.value = text;
        item.editor.rows = Math.min(40, text.split("\n").length + 1);
        pre.style.display = "none";
        pre.after(item.editor);
        restore.hidden = false;
        note.textContent = say("editing");
        item.editor.focus();
      });
      // The document's code again. If the edited code ran, what this block and the ones run after
      // it printed came from it: they show nothing until they run again.
      restore.addEventListener("click", () => {
        const changed = k < ran.length && ran[k] !== original(item);
        item.editor.remove();
        item.editor = null;
        pre.style.display = "";
        restore.hidden = true;
        note.textContent = "";
        if (changed) items.slice(k).forEach(forget);
      });
      return item;
    });

    function original(item) {
      const c = item.block.querySelector("pre code") || item.block.querySelector("pre");
      return c.textContent.replace(/\n$/, "");
    }

    function code(item) {
      return item.editor ? item.editor.value : original(item);
    }

    function mark(item, s, text) {
      item.state = s;
      item.output.dataset.state = s;
      item.note.textContent = text || "";
    }

    function forget(item) {
      item.output.textContent = "";
      mark(item, "idle", item.editor ? say("editing") : "");
    }

    async function runOne(item) {
      mark(item, "running", say("running"));
      item.run.disabled = true;
      try {
        const r = await call("run_block", code(item), item.k);
        item.output.textContent = r.output;
        mark(item, r.ok ? "done" : "error", say("ran", { s: r.seconds.toFixed(2) }));
        return r.ok;
      } catch (e) {
        item.output.textContent = e.message;
        mark(item, "error", "");
        return false;
      } finally {
        item.run.disabled = false;
      }
    }

    async function runUpTo(k) {
      const now = items.map(code);
      await ready();
      if (ranIn !== state.worker || ran.length > k || ran.some((c, j) => c !== now[j])) {
        await call("reset_blocks");
        [ran, ranIn] = [[], state.worker];
        items.slice(k + 1).forEach(forget);
      }
      const todo = items.slice(ran.length, k + 1);
      for (const it of todo) mark(it, "queued", say("queued"));
      for (const it of todo) {
        const ok = await runOne(it);
        ran.push(now[it.k]);
        if (!ok && it.k < k) {
          for (const rest of todo.filter((r) => r.state === "queued")) mark(rest, "skipped", say("skipped", { k: it.k + 1 }));
          return;
        }
      }
    }
    site.blocks = items.length;
  }

  // ------------------------------------------------------------------ the stepper
  function setupStepper(root) {
    const field = (n) => root.querySelector(`[data-field="${n}"]`);
    const frame = root.querySelector("iframe[data-frame]");
    const error = root.querySelector("[data-error]");
    const button = root.querySelector('[data-action="build"]');
    let builds = 0;
    let tallest = 0; // the frame's height: the most its page has said since it was built
    // The page in the frame says how tall it is (micrograd/teach/pages/stepper.html), and the
    // frame takes that height; it never shrinks while one graph is stepped through, so the page
    // does not jump when a step's text is shorter.
    window.addEventListener("message", (e) => {
      if (e.source !== frame.contentWindow || !e.data || e.data.micrograd !== "height") return;
      tallest = Math.max(tallest, Number(e.data.height) || 0);
      const border = frame.offsetHeight - frame.clientHeight;
      frame.style.height = `${Math.min(tallest, 4000) + border}px`;
    });
    const attention = root.querySelector('[data-action="attention"]');
    async function build(attentionHead) {
      button.disabled = true;
      if (attention) attention.disabled = true;
      error.textContent = "";
      const t0 = performance.now();
      try {
        const r = attentionHead // the GPT chapter's head (its section 13), or the typed graph
          ? await call("attention_page", LANG)
          : await call("stepper_page", field("expr").value, field("values").value, LANG, field("quiz").checked);
        if (r.error) {
          error.textContent = r.error;
          root.dataset.state = "error";
        } else {
          tallest = 0;
          frame.srcdoc = r.page;
          frame.hidden = false;
          root.dataset.frames = String(r.frames);
          root.dataset.state = "built";
        }
        site.stepperSeconds = (performance.now() - t0) / 1000;
      } catch (e) {
        error.textContent = e.message;
        root.dataset.state = "error";
      } finally {
        builds += 1;
        root.dataset.builds = String(builds);
        button.disabled = false;
        if (attention) attention.disabled = false;
      }
    }
    button.addEventListener("click", () => build(false));
    if (attention) attention.addEventListener("click", () => build(true));
    for (const n of ["expr", "values"]) field(n).addEventListener("keydown", (e) => e.key === "Enter" && build());
    build();
  }

  // ------------------------------------------------------------------ the playground
  // A widget's number: its value in data-value (what the tests read), its text as shown.
  function showMetric(root, name, value, text) {
    const m = root.querySelector(`[data-metric="${name}"]`);
    m.dataset.value = value == null ? "" : String(value);
    m.textContent = text !== undefined ? text : m.dataset.value || "–";
  }

  function setupPlayground(root) {
    const q = (s) => root.querySelector(s);
    const field = (n) => q(`[data-field="${n}"]`);
    const board = q("canvas[data-board]");
    const curve = q("canvas[data-curve]");
    const error = q("[data-error]");
    const pg = (site.playground = { playing: false, idle: true, losses: [], accuracies: [], highest: 1e-9, state: null, rate: null });
    let playStart = null;
    let playSteps = 0;

    function config() {
      return JSON.stringify({
        data: field("data").value,
        hidden: field("hidden").value, // as typed: Python reads it, and says what is wrong in words
        activation: field("activation").value,
        optimizer: field("optimizer").value,
        lr: Number(field("lr").value),
        points: Number(field("points").value),
      });
    }

    const metric = (name, value, text) => showMetric(root, name, value, text);

    function show(s) {
      pg.state = s;
      if (s.since === 0) [pg.losses, pg.accuracies, pg.highest] = [[], [], 1e-9];
      pg.losses.length = pg.accuracies.length = s.since;
      pg.losses.push(...s.losses);
      pg.accuracies.push(...s.accuracies);
      pg.highest = Math.max(pg.highest, ...s.losses.filter(Number.isFinite)); // kept as it comes
      metric("step", s.step);
      metric("loss", s.loss, s.loss == null ? "–" : s.loss.toFixed(4));
      metric("accuracy", s.accuracy, s.accuracy == null ? "–" : (100 * s.accuracy).toFixed(0) + "%");
      draw(s);
      window.mgPlayground.curves(curve, pg.losses, pg.accuracies, pg.highest, s.step, WORDS);
      const formula = q("[data-formula]"), active = q("[data-active]");
      formula.textContent = say(s.binary ? "pg_formula_binary" : "pg_formula_softmax");
      active.textContent = say("pg_active", { n: s.active.length, total: s.points.length });
      active.dataset.count = String(s.active.length);
    }

    function draw(s) {
      const ctx = board.getContext("2d");
      const W = board.width, H = board.height, n = s.grid.n;
      const [x0, x1, y0, y1] = s.grid.box;
      ctx.clearRect(0, 0, W, H);
      s.grid.scores.forEach((score, idx) => {
        const i = idx % n, j = Math.floor(idx / n);
        const a = Math.min(1, Math.abs(score)) * 0.35 + 0.05;
        ctx.fillStyle = score > 0 ? `rgba(33,150,243,${a})` : `rgba(255,152,0,${a})`;
        const left = Math.round((i * W) / n), top = Math.round(H - ((j + 1) * H) / n);
        ctx.fillRect(left, top, Math.round(((i + 1) * W) / n) - left, Math.round(H - (j * H) / n) - top);
      });
      const active = new Set(s.active);
      s.points.forEach(([x, y], idx) => {
        const px = ((x - x0) / (x1 - x0)) * W, py = H - ((y - y0) / (y1 - y0)) * H;
        ctx.beginPath();
        ctx.arc(px, py, 4, 0, 2 * Math.PI);
        ctx.fillStyle = s.labels[idx] === 1 ? "#1565c0" : "#e65100";
        ctx.fill();
        ctx.strokeStyle = "#fff";
        ctx.lineWidth = 1;
        ctx.stroke();
        if (active.has(idx)) window.mgPlayground.ring(ctx, px, py); // it sends gradient back
      });
    }

    async function request(action, arg) {
      pg.idle = false;
      error.textContent = "";
      try {
        const s = await call("playground", action, arg, LANG);
        if (s.error) throw new Error(s.error);
        show(s);
        return s;
      } catch (e) {
        error.textContent = e.message.trim().split("\n").pop();
        pg.playing = false;
        setButtons();
        return null;
      } finally {
        pg.idle = true;
      }
    }

    function setButtons() {
      q('[data-action="play"]').disabled = pg.playing;
      q('[data-action="pause"]').disabled = !pg.playing;
      q('[data-action="step"]').disabled = pg.playing;
    }

    async function loop() {
      let chunk = 1;
      while (pg.playing) {
        const before = pg.state ? pg.state.step : 0;
        const t = pg.state ? pg.state.train_seconds : 0;
        const s = await request("train", chunk);
        if (!s) break;
        playSteps += s.step - before;
        const wall = (performance.now() - playStart) / 1000;
        const last = (s.train_seconds - t) / Math.max(1, s.step - before);
        pg.rate = playSteps / wall; // steps per second of play, messages and drawing included
        pg.perStep = s.train_seconds / Math.max(1, s.step); // Python's time per step, on average
        metric("rate", pg.rate.toFixed(2), say("steps_per_s", { r: pg.rate.toFixed(1), ms: (1000 * pg.perStep).toFixed(0) }));
        chunk = Math.max(1, Math.min(20, Math.round(0.3 / Math.max(last, 1e-3))));
        await new Promise((r) => requestAnimationFrame(() => r())); // let the page draw
      }
    }

    q('[data-action="play"]').addEventListener("click", () => {
      if (pg.playing) return;
      pg.playing = true;
      playStart = performance.now();
      playSteps = 0;
      setButtons();
      loop();
    });
    q('[data-action="pause"]').addEventListener("click", () => {
      pg.playing = false;
      setButtons();
    });
    q('[data-action="step"]').addEventListener("click", () => request("train", 1));
    q('[data-action="reset"]').addEventListener("click", () => {
      pg.playing = false;
      setButtons();
      metric("rate", null, "–");
      request("reset", config());
    });
    setButtons();
    // the drawings it shares with the local playground (micrograd/app/pages/playground_draw.js)
    loadScript("assets/site/playground_draw.js").then(() => request("reset", config()));
  }

  // ------------------------------------------------------------------ the GPT
  // Train microgpt's GPT in the page's Python (mg_site.GptRun), draw its loss, sample names.
  function setupGpt(root) {
    const q = (s) => root.querySelector(s);
    const curve = q("canvas[data-curve]");
    const status = q("[data-status]");
    const error = q("[data-error]");
    const gp = (site.gpt = { playing: false, losses: [], highest: 1e-9, state: null, pending: 0 });

    const metric = (name, value, text) => showMetric(root, name, value, text);

    function show(s) {
      gp.state = s;
      if (s.since === 0) [gp.losses, gp.highest] = [[], 1e-9];
      gp.losses.length = s.since;
      gp.losses.push(...s.losses);
      // the curve is the mean of the last 50 losses: one name a step makes each loss noisy
      gp.means = gp.losses.map((_, i) => {
        const last = gp.losses.slice(Math.max(0, i - 49), i + 1);
        return last.reduce((a, b) => a + b, 0) / last.length;
      });
      gp.highest = Math.max(gp.highest, ...gp.means.filter(Number.isFinite));
      metric("step", s.step);
      metric("loss", s.mean, s.mean == null ? "–" : s.mean.toFixed(3));
      if (s.step) metric("rate", s.train_seconds / s.step, say("gpt_ms", { ms: ((1000 * s.train_seconds) / s.step).toFixed(0) }));
      window.mgPlayground.curves(curve, gp.means, null, gp.highest, s.step, WORDS);
      showStatus();
      root.dataset.step = String(s.step);
    }

    function showStatus() {
      const s = gp.state;
      if (!s || !s.compiled) return;
      const seconds = s.compile_seconds.toFixed(1);
      if (gp.playing) status.textContent = say("gpt_compiled", { s: seconds });
      else if (s.step === 0) status.textContent = say("gpt_ready", { s: seconds });
      else status.textContent = say("gpt_paused", { step: s.step, s: seconds });
    }

    async function request(action, arg) {
      error.textContent = "";
      gp.pending += 1; // a step paused in flight still lands: its result is shown when it does
      try {
        const s = await call("gpt", action, arg);
        if (s.error) throw new Error(s.error);
        return s;
      } catch (e) {
        error.textContent = e.message.trim().split("\n").pop();
        gp.playing = false;
        setButtons();
        return null;
      } finally {
        gp.pending -= 1;
      }
    }

    function setButtons() {
      q('[data-action="play"]').disabled = gp.playing;
      q('[data-action="pause"]').disabled = !gp.playing;
    }

    async function loop() {
      while (gp.playing) {
        if (!gp.state || !gp.state.compiled) status.textContent = say("gpt_compiling");
        const s = await request("train", gp.state && gp.state.compiled ? 10 : 1);
        if (!s) break;
        show(s);
        await new Promise((r) => requestAnimationFrame(() => r())); // let the page draw
      }
    }

    q('[data-action="play"]').addEventListener("click", () => {
      if (gp.playing) return;
      gp.playing = true;
      setButtons();
      loop();
    });
    q('[data-action="pause"]').addEventListener("click", () => {
      gp.playing = false;
      setButtons();
      showStatus();
    });
    q('[data-action="sample"]').addEventListener("click", async () => {
      // the temperature as the terminal takes it: a number above 0, refused in words otherwise
      const field = q('[data-field="temperature"]');
      const t = Number(field.value);
      if (field.value.trim() === "" || !Number.isFinite(t) || t <= 0) {
        error.textContent = say("gpt_bad_temperature", { text: JSON.stringify(field.value) });
        return;
      }
      const s = await request("sample", t);
      if (!s) return;
      const list = q("[data-samples]");
      list.textContent = "";
      for (const name of s.names) list.append(el("li", {}, name));
      q("[data-sampled]").textContent = say("gpt_sampled", { n: s.names.length, t: s.temperature, step: s.step });
      list.dataset.count = String(s.names.length);
      list.dataset.draw = String(s.draw);
    });
    setButtons();
    loadScript("assets/site/playground_draw.js").then(async () => {
      const s = await request("state");
      if (s) show(s);
      if (!s || s.compiled) return;
      // compile the step now, while the learner reads: the first train then starts at once
      if (!gp.playing) status.textContent = say("gpt_compiling");
      const p = await request("prepare");
      if (p && !gp.playing && gp.state.step === 0) show(p);
    });
  }

  // ------------------------------------------------------------------ practice
  function setupPractice(root) {
    const q = (s) => root.querySelector(s);
    // Sites of one account share an origin (USER.github.io/REPO): the key names this site's path.
    const KEY = "micrograd-practice:" + SITE.pathname;
    const MAX_SOURCE = 200000; // characters of a stored solution
    const pick = q('[data-field="exercise"]');
    const source = q('[data-field="source"]');
    const result = q("[data-result]");
    const task = q("[data-task]");
    const hints = q("[data-hints]");
    const stop = q('[data-action="stop"]');
    const confirmRow = q("[data-confirm]");
    let exercises = [];
    let editor = null; // CodeMirror (assets/site/editor.js); the textarea stays the model
    const limit = () => Number(root.dataset.limit) || 15; // seconds a check may run

    function edited(text) {
      source.value = text;
      const p = load();
      entry(p, pick.value).source = text;
      save(p);
    }
    function show(text) {
      // a GPT-track file has microgpt's Value above the part to write: the editor opens at the part
      source.value = text;
      if (editor) editor.set(text, "NotImplementedError");
    }
    loadScript("assets/site/editor.js").then(
      () => {
        editor = window.mgEditor.create(source.parentNode.insertBefore(el("div", { class: "mg-code", "data-editor": "" }), source), source.value, edited);
        source.hidden = true;
        root.dataset.editor = "codemirror";
      },
      () => (root.dataset.editor = "textarea") // the plain text area, still usable
    );

    // Stored progress is input like any other (any script of the origin can write it): only the
    // shape this page writes is kept, with counts as non-negative integers, hints at most the
    // exercise's own; anything else is dropped.
    const count = (x, most) => (Number.isSafeInteger(x) && x >= 0 ? Math.min(x, most) : 0);
    const load = () => {
      let stored = null;
      try {
        stored = JSON.parse(localStorage.getItem(KEY));
      } catch (e) {
        return {};
      }
      const p = {};
      if (!stored || typeof stored !== "object" || Array.isArray(stored)) return p;
      for (const ex of exercises) {
        const e = Object.prototype.hasOwnProperty.call(stored, ex.id) ? stored[ex.id] : null;
        if (!e || typeof e !== "object") continue;
        p[ex.id] = {
          attempts: count(e.attempts, 1e9),
          passed: e.passed === true,
          hints: count(e.hints, ex.hints.length),
          source: typeof e.source === "string" && e.source.length <= MAX_SOURCE ? e.source : null,
        };
      }
      return p;
    };
    const save = (p) => localStorage.setItem(KEY, JSON.stringify(p));
    const entry = (p, id) => (p[id] = p[id] || { attempts: 0, passed: false, hints: 0, source: null });

    function showProgress() {
      const p = load();
      const n = exercises.filter((ex) => p[ex.id] && p[ex.id].passed).length;
      const line = q("[data-progress]");
      line.textContent = say("progress", { n, total: exercises.length });
      line.dataset.passed = String(n);
      for (const o of pick.options) o.textContent = (p[o.value] && p[o.value].passed ? "✓ " : "") + o.dataset.title;
    }

    async function open(id) {
      const ex = exercises.find((e) => e.id === id);
      task.textContent = ex.task;
      hints.textContent = "";
      result.textContent = "";
      result.dataset.passed = "";
      const p = load();
      const mine = p[id] && p[id].source;
      show(mine || (await call("practice_stub", id, LANG)));
      for (let i = 0; i < (p[id] ? p[id].hints : 0); i++) showHint(ex, i);
      root.dataset.exercise = id;
      localStorage.setItem(KEY + ":open", id); // a reload opens the exercise the learner was on
    }

    function showHint(ex, i) {
      if (i >= ex.hints.length) return;
      hints.append(el("li", { "data-count": `${i + 1}/${ex.hints.length}` }, ex.hints[i])); // "1/3"
    }

    q('[data-action="check"]').addEventListener("click", async () => {
      const id = pick.value;
      const button = q('[data-action="check"]');
      button.disabled = true;
      result.dataset.passed = "";
      result.dataset.state = "checking";
      result.textContent = say("checking");
      stop.hidden = false;
      let timer = null;
      let end = null;
      const stopped = new Promise((_, reject) => {
        end = (why) => {
          restartPython(why);
          reject(new Error(why));
        };
      });
      stop.onclick = () => end(say("check_stopped"));
      const checking = (async () => {
        await ready(); // loading Python is not part of the check's time
        const seconds = limit();
        timer = setTimeout(() => end(say("check_too_long", { s: seconds })), seconds * 1000);
        return send("practice_check", id, source.value, LANG);
      })();
      checking.catch(() => {}); // when stopped, the race below has the error
      try {
        const r = await Promise.race([checking, stopped]);
        result.textContent = r.text;
        result.dataset.passed = String(r.passed);
        const p = load();
        const e = entry(p, id);
        e.attempts += 1;
        e.passed = e.passed || r.passed;
        e.source = source.value;
        save(p);
        showProgress();
      } catch (e) {
        result.textContent = e.message;
        result.dataset.passed = "false";
      } finally {
        clearTimeout(timer);
        stop.hidden = true;
        stop.onclick = null;
        result.dataset.state = "done";
        button.disabled = false;
      }
    });
    q('[data-action="hint"]').addEventListener("click", () => {
      const id = pick.value;
      const ex = exercises.find((e) => e.id === id);
      const p = load();
      const e = entry(p, id);
      if (e.hints >= ex.hints.length) {
        hints.append(el("li", {}, say("no_more_hints")));
        return;
      }
      showHint(ex, e.hints);
      e.hints += 1;
      save(p);
    });
    // Start over erases the learner's code: it asks first, in the page
    q('[data-action="restart"]').addEventListener("click", () => (confirmRow.hidden = false));
    q('[data-action="keep"]').addEventListener("click", () => (confirmRow.hidden = true));
    q('[data-action="erase"]').addEventListener("click", async () => {
      confirmRow.hidden = true;
      const p = load();
      entry(p, pick.value).source = null;
      save(p);
      show(await call("practice_stub", pick.value, LANG));
    });
    source.addEventListener("input", () => {
      edited(source.value);
      if (editor) editor.set(source.value);
    });
    pick.addEventListener("change", () => open(pick.value));

    call("practice_list", LANG).then(async (list) => {
      exercises = list;
      pick.textContent = "";
      let group = null; // one group of options per track: the lecture's backward(), then the GPT
      for (const ex of list) {
        if (!group || group.label !== ex.track) pick.append((group = el("optgroup", { label: ex.track })));
        const o = el("option", { value: ex.id, "data-title": `${ex.id}: ${ex.title}` }, `${ex.id}: ${ex.title}`);
        group.append(o);
      }
      const last = localStorage.getItem(KEY + ":open"); // only an id of this list is taken
      pick.value = list.some((ex) => ex.id === last) ? last : root.dataset.start || list[0].id;
      showProgress();
      await open(pick.value);
      root.dataset.state = "ready";
    });
  }

  function main() {
    setupBlocks();
    const widgets = { stepper: setupStepper, playground: setupPlayground, practice: setupPractice, gpt: setupGpt };
    for (const root of document.querySelectorAll("[data-mg]")) {
      const setup = widgets[root.dataset.mg];
      if (setup) setup(root);
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main);
  else main();
})();
