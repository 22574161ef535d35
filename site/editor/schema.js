// Completion and hover documentation from /scenario.schema.json for the
// playground's editor. The schema is the site's own
// (engine/scenario's scenario.schema.json, served beside the pages); it is
// fetched once, on the first completion or hover, never on page load.
//
// Where the cursor is: scan reads the text up to the cursor with a small
// JSON tokenizer (strings, punctuation, literals; it never fails, so a
// half-typed member still has a place) and keeps a stack of the objects and
// arrays it is in, the member each object is at, and every scalar member
// each object has, read to the end of the text (a step's "do" may come
// after the cursor). The schema path follows that stack: "properties" for a
// member, "items" for an array element, "$ref" into "$defs", and a "oneOf"
// (the steps' verbs) narrowed to the branch whose "const" members the
// object matches ("do": "call"), or all branches while none is chosen.
//
// What it offers: in an object, the schema's member names not yet present,
// each with its description; after a member's colon, the member's enum and
// const values and true/false for a boolean, each with its description (a
// verb's is its branch's). Hovering a member name, or its value, shows the
// member's description.
import { autocompletion } from "@codemirror/autocomplete";
import { hoverTooltip, tooltips } from "@codemirror/view";
import { syntaxTree } from "@codemirror/language";

let schemaRoot = null; // the parsed schema, once fetched
let loading = null; // the fetch in flight, a Promise of schemaRoot or null

// loadSchema fetches the scenario schema once. Its address is the help
// text's "JSON Schema" link (so it follows the site's root), else
// ../scenario.schema.json beside the playground. A failed fetch gives no
// completions and is tried again on the next request.
const loadSchema = () => {
  if (schemaRoot) return Promise.resolve(schemaRoot);
  if (!loading) {
    const link = document.querySelector('#pg-editor-help a[href$="scenario.schema.json"]');
    const url = link ? link.href : new URL("../scenario.schema.json", location.href).href;
    loading = fetch(url)
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null)
      .then((s) => {
        loading = null;
        if (s && typeof s === "object") schemaRoot = s;
        return schemaRoot;
      });
  }
  return loading;
};

// deref follows "$ref": "#/..." within the schema (the schema's only
// kind); the referring node's own keywords (its description) win over the
// target's.
const deref = (root, s) => {
  for (let n = 0; s && typeof s.$ref === "string" && n < 8; n++) {
    if (!s.$ref.startsWith("#/")) return s;
    const { $ref, ...own } = s;
    const target = $ref.slice(2).split("/").reduce((o, k) => (o ? o[k.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined), root);
    s = target ? { ...target, ...own } : null;
  }
  return s || null;
};

// narrow picks, from a "oneOf", the branch whose const members the object's
// members match (a step's "do"); with no match it is every branch at once.
const narrow = (root, s, members) => {
  s = deref(root, s);
  if (!s || !Array.isArray(s.oneOf)) return s;
  const branches = s.oneOf.map((b) => deref(root, b)).filter(Boolean);
  const hit = branches.find((b) => Object.entries(b.properties || {}).some(([k, p]) => p && "const" in p && members && k in members && members[k] === p.const));
  return hit || { branches, description: s.description };
};

// membersOf lists an object schema's members as [name, schema], the union
// over every branch for an undecided oneOf (first branch's description).
const membersOf = (root, s) => {
  if (!s) return [];
  const seen = new Map();
  for (const b of s.branches || [s]) {
    for (const [k, p] of Object.entries(b.properties || {})) if (!seen.has(k)) seen.set(k, deref(root, p));
  }
  return [...seen];
};

// memberSchema is the schema of member key of an object schema s.
const memberSchema = (root, s, key) => {
  if (!s) return null;
  for (const b of s.branches || [s]) {
    const p = b.properties && b.properties[key];
    if (p) return deref(root, p);
  }
  return null;
};

// container stands for a member whose value is an object or a list in
// scan's members: present, but equal to no schema const.
const container = {};

// scan tokenizes text[0:end) and reports where end is: the stack of
// containers ({obj: true, key, keyDone, members, start} or {obj: false,
// index}), whether end is at a member name, and the string or word being
// typed there. With rest true it then reads on to the end of the text,
// filling each open object's members (scalars only) until it closes.
const scan = (text, end, rest) => {
  const stack = [];
  let i = 0;
  let at = null; // the place at end, fixed once i reaches end
  const top = () => stack[stack.length - 1];
  const value = (v) => {
    const f = top();
    if (f && f.obj && f.keyDone && f.key != null && !(f.key in f.members)) f.members[f.key] = v;
    if (f && f.obj) f.keyDone = false;
  };
  const snapshot = (partialFrom) => {
    if (at) return;
    const f = top();
    at = {
      stack: stack.map((x) => ({ ...x })), // each frame as it is here; members fill on
      inKey: !!(f && f.obj && !f.keyDone),
      from: partialFrom,
    };
  };
  while (i < text.length) {
    if (i >= end) {
      snapshot(end);
      if (!rest || stack.length === 0) break;
    }
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"' && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      if (!at && end <= j) {
        snapshot(i); // inside this string: it is what is being typed
        if (!rest) break;
      }
      let s = null;
      try { s = JSON.parse(text.slice(i, j + 1)); } catch { s = text.slice(i + 1, j); }
      const f = top();
      if (f && f.obj && !f.keyDone) {
        f.key = s;
        f.keyFrom = i;
      } else value(s);
      i = j + 1;
      continue;
    }
    if (c === "{" || c === "[") {
      const f = top();
      // An object or list is a member too: its name is not offered again.
      if (f && f.obj && f.keyDone && f.key != null && !(f.key in f.members)) f.members[f.key] = container;
      if (f && f.obj) f.keyDone = false;
      stack.push(c === "{" ? { obj: true, key: null, keyDone: false, members: {}, start: i } : { obj: false, index: 0, start: i });
      i++;
      continue;
    }
    if (c === "}" || c === "]") {
      stack.pop();
      i++;
      continue;
    }
    if (c === ":") {
      const f = top();
      if (f && f.obj) f.keyDone = true;
      i++;
      continue;
    }
    if (c === ",") {
      const f = top();
      if (f && f.obj) { f.keyDone = false; f.key = null; } else if (f) f.index++;
      i++;
      continue;
    }
    if (/[-0-9a-z]/i.test(c)) {
      let j = i;
      while (j < text.length && /[-+.0-9a-z]/i.test(text[j])) j++;
      if (!at && end <= j) {
        snapshot(i);
        if (!rest) break;
      }
      const w = text.slice(i, j);
      value(w === "true" ? true : w === "false" ? false : w === "null" ? null : Number(w));
      i = j;
      continue;
    }
    i++;
  }
  snapshot(end);
  return at;
};

