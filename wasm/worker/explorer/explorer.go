// Package explorer answers the race explorer page's requests in the
// engine worker (wasm/protocol's ExploreRequest): a part of the window
// (engine/explore's Part) or the run at one cell, rendered. Only
// explore.wasm links it, so no other page carries the explorer.
package explorer

import (
	"encoding/json"
	"strconv"

	"github.com/mcplab/mcplab/engine"
	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/explore"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/protocol"
	"github.com/mcplab/mcplab/wasm/worker"
)

// Server answers the explorer page's requests; Options are every run's.
type Server struct {
	Options engine.Options
	// Charts are the summary charts a run of the map draws
	// (templates.AllCharts: its workers run a ledger when the page loaded
	// SQLite).
	Charts templates.Drawing
}

// Explore answers a protocol.ExploreRequest by its action.
func (s *Server) Explore(o protocol.Object) protocol.Reply {
	req := protocol.ReadExploreRequest(o)
	if req.Action == protocol.ExploreRun {
		return s.run(req)
	}
	return s.part(req)
}

// part explores part req.Part of req.Parts (explore.Split, then Part).
func (s *Server) part(req protocol.ExploreRequest) protocol.Reply {
	data := []byte(req.Text)
	plan, err := explore.Split(data, nil, req.Parts)
	if err != nil {
		return protocol.ExplorePartReply{Part: req.Part, Err: worker.Located(data, err)}
	}
	rep, err := explore.Part(data, plan, req.Part, explore.Options{Engine: s.Options, LinkBase: req.LinkBase})
	if err != nil {
		return protocol.ExplorePartReply{Part: req.Part, Err: worker.Located(data, err)}
	}
	js, err := json.Marshal(rep)
	if err != nil {
		return protocol.ExplorePartReply{Part: req.Part, Err: protocol.Internal("encoding the report", err)}
	}
	return protocol.ExplorePartReply{Part: req.Part, Report: string(js)}
}

// run runs the scenario at the cell's values and renders its output.
func (s *Server) run(req protocol.ExploreRequest) protocol.Reply {
	data := []byte(req.Text)
	plan, err := explore.Split(data, nil, 1)
	if err != nil {
		return protocol.ExploreRunReply{Err: worker.Located(data, err)}
	}
	vals := make(explore.Values, 0, len(plan.Vary))
	for i, v := range plan.Vary {
		if i >= len(req.Values) {
			break
		}
		n, err := strconv.ParseInt(req.Values[i], 10, 64)
		if err != nil {
			return protocol.ExploreRunReply{Err: &protocol.Error{Kind: protocol.KindInvalid, Message: v.Path + ": " + err.Error()}}
		}
		vals = append(vals, explore.Value{Path: v.Path, Value: n})
	}
	doc, err := explore.At(data, vals)
	if err != nil {
		return protocol.ExploreRunReply{Err: worker.Located(data, err)}
	}
	res, err := entry.Run(doc, entry.Document{Options: s.Options})
	if err != nil {
		return protocol.ExploreRunReply{Err: worker.Located(doc, err)}
	}
	html, err := worker.RenderHTML(s.Charts.Output(res.Trace))
	if err != nil {
		return protocol.ExploreRunReply{Err: protocol.Internal("rendering the run", err)}
	}
	frag, _ := scenario.ShareFragment(doc)
	label := ""
	for i, v := range vals {
		if i > 0 {
			label += ", "
		}
		label += v.Path + " = " + strconv.FormatInt(v.Value, 10)
	}
	return protocol.ExploreRunReply{HTML: html, Fragment: frag, Label: label}
}
