// mcplab playground code editor: the source of site/static/editor.js
// (bundled by `make editor`; see site/editor/README.md). It upgrades the
// playground's <textarea id="pg-editor"> into a CodeMirror 6 editor with
// line numbers, JSON highlighting, bracket matching, the scenario's
// located error shown in place, and completion and hover documentation from
// /scenario.schema.json (schema.js). Without JavaScript, or if this file fails,
// the textarea stays and works as before (progressive enhancement).
//
// The textarea stays the page's state: the wasm (wasm/playground.go) reads
// and writes its value and listens to its "input" events, as it does
// without this editor. The contract, all on the textarea:
//
//   - every edit in the editor is copied into textarea.value and announced
//     with an "input" event, as a keystroke in the textarea would be;
//   - "mcplab-set": the page replaced textarea.value (a control moved, a
//     link or file was opened); the editor takes the new text;
//   - "mcplab-diagnostics", detail [{from, to, message}] (UTF-16 offsets
//     into the text, as a textarea's selection): the located error to
//     underline, or [] when the scenario is valid;
//   - "mcplab-reveal", detail {from, to}: select that range (a caret when
//     it is empty: where something is missing), scroll it into
//     view and focus the editor; the listener cancels the event, so the
//     wasm knows the editor took it;
//   - the textarea's disabled and aria-invalid attributes are mirrored
//     (read-only until the wasm is ready).
//
// A line longer than longLine characters (a scenario pasted on one
// line) turns the JSON language off, and with it the highlighting, the
// bracket matching and the schema help, until no line is that long: a
// 100 KB line of JSON is some 7,000 tokens, which CodeMirror parses and
// draws as that many elements in one task of its parse worker (185 ms of
// CPU, 1.6 s on a loaded machine: TestPlaygroundLongLinePasteStaysResponsive).
// Plain, the line is one text node. The help under the label says so.
//
// Keyboard: Tab indents, as code editors do; Escape then Tab leaves the
// editor (CodeMirror's escape hatch, https://codemirror.net/examples/tab/),
// which the help text under the label says.
import { EditorState, Compartment } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine,
  highlightActiveLineGutter, drawSelection, highlightSpecialChars,
} from "@codemirror/view";
import {
  defaultKeymap, history, historyKeymap, indentWithTab,
} from "@codemirror/commands";
import {
  bracketMatching, indentOnInput, syntaxHighlighting,
} from "@codemirror/language";
import { classHighlighter } from "@lezer/highlight";
import { json } from "@codemirror/lang-json";
import { setDiagnostics, lintGutter, lintKeymap } from "@codemirror/lint";
import { schemaHelp } from "./schema.js";

// The page's colours (app.css custom properties), so the editor follows the
// light and dark themes; layout and the token colours are in app.css.
const pageTheme = EditorView.theme({
  "&": { color: "var(--fg)", backgroundColor: "var(--panel)", border: "1px solid var(--line-strong)", borderRadius: "6px", fontSize: "0.85rem" },
  "&.cm-focused": { outline: "2px solid var(--accent)", outlineOffset: "2px" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.45" },
  ".cm-content": { caretColor: "var(--fg)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--fg)" },
  ".cm-gutters": { backgroundColor: "var(--bg)", color: "var(--muted)", borderRight: "1px solid var(--line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--accent-bg)", color: "var(--fg)" },
  ".cm-activeLine": { backgroundColor: "transparent" },
  "&.cm-focused .cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--accent-bg) 60%, transparent)" },
  ".cm-matchingBracket, &.cm-focused .cm-matchingBracket": { backgroundColor: "var(--accent-line)", color: "inherit", outline: "1px solid var(--accent)" },
  ".cm-nonmatchingBracket, &.cm-focused .cm-nonmatchingBracket": { color: "var(--c-error)" },
  ".cm-tooltip, .cm-panels": { backgroundColor: "var(--panel)", color: "var(--fg)", borderColor: "var(--line-strong)" },
  ".cm-schema-info": { maxWidth: "min(28rem, 80vw)", whiteSpace: "normal", fontFamily: "var(--sans, system-ui)", lineHeight: "1.4", padding: "4px 8px" },
  ".cm-tooltip.cm-completionInfo": { maxWidth: "min(28rem, 80vw)" },
  ".cm-tooltip-autocomplete ul li[aria-selected]": { backgroundColor: "var(--accent-bg)", color: "var(--fg)" },
  ".cm-completionDetail": { color: "var(--muted)", fontStyle: "normal", marginLeft: "0.5em" },
  ".cm-diagnostic-error": { borderLeftColor: "var(--c-error)" },
  ".cm-panel.cm-panel-lint ul [aria-selected]": { backgroundColor: "var(--accent-bg)", color: "var(--fg)" },
});