// schemaOf walks the schema along frames (outermost first) and returns the
// schema of the innermost container, each object narrowed by its members
// (the innermost without member omit, the one whose value is being typed).
const schemaOf = (root, frames, omit) => {
  let s = deref(root, root);
  for (let d = 0; d < frames.length && s; d++) {
    const f = frames[d];
    if (f.obj) {
      let m = f.members;
      if (d === frames.length - 1 && omit != null) {
        m = { ...m };
        delete m[omit];
      }
      s = narrow(root, s, m);
    }
    if (d + 1 < frames.length) s = f.obj ? memberSchema(root, s, f.key) : deref(root, s.items);
  }
  return s;
};

// describe is the text shown for a member: its description.
const describe = (s) => (s && s.description) || "";

// kind is a member's short type shown beside its name: its values, its
// const, or its JSON type.
const kind = (s) => {
  if (!s) return "";
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if ("const" in s) return JSON.stringify(s.const);
  if (s.type) return [].concat(s.type).join(" | ");
  if (s.oneOf || s.branches) return "one of";
  return "";
};

// infoNode makes a completion's documentation panel (plain text).
const infoNode = (text) => () => {
  const d = document.createElement("div");
  d.className = "cm-schema-info";
  d.textContent = text;
  return d;
};

// word matches the part of a name or value before the cursor (from its
// opening quote), rest the part after it (to its closing quote).
const wordRE = /"?[\w$.\/-]*$/;
const restRE = /^[\w$.\/-]*"?/;

// applyOption writes option text over the whole name or value the cursor
// is in, from its start to its closing quote (the menu filters by the part
// before the cursor only: CodeMirror matches the text from..to, and `""`
// would match no label), and a member name's ": " unless a colon follows.
const applyOption = (text, key) => (view, completion, from, to) => {
  const doc = view.state.doc;
  const quoted = doc.sliceString(from, from + 1) === '"';
  const rest = restRE.exec(doc.sliceString(to, Math.min(doc.length, to + 300)))[0];
  const end = quoted || !rest.endsWith('"') ? to + rest.length : to + rest.length - 1;
  const colon = key && /^\s*:/.test(doc.sliceString(end, Math.min(doc.length, end + 80)));
  const insert = key && !colon ? text + ": " : text;
  view.dispatch({
    changes: { from, to: end, insert },
    selection: { anchor: from + insert.length },
    userEvent: "input.complete",
    scrollIntoView: true,
  });
};

