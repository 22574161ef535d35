// Package schema judges the rule message-valid: every message of a trace
// or transcript is valid against the official JSON Schema of the protocol
// revision it claims (SCENARIO.md, "The wire of each revision"), the
// specification's schema/2025-11-25/schema.json and
// schema/2026-07-28/schema.json, embedded from spec/ (see
// spec/SOURCE.md for their commit and licence).
//
// It lives apart from package checks because it is a different job: it
// links a JSON Schema validator (github.com/santhosh-tekuri/jsonschema/v6)
// and the two schemas, which only the command line (`mcplab run
// -checks`, `mcplab probe`) and the tests use: they call [Check];
// checks.Evaluate does not, and the browser's pages leave the rule out.
//
// A message is judged against the definition its method names: a request
// or notification against the schema's definition whose method is that
// constant (CallToolRequest for tools/call), a response against
// JSONRPCResultResponse and its result against the request's result
// definition (CallToolResult), an error against JSONRPCErrorResponse
// and, for a code its revision defines an error for (2026-07-28's -32020
// and -32022), against that definition too (HeaderMismatchError). A
// method the core schema does not define (an extension's, such as the
// tasks extension's tasks/get) is judged as a JSONRPCRequest or
// JSONRPCNotification, and under 2026-07-28 a request's params as
// RequestParams (every request carries _meta there). A result that
// carries a member only the other revision's Result definition names
// (resultType under 2025-11-25) is invalid at that member: the schemas'
// Result allows any member, so the validator alone cannot see it.
package schema

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/jsonrpc"
)

// Rule is the id of the rule this package judges, checks.MessageValid.
const Rule = checks.MessageValid

//go:embed spec/2025-11-25/schema.json spec/2026-07-28/schema.json
var spec embed.FS

// Revisions are the revisions whose schemas are embedded.
var Revisions = []string{jsonrpc.Revision20251125, jsonrpc.Revision20260728}

// Problem is why a message is invalid: Pointer is the JSON Pointer
// (RFC 6901) of the first failing value in the message ("" for the
// message itself), Definition the schema definition it was judged by,
// Reason the validator's words.
type Problem struct {
	Pointer    string
	Definition string
	Reason     string
}

// Error implements error: `at /params/_meta: ... (CallToolRequest)`.
func (p *Problem) Error() string {
	ptr := p.Pointer
	if ptr == "" {
		ptr = "the message"
	}
	return fmt.Sprintf("at %s: %s (%s)", ptr, p.Reason, p.Definition)
}

// revision is one compiled schema: its compiler, the definitions compiled
// so far by name, and the method each request and notification definition
// fixes.
type revision struct {
	mu        sync.Mutex // guards defs: tests validate in parallel
	url       string
	compiler  *jsonschema.Compiler
	defs      map[string]*jsonschema.Schema
	requests  map[string]string // method -> definition name
	notifies  map[string]string // method -> definition name
	available map[string]bool   // every definition name
	// resultMembers are the members its Result definition names
	// (2025-11-25: _meta; 2026-07-28: _meta, resultType).
	resultMembers map[string]bool
}

var (
	loadOnce  sync.Once
	loaded    map[string]*revision
	loadError error
)

// load reads and indexes both embedded schemas once.
func load() (map[string]*revision, error) {
	loadOnce.Do(func() {
		loaded = map[string]*revision{}
		for _, rev := range Revisions {
			r, err := newRevision(rev)
			if err != nil {
				loadError = err
				return
			}
			loaded[rev] = r
		}
	})
	return loaded, loadError
}

