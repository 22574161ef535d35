//go:build js && wasm

package explorepage

import (
	"strconv"
	"syscall/js"

	"github.com/mcplab/mcplab/templates"
	"github.com/mcplab/mcplab/wasm/bridge"
	"github.com/mcplab/mcplab/wasm/page"
	"github.com/mcplab/mcplab/wasm/protocol"
)

// wireMap listens on #explore-out, whose map is redrawn as parts answer:
// hovering a cell reads it, a click opens its run; on the focused map the
// arrow keys move the cursor and Enter or Space opens the cell's run.
func (x *explorer) wireMap() {
	out := page.ByID(x.doc, "explore-out")
	page.On(out, "mousemove", x.fail, func(ev js.Value) {
		if i, j, ok := x.cellAt(ev); ok {
			x.row, x.col = i, j
			x.cursor(true)
		}
	})
	page.On(out, "click", x.fail, func(ev js.Value) {
		if i, j, ok := x.cellAt(ev); ok {
			x.row, x.col = i, j
			x.cursor(true)
			x.openRun()
		}
	})
	page.On(out, "focusin", x.fail, func(ev js.Value) {
		if ev.Get("target").Get("id").String() == "explore-svg" {
			x.cursor(true)
		}
	})
	page.On(out, "keydown", x.fail, func(ev js.Value) {
		if ev.Get("target").Get("id").String() != "explore-svg" {
			return
		}
		if x.key(ev.Get("key").String()) {
			ev.Call("preventDefault")
		}
	})
}

// key moves the cursor or opens the run for one key; false for a key the
// map leaves to the browser.
func (x *explorer) key(k string) bool {
	rows, cols := x.size()
	switch k {
	case "ArrowUp":
		x.row = max(x.row-1, 0)
	case "ArrowDown":
		x.row = min(x.row+1, rows-1)
	case "ArrowLeft":
		x.col = max(x.col-1, 0)
	case "ArrowRight":
		x.col = min(x.col+1, cols-1)
	case "Home":
		x.col = 0
	case "End":
		x.col = cols - 1
	case "Enter", " ":
		x.openRun()
		return true
	default:
		return false
	}
	x.cursor(true)
	return true
}

// size is the map's rows and columns (a strip is one row).
func (x *explorer) size() (rows, cols int) {
	if x.merged == nil || x.merged.Grid == nil || len(x.merged.Grid.Values) == 0 {
		return 0, 0
	}
	v := x.merged.Grid.Values
	if len(v) == 1 {
		return 1, len(v[0])
	}
	return len(v[0]), len(v[1])
}

// cellAt is the map cell under a mouse event, when it is over the map.
func (x *explorer) cellAt(ev js.Value) (int, int, bool) {
	svg := ev.Get("target").Call("closest", "#explore-svg")
	rows, cols := x.size()
	if !svg.Truthy() || rows == 0 {
		return 0, 0, false
	}
	box := svg.Call("getBoundingClientRect")
	w, h := box.Get("width").Float(), box.Get("height").Float()
	if w <= 0 || h <= 0 {
		return 0, 0, false
	}
	// The viewBox has a margin of 2 units around the cells.
	const cell = templates.ExploreCell
	unitsW, unitsH := float64(cols*cell+4), float64(rows*cell+4)
	cx := (ev.Get("clientX").Float()-box.Get("left").Float())*unitsW/w - 2
	cy := (ev.Get("clientY").Float()-box.Get("top").Float())*unitsH/h - 2
	i, j := int(cy/cell), int(cx/cell)
	if cx < 0 || cy < 0 || i >= rows || j >= cols {
		return 0, 0, false
	}
	return i, j, true
}

// cell is the cell's values and its class in words.
func (x *explorer) cell(i, j int) (values []string, text string) {
	g := x.merged.Grid
	rows, cols := x.size()
	if i >= rows || j >= cols {
		return nil, ""
	}
	k := i*cols + j
	var parts []string
	if len(g.Values) == 1 {
		values = []string{strconv.FormatInt(g.Values[0][j], 10)}
	} else {
		values = []string{strconv.FormatInt(g.Values[0][i], 10), strconv.FormatInt(g.Values[1][j], 10)}
	}
	for d, v := range values {
		parts = append(parts, x.merged.Vary[d].Path+" = "+v)
	}
	text = joinComma(parts) + ": "
	if c := g.Cells[k]; c >= 0 && c < len(x.merged.Classes) {
		text += "class " + templates.ClassLetter(c) + ", " + x.merged.Classes[c].Key
	} else {
		text += "not explored yet"
	}
	return values, text
}

// cursor moves the map's cursor to the current cell and reads it (show:
// make it visible; else it keeps its visibility, after a redraw).
func (x *explorer) cursor(show bool) {
	c := page.ByID(x.doc, "explore-cursor")
	rows, cols := x.size()
	if !c.Truthy() || rows == 0 {
		return
	}
	x.row, x.col = min(x.row, rows-1), min(x.col, cols-1)
	c.Call("setAttribute", "x", strconv.Itoa(x.col*templates.ExploreCell))
	c.Call("setAttribute", "y", strconv.Itoa(x.row*templates.ExploreCell))
	if show || x.shown {
		x.shown = true
		c.Call("setAttribute", "visibility", "visible")
		_, text := x.cell(x.row, x.col)
		page.ByID(x.doc, "explore-cell").Set("textContent", text)
	}
}

// openRun runs the cursor's cell on a worker and shows it below the map.
func (x *explorer) openRun() {
	values, text := x.cell(x.row, x.col)
	if values == nil {
		return
	}
	sec := page.ByID(x.doc, "explore-run")
	sec.Set("hidden", false)
	page.ByID(x.doc, "explore-run-label").Set("textContent", text)
	req := protocol.ExploreRequest{Action: protocol.ExploreRun, Text: x.text, Values: values}
	x.run = &pending{fields: req.Fields(), done: func(a js.Value) {
		r := protocol.ReadExploreRunReply(bridge.Object{Value: a})
		if r.Err != nil {
			x.showError(r.Err.Message)
			return
		}
		page.ByID(x.doc, "explore-run-label").Set("textContent", r.Label)
		page.ByID(x.doc, "explore-run-open").Set("href", linkBase+"#"+r.Fragment)
		out := page.ByID(x.doc, "explore-run-out")
		js.Global().Call("mcplabMorph", out, `<div id="explore-run-out" class="lab-output">`+r.HTML+`</div>`)
		sec.Get("dataset").Set("cell", text)
	}}
	x.pump()
}

// pending is a run waiting for an idle worker (the newest click wins).
type pending struct {
	fields map[string]any
	done   func(js.Value)
}

// joinComma joins parts with ", ".
func joinComma(parts []string) string {
	s := ""
	for i, p := range parts {
		if i > 0 {
			s += ", "
		}
		s += p
	}
	return s
}
