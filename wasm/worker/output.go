package worker

import (
	"bytes"
	"context"
	"hash/fnv"
	"strconv"

	"github.com/a-h/templ"

	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/protocol"
)

// RenderHTML renders a component to a string for innerHTML. templ escapes
// every text and attribute value, so scenario text never becomes markup.
func RenderHTML(c templ.Component) (string, error) {
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// HTMLSum is a digest of one block's HTML for the page's comparison
// (protocol.Part.Sum): its length and its 64-bit FNV-1a hash, in hex. Two
// different blocks of one page that share it are as likely as a random
// 64-bit collision.
func HTMLSum(s string) string {
	h := fnv.New64a()
	h.Write([]byte(s))
	return strconv.Itoa(len(s)) + ":" + strconv.FormatUint(h.Sum64(), 16)
}

// Render renders tr's output whole (protocol.Output), with d's charts.
func Render(d templates.Drawing, tr *trace.Trace) (*protocol.Output, error) {
	v := templates.NewView(tr)
	out, err := shell(v)
	if err != nil {
		return nil, err
	}
	for _, part := range templates.OutputParts(v, d.Charts(tr, v)) {
		p := protocol.Part{Key: part.Key, Later: part.Later, Views: make([]protocol.View, len(part.Views))}
		for j, view := range part.Views {
			if p.Views[j], err = renderView(view); err != nil {
				return nil, err
			}
		}
		if err := renderBlock(&p, part); err != nil {
			return nil, err
		}
		out.Parts = append(out.Parts, p)
	}
	return out, nil
}

// shell is an Output with v's div#output, empty, and its attributes.
func shell(v templates.View) (*protocol.Output, error) {
	s, err := RenderHTML(templates.OutputWith(v, nil))
	if err != nil {
		return nil, err
	}
	out := &protocol.Output{Shell: s}
	for _, a := range v.OutputData() {
		out.Attrs = append(out.Attrs, [2]string{a[0], a[1]})
	}
	return out, nil
}

// left is what the second step of a split render draws of one block: the
// block itself (whole), or the indexes of the views left.
type left struct {
	part  int
	whole bool
	views []int
}

// split renders a trace's output in two steps (a lesson page shows a
// control change within a frame): out holds what a reader watches while
// dragging a control (the blocks that are not Later, and of the
// timeline's views only the one with id shown when known is true), the
// rest Pending; rest renders the fill (protocol.LabFill), nil when
// nothing was left.
func split(d templates.Drawing, tr *trace.Trace, shown string, known bool) (out *protocol.Output, rest func() ([]protocol.Part, error), err error) {
	v := templates.NewView(tr)
	parts := templates.OutputParts(v, d.Charts(tr, v))
	if out, err = shell(v); err != nil {
		return nil, nil, err
	}
	var later []left
	out.Parts = make([]protocol.Part, len(parts))
	for i, part := range parts {
		if part.Later {
			out.Parts[i] = protocol.Part{Key: part.Key, Later: true, Pending: true}
			later = append(later, left{part: i, whole: true})
			continue
		}
		l := left{part: i}
		p := protocol.Part{Key: part.Key, Later: part.Later, Views: make([]protocol.View, len(part.Views))}
		for j, view := range part.Views {
			if known && view.ID != shown {
				p.Views[j] = protocol.View{ID: view.ID, Pending: true}
				l.views = append(l.views, j)
				continue
			}
			if p.Views[j], err = renderView(view); err != nil {
				return nil, nil, err
			}
		}
		if len(l.views) > 0 {
			later = append(later, l)
		}
		if err := renderBlock(&p, part); err != nil {
			return nil, nil, err
		}
		out.Parts[i] = p
	}
	if len(later) == 0 {
		return out, nil, nil
	}
	return out, func() ([]protocol.Part, error) { return fill(parts, later) }, nil
}

// fill renders what split left for later: one entry per block, with its
// HTML when the block itself was left, and the views that were.
func fill(parts []templates.OutputPart, later []left) ([]protocol.Part, error) {
	out := make([]protocol.Part, len(later))
	for k, l := range later {
		part := parts[l.part]
		entry := protocol.Part{Key: part.Key}
		idx := l.views
		if l.whole {
			if err := renderBlock(&entry, part); err != nil {
				return nil, err
			}
			idx = make([]int, len(part.Views))
			for j := range idx {
				idx[j] = j
			}
		}
		entry.Views = make([]protocol.View, len(idx))
		for n, j := range idx {
			var err error
			if entry.Views[n], err = renderView(part.Views[j]); err != nil {
				return nil, err
			}
		}
		out[k] = entry
	}
	return out, nil
}

// renderBlock renders a block's HTML into p, with a protocol.ViewSlot for
// each of its views (which the reply carries apart).
func renderBlock(p *protocol.Part, part templates.OutputPart) error {
	c := part.Component
	if len(part.Views) > 0 {
		slots := make([]templ.Component, len(part.Views))
		for j := range slots {
			slots[j] = templ.Raw(protocol.ViewSlot)
		}
		c = part.Shell(slots)
	}
	s, err := RenderHTML(c)
	if err != nil {
		return err
	}
	p.HTML, p.Sum = s, HTMLSum(s)
	return nil
}

// renderView renders one view of a block.
func renderView(view templates.OutputView) (protocol.View, error) {
	s, err := RenderHTML(view.Component)
	if err != nil {
		return protocol.View{}, err
	}
	return protocol.View{ID: view.ID, HTML: s, Sum: HTMLSum(s)}, nil
}
