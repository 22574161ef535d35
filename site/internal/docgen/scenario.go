// Package docgen writes the parts of docs/ that the code already states:
// the scenario format reference from the JSON Schema the engine embeds
// (engine/scenario's scenario.schema.json, served as /scenario.schema.json)
// and the package map from each package's own doc comment and imports. A
// maintainer reads docs/ without opening the code, and a test keeps each
// generated file equal to what its source says today.
package docgen

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcplab/mcplab/engine/checks"
	"github.com/mcplab/mcplab/engine/rulebook"
)

// schemaNode is the part of a JSON Schema (draft 2020-12) object that the
// scenario schema uses: the keywords a reader needs to write a member.
type schemaNode struct {
	Title                string                 `json:"title"`
	Description          string                 `json:"description"`
	Type                 json.RawMessage        `json:"type"`
	Ref                  string                 `json:"$ref"`
	Const                json.RawMessage        `json:"const"`
	Enum                 []json.RawMessage      `json:"enum"`
	Minimum              *json.Number           `json:"minimum"`
	Maximum              *json.Number           `json:"maximum"`
	MaxItems             *json.Number           `json:"maxItems"`
	MaxLength            *json.Number           `json:"maxLength"`
	Required             []string               `json:"required"`
	Properties           properties             `json:"properties"`
	AdditionalProperties json.RawMessage        `json:"additionalProperties"`
	Items                *schemaNode            `json:"items"`
	OneOf                []*schemaNode          `json:"oneOf"`
	Defs                 map[string]*schemaNode `json:"$defs"`
}

// properties keeps an object's members in the schema's own order, which
// is the order a reader meets them in (mcplab, title, notes, protocol, …).
type properties struct {
	names []string
	nodes map[string]*schemaNode
}

// UnmarshalJSON reads a "properties" object, keeping its key order.
func (p *properties) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // {
		return err
	}
	p.nodes = map[string]*schemaNode{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := tok.(string)
		var n schemaNode
		if err := dec.Decode(&n); err != nil {
			return fmt.Errorf("properties.%s: %w", name, err)
		}
		p.names = append(p.names, name)
		p.nodes[name] = &n
	}
	return nil
}

// member is one row of a reference table: a member's dotted path from the
// document's root, what it takes, and what the schema says of it.
type member struct {
	path, takes, description string
	required                 bool
}

// Scenario returns docs/scenario.md: the scenario format as
// scenario.schema.json states it, one section per top-level member and one
// per step verb, each member with its path, what it takes (type, range,
// values) and its description, with its citations of the domain notes
// linked (rulebook.MarkdownCitations). It fails only on a schema that is
// not JSON.
func Scenario(schema []byte) (string, error) {
	var root schemaNode
	dec := json.NewDecoder(strings.NewReader(string(schema)))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return "", fmt.Errorf("scenario schema: %w", err)
	}
	var b strings.Builder
	b.WriteString("# The scenario format\n\n")
	b.WriteString("<!-- Generated from engine/scenario/scenario.schema.json by `go test ./site/internal/docgen -update`; edit the schema, not this file. -->\n\n")
	b.WriteString(root.Description + "\n\n")
	b.WriteString("A scenario is one JSON object. The site serves the same schema at `/scenario.schema.json` (editors complete from it), " +
		"`go doc github.com/mcplab/mcplab/engine/scenario` lists the Go side, and `engine/examples/` holds a working scenario for every verb and policy. " +
		"Every switch's default is the correct behaviour; which failure each switch brings back, and which rule catches it, is in " + checks.DomainNotes + " §11.\n\n")
	b.WriteString("## Top-level members\n\n")
	var top []member
	for _, name := range root.Properties.names {
		n := root.Properties.nodes[name]
		top = append(top, member{path: name, takes: takes(n, root.Defs), description: n.Description, required: contains(root.Required, name)})
	}
	writeTable(&b, top)
	for _, name := range root.Properties.names {
		n := root.Properties.nodes[name]
		if name == "steps" {
			writeSteps(&b, n, root.Defs)
			continue
		}
		rows := flatten(name, n, root.Defs)
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "## `%s`\n\n%s\n\n", name, n.Description)
		writeTable(&b, rows)
	}
	return rulebook.MarkdownCitations(b.String()), nil
}

