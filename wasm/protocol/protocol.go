// Package protocol is the language the page and the engine worker speak
// (ARCHITECTURE.md, "Outside engine/"): one request type per page that
// asks (PlaygroundRequest, LabRequest, ImportRequest, ReviewRequest,
// ExploreRequest), one reply type per answer, and Error, whose Kind says
// what went wrong (invalid, bound, no ledger, worker stopped, internal) so
// no page re-reads an error's text to tell them apart.
//
// A request travels as a plain JavaScript object (Fields on the page,
// ReadRequest in the worker: app.js and worker.js pass it on and compare
// a scenario page's first one by its fields); a reply travels as JSON
// text (AppendJSON in the worker, read on the page by the Read functions
// over the parsed object, an Object). The package uses no syscall/js, so
// every shape here is tested natively.
package protocol

// Page names the page controller a request comes from; the worker serves
// it by this name (the request's "page" field).
type Page string

// The pages that ask the worker.
const (
	PageLab        Page = "lab"        // a scenario page (templates.ScenarioPage)
	PagePlayground Page = "playground" // the playground (templates.PlaygroundPage)
	PageImport     Page = "import"     // the transcript import page (templates.ImportPage)
	PageReview     Page = "review"     // the live review page (templates.ReviewPage)
)

// Object is a decoded JavaScript object as either side reads it: a
// js.Value on the page and in the worker, a Map in tests. Each method
// answers for one field; a missing field, or one of another type, reads
// as its zero value and false.
type Object interface {
	// Str is the field's string.
	Str(key string) (string, bool)
	// Num is the field's number.
	Num(key string) (float64, bool)
	// Truthy is the field's truth, as JavaScript's Boolean(value).
	Truthy(key string) bool
	// Obj is the field's object (not an array).
	Obj(key string) (Object, bool)
	// Strings is the field's array of strings (nil when it is not one).
	Strings(key string) []string
}

// Map is an Object over a Go map of the values a JSON decoder makes
// (string, float64, bool, []any, map[string]any) or a request's Fields
// (which also holds int).
type Map map[string]any

// Str implements Object.
func (m Map) Str(key string) (string, bool) {
	s, ok := m[key].(string)
	return s, ok
}

// Num implements Object.
func (m Map) Num(key string) (float64, bool) {
	switch v := m[key].(type) {
	case float64:
		return v, true
	case int:
		return float64(v), true
	}
	return 0, false
}

// Truthy implements Object: false, 0, "", null and a missing field are
// false, as in JavaScript.
func (m Map) Truthy(key string) bool {
	switch v := m[key].(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case float64:
		return v != 0
	case int:
		return v != 0
	}
	return true
}

// Obj implements Object.
func (m Map) Obj(key string) (Object, bool) {
	o, ok := m[key].(map[string]any)
	return Map(o), ok
}

// Strings implements Object.
func (m Map) Strings(key string) []string {
	switch v := m[key].(type) {
	case []string:
		return v
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// str is o's string field key, "" when it has none.
func str(o Object, key string) string {
	s, _ := o.Str(key)
	return s
}

// num is o's number field key as an int, 0 when it has none.
func num(o Object, key string) int {
	n, _ := o.Num(key)
	return int(n)
}
