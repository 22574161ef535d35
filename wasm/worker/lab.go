package worker

import (
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/protocol"
)

// Lab answers a protocol.LabRequest in two steps: a protocol.LabPicture
// now (the headline, the charts and the timeline view on screen, which
// the page draws at once) and, from More, a protocol.LabFill (the tables
// and the hidden view, drawn after the next frame). With Adopt (the
// page's first run of its own scenario, which it shows prerendered) the
// answer is one protocol.LabAdopt. A scenario that does not run is one
// LabPicture with its error.
func (s *Server) Lab(o protocol.Object) protocol.Reply {
	req := protocol.ReadLabRequest(o)
	data := []byte(req.Text)
	tr, err := s.run(data)
	if err != nil {
		return protocol.LabPicture{Err: protocol.Fail(err, protocol.Place{})}
	}
	if req.Adopt {
		return adopt(s.Charts, tr, data)
	}
	out, rest, err := split(s.Charts, tr, req.Shown, req.ShownKnown)
	if err != nil {
		return protocol.LabPicture{Err: protocol.Internal("rendering the trace", err)}
	}
	s.rest = func() protocol.Reply {
		reply := protocol.LabFill{}
		if rest != nil {
			if reply.Fill, err = rest(); err != nil {
				return protocol.LabFill{Err: protocol.Internal("rendering the trace", err)}
			}
		}
		if frag, err := scenario.ShareFragment(data); err == nil {
			reply.Fragment = frag
		}
		return reply
	}
	return protocol.LabPicture{Out: out}
}

// adopt answers a page that shows the run already (prerendered by the
// site's build, byte for byte what the worker would render: the site's
// tests compare them), so nothing is rendered: the keys of the blocks it
// shows, in order. The run itself proves the engine works here.
func adopt(d templates.Drawing, tr *trace.Trace, data []byte) protocol.LabAdopt {
	v := templates.NewView(tr)
	parts := templates.OutputParts(v, d.Charts(tr, v))
	r := protocol.LabAdopt{Keys: make([]string, len(parts))}
	for i, part := range parts {
		r.Keys[i] = part.Key
	}
	if frag, err := scenario.ShareFragment(data); err == nil {
		r.Fragment = frag
	}
	return r
}

// run runs a scenario document as written through the one entry.
func (s *Server) run(data []byte) (*trace.Trace, error) {
	res, err := entry.Run(data, entry.Document{Options: s.Options})
	if err != nil {
		return nil, err
	}
	return res.Trace, nil
}

// RunJSON is mcplab.run(json): the trace JSON of a scenario document.
func (s *Server) RunJSON(text string) (string, error) {
	out, err := entry.RunJSON([]byte(text), entry.Document{Options: s.Options})
	return string(out), err
}

// RenderJSON is mcplab.render(json): the HTML of templates.Output for a
// scenario document.
func (s *Server) RenderJSON(text string) (string, error) {
	tr, err := s.run([]byte(text))
	if err != nil {
		return "", err
	}
	html, err := RenderHTML(s.Charts.Output(tr))
	if err != nil {
		return "", protocol.Internal("rendering the trace", err)
	}
	return html, nil
}
