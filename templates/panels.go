package templates

// The panels the pages embed that the browser also renders alone: the
// controls, the explorer's output and the review body.

import "github.com/a-h/templ"

// ExploreOutput is the explorer's output block (#explore-out): what was
// explored, the map or strip with its legend, the counterexamples and the
// map as a table, for out.
func ExploreOutput(out ExploreOut) templ.Component {
	return exploreOutput(newExploreView(out))
}

// ControlPanel is the content of the fieldset #lab-controls: a legend for
// screen readers, the groups the page's story is about (its own sections,
// the script's times, and a "This story's switches" fieldset with every
// Lead control of the transport, client and server groups), then those
// general groups folded under one <details> "More switches". The
// playground re-renders it whenever the scenario's shape changes.
func ControlPanel(groups []controlGroup) templ.Component {
	lead, more := splitPanel(groups)
	return controlPanelView(lead, more)
}

// ReviewBody is the review itself (reviewBody), rendered with v.Root in
// its context so each verdict links its rule's page under the site root,
// in the prerendered page and in the worker's render alike.
func ReviewBody(v ReviewView) templ.Component { return rooted(v.Root, reviewBody(v)) }
