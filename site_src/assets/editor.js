// The practice page's code editor: CodeMirror 6 with Python highlighting, Tab indenting, undo and
// bracket matching. `python3 tasks.py site` bundles this file with esbuild into
// site/assets/site/editor.js (no request leaves the site); site.js loads it on the practice page.
import { indentWithTab } from "@codemirror/commands";
import { indentUnit } from "@codemirror/language";
import { python } from "@codemirror/lang-python";
import { EditorState } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { basicSetup } from "codemirror";

// An editor in `parent` holding `text`; `changed(text)` is called on every edit the learner makes.
function create(parent, text, changed) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        basicSetup,
        keymap.of([indentWithTab]), // Tab indents (Esc then Tab leaves the editor)
        python(),
        indentUnit.of("    "), // Python's four spaces
        EditorState.tabSize.of(4),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && u.transactions.some((t) => t.isUserEvent("input") || t.isUserEvent("delete") || t.isUserEvent("undo") || t.isUserEvent("redo") || t.isUserEvent("move")))
            changed(view.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    get: () => view.state.doc.toString(),
    // the whole text replaced; where `mark` is in it (the part left to write), shown and the cursor put
    set: (value, mark) => {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } });
      const at = mark ? value.indexOf(mark) : -1;
      if (at >= 0) view.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: "center" }) });
    },
    focus: () => view.focus(),
    view,
  };
}

window.mgEditor = { create };