func newRevision(rev string) (*revision, error) {
	raw, err := spec.ReadFile("spec/" + rev + "/schema.json")
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", rev, err)
	}
	r := &revision{url: "https://modelcontextprotocol.io/schema/" + rev + "/schema.json", compiler: jsonschema.NewCompiler(),
		defs: map[string]*jsonschema.Schema{}, requests: map[string]string{}, notifies: map[string]string{}, available: map[string]bool{}}
	if err := r.compiler.AddResource(r.url, doc); err != nil {
		return nil, fmt.Errorf("schema %s: %w", rev, err)
	}
	var index struct {
		Defs map[string]struct {
			Properties struct {
				Method struct {
					Const *string `json:"const"`
				} `json:"method"`
			} `json:"properties"`
			Required []string `json:"required"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &index); err != nil {
		return nil, fmt.Errorf("schema %s: %w", rev, err)
	}
	var result struct {
		Defs struct {
			Result struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"Result"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &result); err != nil {
		return nil, fmt.Errorf("schema %s: %w", rev, err)
	}
	r.resultMembers = map[string]bool{}
	for name := range result.Defs.Result.Properties {
		r.resultMembers[name] = true
	}
	for name, d := range index.Defs {
		r.available[name] = true
		if d.Properties.Method.Const == nil {
			continue
		}
		m := *d.Properties.Method.Const
		if contains(d.Required, "id") {
			r.requests[m] = name
		} else {
			r.notifies[m] = name
		}
	}
	return r, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// def compiles (once) and returns definition name.
func (r *revision) def(name string) (*jsonschema.Schema, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.defs[name]; ok {
		return s, nil
	}
	s, err := r.compiler.Compile(r.url + "#/$defs/" + name)
	if err != nil {
		return nil, err
	}
	r.defs[name] = s
	return s, nil
}

// resultDef is the definition of result, the result of a request for
// method: a task handle (a "task" member) is 2025-11-25's CreateTaskResult
// and, where tasks are an extension (2026-07-28), a Result; otherwise its
// request definition's name with Result for Request (CallToolRequest:
// CallToolResult), EmptyResult when there is no such definition (ping),
// Result for a method the schema does not define.
func (r *revision) resultDef(method string, result any) string {
	if member(result, "task") != nil {
		if r.available["CreateTaskResult"] {
			return "CreateTaskResult"
		}
		return "Result"
	}
	if req, ok := r.requests[method]; ok {
		if name := strings.TrimSuffix(req, "Request") + "Result"; r.available[name] {
			return name
		}
		return "EmptyResult"
	}
	return "Result"
}

// Validate judges msg against revision rev's schema; method is, for a
// response, the method of the request it answers ("" when unknown: its
// result is judged as a Result). It returns nil for a valid message, a
// *Problem for an invalid one, and another error for a revision with no
// embedded schema.
func Validate(rev string, msg json.RawMessage, method string) error {
	revs, err := load()
	if err != nil {
		return err
	}
	r := revs[rev]
	if r == nil {
		return fmt.Errorf("no schema for protocol revision %q (have %s)", rev, strings.Join(Revisions, ", "))
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(msg))
	if err != nil {
		return &Problem{Definition: "JSONRPCMessage", Reason: "not JSON: " + err.Error()}
	}
	m, _ := jsonrpc.Parse(msg)
	if (m.Kind == jsonrpc.Request || m.Kind == jsonrpc.Notification) && m.Method != "" {
		if other, def := foreign(revs, rev, m.Method); other != "" {
			return &Problem{Pointer: "/method", Definition: def + " of " + other, Reason: m.Method + " is a " + other + " method; " + rev + " has none"}
		}
	}
	type judge struct {
		def  string
		at   string // the member judged, "" for the whole message
		part any
	}
	var judges []judge
	switch m.Kind {
	case jsonrpc.Request:
		if d, ok := r.requests[m.Method]; ok {
			judges = append(judges, judge{def: d, part: inst})
		} else {
			judges = append(judges, judge{def: "JSONRPCRequest", part: inst})
			if rev == jsonrpc.Revision20260728 {
				judges = append(judges, judge{def: "RequestParams", at: "params", part: member(inst, "params")})
			}
		}
	case jsonrpc.Notification:
		d, ok := r.notifies[m.Method]
		if !ok {
			d = "JSONRPCNotification"
		}
		judges = append(judges, judge{def: d, part: inst})
	case jsonrpc.Response:
		if other, key := foreignMember(revs, rev, member(inst, "result")); other != "" {
			return &Problem{Pointer: "/result/" + key, Definition: "Result of " + other, Reason: key + " is a member of " + other + "'s Result; " + rev + "'s has none"}
		}
		judges = append(judges, judge{def: "JSONRPCResultResponse", part: inst},
			judge{def: r.resultDef(method, member(inst, "result")), at: "result", part: member(inst, "result")})
	case jsonrpc.Error:
		judges = append(judges, judge{def: "JSONRPCErrorResponse", part: inst})
		if d := errorDefs[fmt.Sprint(member(member(inst, "error"), "code"))]; r.available[d] {
			judges = append(judges, judge{def: d, part: inst}) // its data's shape too
		}
	default:
		judges = append(judges, judge{def: "JSONRPCMessage", part: inst})
	}
	for _, j := range judges {
		s, err := r.def(j.def)
		if err != nil {
			return err
		}
		if j.part == nil {
			return &Problem{Pointer: "/" + j.at, Definition: j.def, Reason: "missing"}
		}
		if err := s.Validate(j.part); err != nil {
			ve, ok := err.(*jsonschema.ValidationError)
			if !ok {
				return err
			}
			p := first(ve)
			if j.at != "" {
				p.Pointer = "/" + j.at + p.Pointer
			}
			p.Definition = j.def
			return p
		}
	}
	return nil
}

// extensionNamespaces are the method namespaces an extension owns under a
// revision whose core schema leaves them out, so a method there is no
// era mixing: under 2026-07-28 the tasks extension
// (io.modelcontextprotocol/tasks; DOMAIN.md) carries tasks/* and
// notifications/tasks/*, which 2025-11-25's core schema defines.
var extensionNamespaces = map[string][]string{jsonrpc.Revision20260728: {"tasks/", "notifications/tasks/"}}

// foreign names the other embedded revision whose schema defines method,
// and that definition, when revision rev's schema does not (SCENARIO.md,
// "The wire of each revision": subscriptions/listen, server/discover and
// notifications/subscriptions/acknowledged are 2026-07-28's only;
// initialize, ping, notifications/initialized and resources/subscribe
// 2025-11-25's). It is "" for a method rev defines, one an extension of
// rev owns (extensionNamespaces) and one neither revision defines (a
// vendor's, judged as a JSONRPCRequest or JSONRPCNotification). The
// sets come from the schemas' own definitions, not from a list here.
func foreign(revs map[string]*revision, rev, method string) (other, def string) {
	if revs[rev].definition(method) != "" {
		return "", ""
	}
	for _, ns := range extensionNamespaces[rev] {
		if strings.HasPrefix(method, ns) {
			return "", ""
		}
	}
	for _, o := range Revisions {
		if d := revs[o].definition(method); o != rev && d != "" {
			return o, d
		}
	}
	return "", ""
}

// foreignMember names the other embedded revision whose Result definition
// alone names a member result (a decoded result object) carries, and
// that member (the least by name when several): under 2025-11-25 a
// result with resultType mixes the eras, though that Result's
// additionalProperties let the validator pass it. The members come from
// the schemas' own Result definitions, not from a list here; "" when
// result carries none.
func foreignMember(revs map[string]*revision, rev string, result any) (other, key string) {
	o, ok := result.(map[string]any)
	if !ok {
		return "", ""
	}
	for _, r := range Revisions {
		if r == rev {
			continue
		}
		for k := range o {
			if revs[r].resultMembers[k] && !revs[rev].resultMembers[k] && (key == "" || k < key) {
				other, key = r, k
			}
		}
	}
	return other, key
}

// definition is the request or notification definition whose method is
// method ("" when the schema has none).
func (r *revision) definition(method string) string {
	if d, ok := r.requests[method]; ok {
		return d
	}
	return r.notifies[method]
}

// Foreign names the embedded revision other than rev whose schema alone
// defines method ("" when rev defines it, an extension of rev owns it, or
// neither defines it): a message with that method under rev mixes the
// eras, and Validate fails it at /method. It is "" for a revision with
// no embedded schema.
func Foreign(rev, method string) string {
	revs, err := load()
	if err != nil || revs[rev] == nil {
		return ""
	}
	other, _ := foreign(revs, rev, method)
	return other
}

// errorDefs are the definitions of the errors a revision names by code
// (2026-07-28: HeaderMismatchError, UnsupportedProtocolVersionError), by
// the code's text; an error whose code has none here, or whose revision
// lacks the definition, is judged as a JSONRPCErrorResponse only.
var errorDefs = map[string]string{
	fmt.Sprint(jsonrpc.CodeHeaderMismatch):             "HeaderMismatchError",
	fmt.Sprint(jsonrpc.CodeUnsupportedProtocolVersion): "UnsupportedProtocolVersionError",
}

// member is obj[key] of a decoded object, nil when absent.
func member(v any, key string) any {
	if o, ok := v.(map[string]any); ok {
		return o[key]
	}
	return nil
}

var printer = message.NewPrinter(language.English)

// first is the failing value the deepest leaf of e's causes names (ties:
// the least pointer, so the answer never depends on the order the
// validator met the properties in).
func first(e *jsonschema.ValidationError) *Problem {
	var best *jsonschema.ValidationError
	var bestPtr string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			ptr := pointer(e.InstanceLocation)
			if best == nil || len(e.InstanceLocation) > len(best.InstanceLocation) ||
				len(e.InstanceLocation) == len(best.InstanceLocation) && ptr < bestPtr {
				best, bestPtr = e, ptr
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(e)
	reason := ""
	if best.ErrorKind != nil {
		reason = best.ErrorKind.LocalizedString(printer)
	}
	return &Problem{Pointer: bestPtr, Reason: reason}
}

// pointer writes a location as a JSON Pointer (RFC 6901 §3: ~ as ~0,
// / as ~1).
func pointer(loc []string) string {
	var b strings.Builder
	for _, t := range loc {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}
