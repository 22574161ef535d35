package site

import (
	"testing"
)

// morphNestedJS patches a block larger than app.js's parseChars (so it is
// parsed and patched in steps) and, while that runs, patches an element
// inside it with newer HTML; it resolves, once mcplabMorph is idle, with
// the inner element's text and how many of the block's other elements
// were drawn.
const morphNestedJS = `(async () => {
  const host = document.createElement("div");
  host.id = "zz-host";
  host.innerHTML = '<div id="zz-kid">initial</div>';
  document.body.append(host);
  const filler = '<p class="zz-fill">' + "x".repeat(90) + "</p>";
  const n = 600; // about 60 KB: parsed and patched a step at a time
  mcplabMorph(host, '<div id="zz-host"><div id="zz-kid">older</div>' + filler.repeat(n) + "</div>");
  mcplabMorph(document.getElementById("zz-kid"), '<div id="zz-kid">newer</div>');
  const t0 = performance.now();
  while (mcplabMorph.busy && performance.now() - t0 < 20000) await new Promise((r) => setTimeout(r, 20));
  return {busy: mcplabMorph.busy, kid: document.getElementById("zz-kid").textContent, fill: host.querySelectorAll("p.zz-fill").length, want: n};
})()`

// Rule (the import page's timeline kept the example it opened with after
// a paste, while its tables showed the pasted transcript: CI at 7361c35):
// a patch of an element inside a block that mcplabMorph is still patching
// in steps is not undone by that older patch; the older patch draws the
// rest of its block.
func TestMorphOfAnInnerElementOutlivesTheOlderOuterPatch(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/s/"+scenarioA+"/")
	waitReady(t, ctx)
	type result struct {
		Busy       bool
		Kid        string
		Fill, Want int
	}
	r := evalJSONAwait[result](t, ctx, morphNestedJS)
	if r.Busy {
		t.Fatal("mcplabMorph still busy after 20 s")
	}
	if r.Kid != "newer" {
		t.Errorf("the inner element reads %q after the outer patch ended, want the newer %q", r.Kid, "newer")
	}
	if r.Fill != r.Want {
		t.Errorf("the outer patch drew %d of its %d other elements", r.Fill, r.Want)
	}
}
