package site

// Tests of the import page: a real Go SDK transcript pasted into the
// page is judged in the browser with the same checks as natively, and the
// violation is marked on the timeline at the offending message.

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/transcript"
	"github.com/mcplab/mcplab/site/internal/build"
	"github.com/mcplab/mcplab/templates"
)

// goSDKTranscripts are server-side mcp.LoggingTransport logs of go-sdk
// v1.8.0 peers when the client's context timed out during a tool call: the
// one a user first reported (initialize, protocol 2025-06-18), and what the SDK
// writes now over its in-memory transport (server/discover, 2026-07-28; see
// engine/transcript's TestGoSDKResponseAfterCancel). Both write a result
// for request 2 after reading its cancellation.
var goSDKTranscripts = map[string]string{
	"issue-7": `read: {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"clientInfo":{"name":"lab-client","version":"v0.0.1"},"protocolVersion":"2025-06-18"}}
write: {"jsonrpc":"2.0","id":1,"result":{"capabilities":{"logging":{},"tools":{"listChanged":true}},"protocolVersion":"2025-06-18","serverInfo":{"name":"lab-server","version":"v0.0.1"}}}
read: {"jsonrpc":"2.0","method":"notifications/initialized","params":{}}
read: {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":"tok-1"},"arguments":{},"name":"work"}}
write: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"progressToken":"tok-1","total":2}}
read: {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"context deadline exceeded","requestId":2}}
write: {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"context canceled"}],"isError":true}}
`,
	"go-sdk-now": build.ImportExample,
}

// Rule: the Go SDK's response after an accepted cancellation,
// pasted into the import page, is judged in the browser (nothing leaves
// the origin: the watcher fails the test otherwise): no-message-after-cancel
// fails, the violation is listed with a link to its event, and the
// timeline marks the offending message. The page's judgement is the
// native import's.
func TestImportGoSDKTranscriptMarksViolation(t *testing.T) {
	const rule = "no-message-after-cancel"
	for name, log := range goSDKTranscripts {
		t.Run(name, func(t *testing.T) {
			native, err := transcript.Import([]byte(log), transcript.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var bad []int
			for _, c := range native.Checks {
				if c.Rule == rule && c.OK != nil && !*c.OK {
					bad = c.Events
				}
			}
			if len(bad) == 0 {
				t.Fatalf("natively, %s does not fail on this transcript", rule)
			}
			ctx, w := openTab(t, siteURL)
			navigate(t, ctx, siteURL+"/import/")
			waitReady(t, ctx)
			// Empty it first, so what follows is the pasted transcript's result.
			typeInto(t, ctx, "#imp-input", " ")
			waitFor(t, ctx, "the empty box's status", `document.getElementById("lab-status").textContent === `+strconv.Quote(templates.ImportEmptyStatus))
			typeInto(t, ctx, "#imp-input", log)
			// Drawn, not only answered, and this transcript's, not the
			// example's the page opened with: the events table (the second
			// step, after the timeline) holds this transcript's rows. The
			// clean-clone CI run at 7361c35, at a high load, read the
			// example's timeline marks (seq 6) here.
			waitFor(t, ctx, "the import", `document.getElementById("lab-error").hidden && !document.getElementById("imp-result").dataset.stale && `+settledJS)
			waitFor(t, ctx, "the events table of this transcript", fmt.Sprintf(`document.querySelectorAll("#events tbody tr[id^='event-']").length === %d && !!document.getElementById("event-%d")`, len(native.Events), bad[0]))

			if got := evalJSON[string](t, ctx, `document.getElementById("imp-source").textContent`); !strings.Contains(got, "written by the server") {
				t.Errorf("source %q does not say the server wrote it", got)
			}
			if got := evalJSON[map[string]string](t, ctx, checksJS); !maps.Equal(got, checkResults(native)) {
				t.Errorf("checks in the page %v, natively %v", got, checkResults(native))
			}
			// Listed, with a link to the offending event that exists.
			href := evalJSON[string](t, ctx, fmt.Sprintf(`document.querySelector('#imp-violations li[data-rule=%q] a[href^="#event-"]')?.getAttribute("href") ?? ""`, rule))
			if href != fmt.Sprintf("#event-%d", bad[0]) {
				t.Errorf("violation link %q, want #event-%d", href, bad[0])
			}
			// It names the pasted line the event was read from, as the
			// headline does, not the event's number in the trace.
			line := fmt.Sprintf("line %d", native.Events[bad[0]].Line)
			if got := evalJSON[string](t, ctx, fmt.Sprintf(`document.querySelector('#imp-violations li[data-rule=%q] a[href^="#event-"]')?.textContent ?? ""`, rule)); got != line {
				t.Errorf("violation link reads %q, want %q", got, line)
			}
			if got := evalJSON[string](t, ctx, `document.querySelector("#verdict .verdict-detail")?.textContent ?? ""`); !strings.Contains(got, "("+line+")") {
				t.Errorf("the headline says %q, want it to cite (%s)", got, line)
			}
			// Marked on the timeline, at that message.
			type marked struct {
				Seq        int    `json:"seq"`
				DeliverSeq int    `json:"deliverSeq"`
				Method     string `json:"method"`
				Title      string `json:"title"`
			}
			// The timeline on screen: a page redraws only the layout it shows
			// (the other is drawn when it comes on screen), so the hidden
			// one may still hold the example the page opened with.
			ms := evalJSON[[]marked](t, ctx, fmt.Sprintf(`Array.from(Array.from(document.querySelectorAll('svg.timeline')).find((s) => s.checkVisibility())?.querySelectorAll('[data-violation~=%q]') ?? []).map(e => ({seq: Number(e.dataset.seq), deliverSeq: Number(e.dataset.deliverSeq ?? -1), method: e.dataset.method ?? "", title: e.querySelector("title")?.textContent ?? ""}))`, rule))
			if len(ms) == 0 {
				t.Fatalf("the timeline marks nothing with data-violation=%s", rule)
			}
			found := false
			for _, m := range ms {
				if slices.Contains(bad, m.Seq) || slices.Contains(bad, m.DeliverSeq) {
					found = true
				}
				if !strings.Contains(m.Title, "breaks "+rule) {
					t.Errorf("marked element %+v: its title does not say it breaks %s", m, rule)
				}
			}
			if !found {
				t.Errorf("marked %+v, none is the offending event %v", ms, bad)
			}
			// The link scrolls to the event's row and keeps the page's address.
			// The events table is patched after the next frame (wasm/output.go):
			// wait until it holds this transcript's rows, so the patch cannot
			// replace the highlighted row after the click.
			waitFor(t, ctx, "the events table of this transcript", fmt.Sprintf(`document.querySelectorAll("#events tbody tr[id^='event-']").length === %d && !!document.getElementById("event-%d")`, len(native.Events), bad[0]))
			before := evalJSON[string](t, ctx, `location.href`)
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#imp-violations li[data-rule=%q] a:not(.rule-ref)`, rule)))); err != nil {
				t.Fatal(err)
			}
			waitFor(t, ctx, "the event row highlighted", fmt.Sprintf(`document.getElementById("event-%d").classList.contains("targeted")`, bad[0]))
			if after := evalJSON[string](t, ctx, `location.href`); after != before {
				t.Errorf("following the violation link changed the address to %s", after)
			}
			for _, u := range w.Requests() {
				if strings.Contains(u, "context") || strings.Contains(u, "tok-1") {
					t.Errorf("a request carries the transcript: %s", u)
				}
			}
		})
	}
}