// dark reports whether the page is dark (boot.js's data-theme, else the
// reader's preference), for CodeMirror's own dark or light defaults.
const dark = () => {
  const t = document.documentElement.dataset.theme;
  return t ? t === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
};

// longLine is the longest line (characters) the editor still highlights.
const longLine = 5000;

// hasLongLine reports whether a line of text touching the range from-to
// (all of it by default) is longer than longLine.
const hasLongLine = (doc, from = 0, to = doc.length) => {
  for (let pos = from; ; ) {
    const line = doc.lineAt(pos);
    if (line.length > longLine) return true;
    if (line.to >= to) return false;
    pos = line.to + 1;
  }
};

const upgrade = (area) => {
  const editable = new Compartment();
  const scheme = new Compartment();
  const language = new Compartment();
  // The JSON language and what needs its syntax tree (see longLine).
  const rich = (area) => [
    indentOnInput(),
    bracketMatching(),
    syntaxHighlighting(classHighlighter),
    json(),
    schemaHelp(area.closest("article") || document.body),
  ];
  let plain = hasLongLine(EditorState.create({ doc: area.value }).doc);
  const locked = () => area.disabled;
  let echo = false; // true while the editor itself writes the textarea
  let quiet = false; // true while the editor takes the page's text

  const view = new EditorView({
    state: EditorState.create({
      doc: area.value,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        // Token classes (tok-string, tok-number, ...) styled in app.css,
        // so the colours follow the page's light and dark themes; member
        // names and values from /scenario.schema.json as you type (or
        // Ctrl-Space), and a member's description on hover (schema.js).
        // Off while a line is longer than longLine.
        language.of(plain ? [] : rich(area)),
        EditorState.transactionExtender.of((tr) => {
          if (!tr.docChanged) return null;
          // Only the changed lines can have become long; only a full scan
          // can tell that the last long line is gone.
          let long = false;
          tr.changes.iterChangedRanges((fromA, toA, fromB, toB) => {
            long = long || hasLongLine(tr.newDoc, fromB, toB);
          });
          if (!long && plain) long = hasLongLine(tr.newDoc);
          if (long === plain) return null;
          plain = long;
          showPlain();
          return { effects: language.reconfigure(plain ? [] : rich(area)) };
        }),
        lintGutter(),
        EditorState.tabSize.of(2),
        // The panel is narrow (400 px, a phone's width on a phone): long
        // lines (a scenario's notes) wrap rather than hide to the right.
        EditorView.lineWrapping,
        pageTheme,
        scheme.of(EditorView.darkTheme.of(dark())),
        keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap, indentWithTab]),
        editable.of([EditorView.editable.of(!locked()), EditorState.readOnly.of(locked())]),
        EditorView.contentAttributes.of({
          "aria-labelledby": area.labels && area.labels[0] ? ensureID(area.labels[0], "pg-editor-label") : "",
          "aria-describedby": area.getAttribute("aria-describedby") || "",
          "aria-multiline": "true",
          spellcheck: "false",
          autocorrect: "off",
          autocapitalize: "off",
        }),
        // A key typed over a selection that spans several tokens: Chrome's
        // own editing would keep the deleted text's look on the new text
        // with a style attribute, which the CSP refuses (a console error);
        // the editor makes that change itself instead.
        EditorView.domEventHandlers({
          beforeinput(ev, view) {
            if (ev.inputType !== "insertText" || ev.data == null || view.composing) return false;
            if (view.state.selection.ranges.every((r) => r.empty)) return false;
            ev.preventDefault();
            view.dispatch(view.state.replaceSelection(ev.data), { userEvent: "input.type", scrollIntoView: true });
            return true;
          },
        }),
        EditorView.updateListener.of((u) => {
          // The page's own text is already in the textarea and already
          // being run: only the reader's edits are announced.
          if (!u.docChanged || quiet) return;
          echo = true;
          try {
            area.value = u.state.doc.toString();
            area.dispatchEvent(new Event("input", { bubbles: true }));
          } finally {
            echo = false;
          }
        }),
      ],
    }),
  });

  const box = document.createElement("div");
  box.className = "code-editor";
  box.appendChild(view.dom);
  area.after(box);
  area.hidden = true;
  area.dataset.codeEditor = "1";
  // The label names the editor now: a click on it focuses the editor.
  for (const label of area.labels || []) label.addEventListener("click", (ev) => { ev.preventDefault(); view.focus(); });
  const keys = document.getElementById("pg-editor-keys");
  if (keys) keys.hidden = false;
  // Says, in the help the editor is described by, that highlighting is off.
  const note = document.createElement("span");
  note.id = "pg-editor-plain";
  note.textContent = ` Highlighting and completion are off while a line is longer than ${longLine.toLocaleString("en-US")} characters: break the JSON into lines to turn them on.`;
  (keys ? keys.parentElement : box).append(note);
  const showPlain = () => { note.hidden = !plain; };
  showPlain();

  // The page replaced the text: take it, unless it is the editor's own.
  const take = () => {
    if (echo) return;
    const text = area.value;
    if (text === view.state.doc.toString()) return;
    quiet = true;
    try {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    } finally {
      quiet = false;
    }
  };
  area.addEventListener("mcplab-set", take);
  area.addEventListener("input", take);

  // An update of the editor costs a measure of its layout: none when
  // nothing was marked and nothing is.
  let marked = 0;
  area.addEventListener("mcplab-diagnostics", (ev) => {
    const len = view.state.doc.length;
    const list = (ev.detail || []).map((d) => {
      const from = clamp(d.from, 0, len);
      return { from, to: clamp(Math.max(d.to, from), from, len), severity: "error", message: String(d.message) };
    });
    if (list.length === 0 && marked === 0) return;
    marked = list.length;
    view.dispatch(setDiagnostics(view.state, list));
  });

  area.addEventListener("mcplab-reveal", (ev) => {
    const len = view.state.doc.length;
    const from = clamp(ev.detail.from, 0, len);
    // An empty range is a caret: the place where something is missing
    // (a comma after a value), so that typing there inserts it.
    const to = clamp(ev.detail.to, from, len);
    view.dispatch({ selection: { anchor: from, head: to }, effects: EditorView.scrollIntoView(from, { y: "center" }) });
    view.focus();
    ev.preventDefault();
  });

  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    view.dispatch({ effects: scheme.reconfigure(EditorView.darkTheme.of(dark())) });
  });

  // Reconfigured only when the lock changes: a reconfiguration rebuilds
  // the editor's state (25 ms of CPU for a herd's link), and aria-invalid
  // changes with every run.
  let wasLocked = locked();
  new MutationObserver(() => {
    if (locked() !== wasLocked) {
      wasLocked = locked();
      view.dispatch({ effects: editable.reconfigure([EditorView.editable.of(!locked()), EditorState.readOnly.of(locked())]) });
    }
    const invalid = area.getAttribute("aria-invalid");
    if (invalid) view.contentDOM.setAttribute("aria-invalid", invalid);
    else view.contentDOM.removeAttribute("aria-invalid");
  }).observe(area, { attributes: true, attributeFilter: ["disabled", "aria-invalid"] });
};

const clamp = (n, lo, hi) => Math.min(Math.max(Number(n) || 0, lo), hi);

const ensureID = (el, id) => {
  if (!el.id) el.id = id;
  return el.id;
};

const area = document.getElementById("pg-editor");
if (area && area.tagName === "TEXTAREA") upgrade(area);