// writeSteps writes the script: one section per verb of steps[].oneOf, in
// the schema's order, each with its members.
func writeSteps(b *strings.Builder, steps *schemaNode, defs map[string]*schemaNode) {
	fmt.Fprintf(b, "## `steps`\n\n%s\n\n", steps.Description)
	if steps.Items == nil {
		return
	}
	for _, verb := range steps.Items.OneOf {
		name := verb.Title
		if do := verb.Properties.nodes["do"]; name == "" && do != nil {
			name = strings.Trim(string(do.Const), `"`)
		}
		fmt.Fprintf(b, "### `%s`\n\n%s\n\n", name, verb.Description)
		var rows []member
		for _, key := range verb.Properties.names {
			n := verb.Properties.nodes[key]
			rows = append(rows, member{path: key, takes: takes(n, defs), description: n.Description, required: contains(verb.Required, key)})
			rows = append(rows, flatten(key, n, defs)...)
		}
		writeTable(b, rows)
	}
}

// flatten lists the members under n (an object's properties, a map's
// values as <name>, an array's items as []), depth first, paths from
// prefix.
func flatten(prefix string, n *schemaNode, defs map[string]*schemaNode) []member {
	var rows []member
	for _, key := range n.Properties.names {
		c := n.Properties.nodes[key]
		path := prefix + "." + key
		rows = append(rows, member{path: path, takes: takes(c, defs), description: c.Description, required: contains(n.Required, key)})
		rows = append(rows, flatten(path, c, defs)...)
	}
	if values := mapValues(n); values != nil {
		path := prefix + ".<name>"
		rows = append(rows, member{path: path, takes: takes(values, defs), description: values.Description})
		rows = append(rows, flatten(path, values, defs)...)
	}
	if n.Items != nil && (len(n.Items.Properties.names) > 0 || mapValues(n.Items) != nil) {
		rows = append(rows, flatten(prefix+"[]", n.Items, defs)...)
	}
	return rows
}

// mapValues returns the schema of an object's values when the object is a
// map (additionalProperties is a schema, not a boolean), else nil.
func mapValues(n *schemaNode) *schemaNode {
	if len(n.AdditionalProperties) == 0 || n.AdditionalProperties[0] != '{' {
		return nil
	}
	var v schemaNode
	dec := json.NewDecoder(strings.NewReader(string(n.AdditionalProperties)))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil
	}
	return &v
}

// takes says what a member accepts, in the words a reader writes: its
// type (a $ref by the definition's own type), a fixed value, its values,
// its integer range, the most items or characters.
func takes(n *schemaNode, defs map[string]*schemaNode) string {
	if n.Ref != "" {
		if d := defs[strings.TrimPrefix(n.Ref, "#/$defs/")]; d != nil {
			return takes(d, defs)
		}
	}
	if len(n.Const) > 0 {
		return "`" + string(n.Const) + "`"
	}
	if len(n.Enum) > 0 {
		values := make([]string, len(n.Enum))
		for i, v := range n.Enum {
			values[i] = "`" + string(v) + "`"
		}
		return "one of " + strings.Join(values, ", ")
	}
	t := typeWords(n.Type)
	switch {
	case n.Minimum != nil && n.Maximum != nil:
		t += " " + thousands(*n.Minimum) + "–" + thousands(*n.Maximum)
	case n.Minimum != nil:
		t += " ≥ " + thousands(*n.Minimum)
	case n.Maximum != nil:
		t += " ≤ " + thousands(*n.Maximum)
	}
	if n.MaxItems != nil {
		t += ", at most " + thousands(*n.MaxItems) + " items"
	}
	if n.MaxLength != nil {
		t += ", at most " + thousands(*n.MaxLength) + " characters"
	}
	return t
}

// typeWords reads the type keyword, a name or a list of names.
func typeWords(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "any JSON value"
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return one
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return strings.Join(many, " or ")
	}
	return string(raw)
}

// thousands writes an integer with commas (86,400,000), as the docs write
// numbers; anything else as the schema has it.
func thousands(n json.Number) string {
	v, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		return string(n)
	}
	s := strconv.FormatInt(v, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// writeTable writes rows as a Markdown table; a pipe or a line break in a
// description is escaped so it stays one cell.
func writeTable(b *strings.Builder, rows []member) {
	b.WriteString("| member | takes | description |\n|---|---|---|\n")
	for _, r := range rows {
		path := "`" + r.path + "`"
		if r.required {
			path += " (required)"
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", path, cell(r.takes), cell(r.description))
	}
	b.WriteString("\n")
}

func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