// complete is the completion source: member names in an object (typed
// from their opening quote, or Ctrl-Space anywhere in a name, "" too),
// values after a member's colon (the same, in a value).
const complete = async (ctx) => {
  const text = ctx.state.doc.toString();
  const before = text.slice(Math.max(0, ctx.pos - 300), ctx.pos);
  const word = wordRE.exec(before)[0];
  if (!ctx.explicit && word === "") return null;
  const root = await loadSchema();
  if (!root || ctx.aborted) return null;
  const at = scan(text, ctx.pos, true);
  if (!at || at.stack.length === 0) return null;
  const f = at.stack[at.stack.length - 1];
  const from = ctx.pos - word.length;
  const result = (options) => (options.length ? { from, to: ctx.pos, options, validFor: /^"?[\w$.\/-]*$/ } : null);
  if (f.obj && at.inKey) {
    const s = schemaOf(root, at.stack);
    const present = new Set(Object.keys(f.members).filter((k) => k !== f.key || f.keyFrom !== from));
    return result(membersOf(root, s)
      .filter(([k]) => !present.has(k))
      .map(([k, p]) => ({ label: JSON.stringify(k), apply: applyOption(JSON.stringify(k), true), type: "property", detail: kind(p), info: infoNode(describe(p)) })));
  }
  // A value: of the member at the colon, or of an array's element.
  const s = schemaOf(root, at.stack, f.obj ? f.key : null);
  if (!s) return null;
  const options = [];
  const value = (label, type, info) => options.push({ label, apply: applyOption(label, false), type, info: infoNode(info) });
  if (f.obj && s.branches) {
    // an undecided oneOf (a step without its verb): each branch's const
    // for this member, described by its branch ("do": "call", ...)
    for (const b of s.branches) {
      const p = deref(root, b.properties && b.properties[f.key]);
      if (p && "const" in p) value(JSON.stringify(p.const), "enum", b.description || describe(p));
    }
  } else {
    const vs = f.obj ? memberSchema(root, s, f.key) : deref(root, s.items);
    if (!vs) return null;
    for (const v of vs.enum || []) value(JSON.stringify(v), "enum", describe(vs));
    if ("const" in vs) value(JSON.stringify(vs.const), "enum", describe(vs));
    if (vs.type === "boolean") for (const v of ["true", "false"]) value(v, "keyword", describe(vs));
  }
  const seen = new Set();
  return result(options.filter((o) => !seen.has(o.label) && seen.add(o.label)));
};

// hover shows the description of the member whose name, or value, is
// under the pointer.
const hover = hoverTooltip(async (view, pos, side) => {
  let node = syntaxTree(view.state).resolveInner(pos, side);
  while (node && node.name !== "Property" && node.name !== "Object" && node.name !== "Array" && node.parent) node = node.parent;
  if (!node || node.name !== "Property") return null;
  const name = node.getChild("PropertyName");
  if (!name) return null;
  const root = await loadSchema();
  if (!root) return null;
  const text = view.state.doc.toString();
  const at = scan(text, name.from, true);
  if (!at || !at.stack.length) return null;
  const key = (() => { try { return JSON.parse(text.slice(name.from, name.to)); } catch { return null; } })();
  const s = memberSchema(root, schemaOf(root, at.stack), key);
  if (!s || !s.description) return null;
  // The name or the value, whichever is under the pointer.
  const value = node.lastChild;
  const onName = pos <= name.to || !value || value === name;
  return {
    pos: onName ? name.from : value.from,
    end: onName ? name.to : value.to,
    above: true,
    create: () => {
      const dom = document.createElement("div");
      dom.className = "cm-schema-info";
      const head = document.createElement("strong");
      head.textContent = key;
      const k = kind(s);
      dom.append(head, k ? ` (${k})` : "", document.createElement("br"), s.description);
      return { dom };
    },
  };
}, { hoverTime: 300 });

// positionInfo places a completion's documentation beside the menu, or,
// where the window is too narrow for that (a phone), under the whole menu
// (over it when there is no room below): CodeMirror's own narrow place is
// under the selected option, where it hid the options after it.
const positionInfo = (view, list, option, info, space, tooltip) => {
  const w = info.right - info.left, h = info.bottom - info.top;
  const left = list.left - space.left, right = space.right - list.right;
  const scaleY = (list.bottom - list.top) / tooltip.offsetHeight || 1;
  const scaleX = (list.right - list.left) / tooltip.offsetWidth || 1;
  if (w <= Math.max(left, right)) {
    const onLeft = right < w;
    const top = Math.max(space.top, Math.min(option.top, space.bottom - h)) - list.top;
    return { style: `top: ${top / scaleY}px; max-width: ${Math.min(400, onLeft ? left : right) / scaleX}px`, class: "cm-completionInfo-" + (onLeft ? "left" : "right") };
  }
  const below = space.bottom - list.bottom >= h || space.bottom - list.bottom > list.top - space.top;
  const maxWidth = Math.min(400, space.right - list.left - 8);
  return { style: `${below ? "top" : "bottom"}: ${(list.bottom - list.top) / scaleY}px; left: 0; max-width: ${maxWidth / scaleX}px`, class: "cm-completionInfo-right-narrow" };
};

// schemaHelp is the editor extension: completion (typed, or Ctrl-Space)
// and hover documentation.
// Its tooltips (and the lint's) are children of parent (the playground's
// <article>): inside the editor's column they were painted under the
// output panel beside it.
export const schemaHelp = (parent) => [
  autocompletion({ override: [complete], icons: false, positionInfo }),
  hover,
  tooltips({ parent }),
];