// Rule: a malformed transcript gives its error with the line, the
// last good result stays (stale), and the page keeps working.
func TestImportMalformedTranscript(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/import/")
	waitReady(t, ctx)
	for _, tc := range []struct{ name, text, want string }{
		{"truncated line", "read: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\nwrite: {\"jsonrpc\":\"2.0\",\"id\":1,\"res", "line 2"},
		{"unknown format", "GET /mcp HTTP/1.1\nHost: example", "line 1"},
		{"not json lines", "{\"t\": 0, \"from\": \"client\", \"message\": {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}}\n{\"t\": 1, \"from\": \"nobody\", \"message\": {}}", "line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typeInto(t, ctx, "#imp-input", tc.text)
			// Wait for this input's error, not the previous subtest's (still shown).
			wantJS := strconv.Quote(tc.want)
			waitFor(t, ctx, "the error", `!document.getElementById("lab-error").hidden && document.getElementById("lab-error").textContent.includes(`+wantJS+`)`)
			if msg := evalJSON[string](t, ctx, `document.getElementById("lab-error").textContent`); !strings.Contains(msg, tc.want) {
				t.Errorf("error %q, want it to name %q", msg, tc.want)
			}
			if evalJSON[string](t, ctx, `document.getElementById("imp-result").dataset.stale ?? ""`) != "1" {
				t.Errorf("the last good result is not marked stale")
			}
		})
	}
	// Still alive: the example loads and is judged again.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("imp-example"))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the example judged", `document.getElementById("lab-error").hidden && !!document.querySelector('#imp-violations li[data-rule="no-message-after-cancel"]')`)
}

// Rule: the transcript becomes a scenario that reproduces it,
// opened in the playground; with redaction on (the default) its link
// carries no argument value or result text, and the simulated server
// breaks the same rule.
func TestImportToScenarioRedacted(t *testing.T) {
	ctx, _ := openTab(t, siteURL)
	navigate(t, ctx, siteURL+"/import/")
	waitReady(t, ctx)
	typeInto(t, ctx, "#imp-input", goSDKTranscripts["issue-7"])
	waitFor(t, ctx, "the import", `document.getElementById("lab-error").hidden && document.getElementById("events").textContent.includes("initialize")`)
	href := func() string {
		return evalJSON[string](t, ctx, `document.getElementById("imp-to-scenario").href`)
	}
	scenarioOf := func(link string) string {
		l, err := scenario.ParseLink(link)
		if err != nil {
			t.Fatalf("the scenario link %s: %v", link, err)
		}
		return string(l.Scenario)
	}
	redacted := href()
	if s := scenarioOf(redacted); strings.Contains(s, "context canceled") || !strings.Contains(s, transcript.Redacted) {
		t.Errorf("with redaction on, the scenario in the link is %s", s)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("imp-redact"))); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the link to change", fmt.Sprintf(`document.getElementById("imp-to-scenario").href !== %q`, redacted))
	if s := scenarioOf(href()); !strings.Contains(s, "context canceled") {
		t.Errorf("with redaction off, the scenario lacks the result text: %s", s)
	}
	// Follow the redacted link: the playground replays the violation.
	u, _ := url.Parse(redacted)
	navigate(t, ctx, redacted)
	waitReady(t, ctx)
	if !strings.HasSuffix(u.Path, "/playground/") {
		t.Fatalf("the scenario link goes to %s, not the playground", u.Path)
	}
	if got := evalJSON[map[string]string](t, ctx, checksJS)["no-message-after-cancel"]; got != "fail" {
		t.Errorf("the reproduced scenario: no-message-after-cancel %q, want fail", got)
	}
}
