//go:build js && wasm && !transcript

package main

import (
	"fmt"
	"syscall/js"

	"github.com/mcplab/mcplab/engine/entry"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
	"github.com/mcplab/mcplab/templates"
)

// The scenario runner's API: mcplab.run and mcplab.render on the page, and
// a scenario page's requests to the worker (lab.go asks them). In main.wasm
// and ledger.wasm, not in import.wasm (-tags transcript), which runs no
// scenario.

func init() {
	labAPI = map[string]any{"run": js.FuncOf(jsRun), "render": js.FuncOf(jsRender)}
	servers["lab"] = serveLab
}

// jsRun is mcplab.run(json): the trace JSON of a scenario, or its error.
func jsRun(_ js.Value, args []js.Value) (result any) {
	defer recoverInto(func(err error) { result = reply("trace", "", err) })
	data, err := stringArg(args)
	if err != nil {
		return reply("trace", "", err)
	}
	out, err := entry.RunJSON([]byte(data), entry.Document{Options: options})
	return reply("trace", string(out), err)
}

// jsRender is mcplab.render(json): the HTML of templates.Output for a
// scenario, or its error.
func jsRender(_ js.Value, args []js.Value) (result any) {
	defer recoverInto(func(err error) { result = reply("html", "", err) })
	data, err := stringArg(args)
	if err != nil {
		return reply("html", "", err)
	}
	tr, err := runScenario([]byte(data))
	if err != nil {
		return reply("html", "", err)
	}
	html, err := renderHTML(templates.Output(tr))
	if err != nil {
		err = fmt.Errorf("rendering the trace: %w", err)
	}
	return reply("html", html, err)
}

// serveLab answers a scenario page (lab.go) in two steps (serve's
// serveRest; splitOutput): req.text is the scenario JSON, req.shown, when
// the page knows it, the id of the timeline view it shows ("" for none).
// The first reply is {out: splitOutput's out, more: true}: the headline,
// the charts and the timeline view on screen, which the page draws at
// once; the second {fill: splitOutput's fill, fragment: the scenario's
// share fragment}: the tables and the hidden view, which it draws after
// the next frame. A scenario that does not run is one reply,
// {error: "message"}.
func serveLab(req js.Value) map[string]any {
	data := []byte(req.Get("text").String())
	tr, err := runScenario(data)
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	shown := req.Get("shown")
	out, rest, err := splitOutput(tr, true, shown.String(), shown.Type() == js.TypeString)
	if err != nil {
		return map[string]any{"error": "rendering the trace: " + err.Error()}
	}
	serveRest = func() map[string]any {
		r := map[string]any{"fill": []any{}}
		if rest != nil {
			fill, err := rest()
			if err != nil {
				return map[string]any{"error": "rendering the trace: " + err.Error()}
			}
			r["fill"] = fill
		}
		if frag, err := scenario.ShareFragment(data); err == nil {
			r["fragment"] = frag
		}
		return r
	}
	return map[string]any{"out": out}
}

// runScenario runs a scenario document as written through the one entry.
func runScenario(data []byte) (*trace.Trace, error) {
	res, err := entry.Run(data, entry.Document{Options: options})
	if err != nil {
		return nil, err
	}
	return res.Trace, nil
}
