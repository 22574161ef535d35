package transcript

// Readers of raw Streamable HTTP traffic: HAR 1.2 files
// and text dumps of requests and SSE responses. POST bodies (batches
// split) are the client's messages; SSE "data:" and JSON bodies the
// server's; a response stream that ends without the final response of the
// request that opened it is the client closing it; Mcp-Session-Id and
// MCP-Protocol-Version come from the headers.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcplab/mcplab/engine/jsonrpc"
	"github.com/mcplab/mcplab/engine/scenario"
	"github.com/mcplab/mcplab/engine/trace"
)

// harHeader is one HAR name/value pair.
type harHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// harFile is the part of HAR 1.2 the import reads.
type harFile struct {
	Log struct {
		// Creator names the tool that wrote the file (HAR 1.2
		// log.creator): a browser or an HTTP client records the client's
		// view, a logging proxy the wire's (harObserver).
		Creator struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"creator"`
		Entries []struct {
			StartedDateTime string  `json:"startedDateTime"`
			Time            float64 `json:"time"`
			Request         struct {
				Method   string      `json:"method"`
				Headers  []harHeader `json:"headers"`
				PostData *struct {
					Text string `json:"text"`
				} `json:"postData"`
			} `json:"request"`
			Response struct {
				Status  int         `json:"status"`
				Headers []harHeader `json:"headers"`
				Content struct {
					MimeType string `json:"mimeType"`
					Text     string `json:"text"`
					// Encoding is "base64" when Text is base64 (HAR 1.2:
					// browsers export some bodies that way).
					Encoding string `json:"encoding"`
				} `json:"content"`
			} `json:"response"`
		} `json:"entries"`
	} `json:"log"`
}

func header(hs []harHeader, name string) string {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return h.Value
		}
	}
	return ""
}

// httpExchange is one HTTP request and its response, as either format gives it.
type httpExchange struct {
	n          int // the HAR entry (1-based) or the dump's line of the request
	start, end int64
	timed      bool
	method     string
	reqHeaders func(string) string
	resHeaders func(string) string
	body       string // the request body
	status     int
	mime       string
	resBody    string
	aborted    bool // the response ended before it was complete
}

// parseHAR reads a HAR 1.2 file (FormatHAR). A HAR gives one time per
// exchange: the request's messages are placed at its start, a JSON
// response at its end, a response stream's messages spread across the
// exchange in their order (streamedAt), each carrying the exchange's
// interval. The observer is the client, or the wire when log.creator names
// a logging proxy (harObserver).
func parseHAR(data []byte, md *meta) ([]entry, error) {
	var h harFile
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, harSyntaxErr(data, err)
	}
	if len(h.Log.Entries) > MaxLines {
		return nil, &Error{Err: fmt.Errorf("%w: more than %s HAR entries", ErrTranscript, trace.Thousands(MaxLines))}
	}
	md.observer = harObserver(h.Log.Creator.Name)
	if name := strings.TrimSpace(h.Log.Creator.Name); name != "" {
		who := "the client that sent the requests"
		if md.observer == trace.ObserverWire {
			who = "an intermediary between client and server (the wire)"
		}
		md.notes = append(md.notes, fmt.Sprintf("HAR written by %s (log.creator): %s recorded it.", excerpt(name), who))
	}
	md.notes = append(md.notes, "HAR: one time per HTTP exchange; a response stream's messages happened somewhere inside their exchange (drawn spread across it, in their order), so they are ordered against a message of another exchange only when the intervals do not overlap.")
	var xs []httpExchange
	for i, e := range h.Log.Entries {
		t, err := time.Parse(time.RFC3339Nano, e.StartedDateTime)
		if err != nil {
			return nil, &Error{Line: i + 1, Err: fmt.Errorf("%w: HAR entry %d: startedDateTime %q is not an ISO 8601 time", ErrTranscript, i+1, e.StartedDateTime)}
		}
		resBody := e.Response.Content.Text
		if strings.EqualFold(e.Response.Content.Encoding, "base64") {
			b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(resBody))
			if err != nil {
				return nil, &Error{Line: i + 1, Err: fmt.Errorf("%w: HAR entry %d: response content.text is marked base64 but is not base64: %v", ErrTranscript, i+1, err)}
			}
			resBody = string(b)
		}
		req, res := e.Request.Headers, e.Response.Headers
		x := httpExchange{n: i + 1, start: t.UnixMilli(), end: t.UnixMilli() + int64(e.Time), timed: true, method: e.Request.Method,
			reqHeaders: func(k string) string { return header(req, k) }, resHeaders: func(k string) string { return header(res, k) },
			status: e.Response.Status, mime: e.Response.Content.MimeType, resBody: resBody, aborted: e.Response.Status == 0}
		if e.Request.PostData != nil {
			x.body = e.Request.PostData.Text
		}
		xs = append(xs, x)
	}
	sort.SliceStable(xs, func(a, b int) bool { return xs[a].start < xs[b].start })
	return exchanges(xs, md, "HAR entry")
}

// harProxies are the logging proxies and capture tools that write HAR
// files from between the two ends (lower case, matched as a part of
// log.creator.name): what they record is the wire, not one end's view.
var harProxies = []string{"charles", "fiddler", "mitmproxy", "proxyman", "http toolkit", "httptoolkit", "burp", "zap", "browsermob", "mcpsnoop", "mcplab proxy", "proxy"}

// harObserver is who recorded a HAR file whose log.creator.name is name:
// the wire for a logging proxy (harProxies), else the client (a browser's
// developer tools, the Inspector, an HTTP client, or no name).
func harObserver(name string) string {
	low := strings.ToLower(name)
	for _, p := range harProxies {
		if strings.Contains(low, p) {
			return trace.ObserverWire
		}
	}
	return trace.ObserverClient
}

// harSyntaxErr locates an encoding/json error of a HAR file's data: where
// its syntax breaks, or at its end when it is cut short (a download
// stopped, head -c), which it then says.
func harSyntaxErr(data []byte, err error) *Error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return &Error{Err: fmt.Errorf("%w: not a HAR file: %v", ErrTranscript, strings.TrimPrefix(err.Error(), "json: "))}
	}
	off := int(min(max(se.Offset, 0), int64(len(data))))
	if off == len(data) {
		// Unmarshal's "unexpected end of JSON input": the document ends
		// before its JSON value is complete.
		line, col := lineColumn(data, off)
		return &Error{Line: line, Column: col, Err: fmt.Errorf("%w: this HAR file is cut short: it ends before its JSON is complete (a download stopped, or only its start was copied)", ErrTranscript)}
	}
	// encoding/json's offset is just past the byte that broke it.
	line, col := lineColumn(data, max(off-1, 0))
	return &Error{Line: line, Column: col, Err: fmt.Errorf("%w: not a HAR file: %s", ErrTranscript, strings.TrimPrefix(se.Error(), "json: "))}
}

// lineColumn is the line and column (1-based; the column in characters)
// of byte off of data.
func lineColumn(data []byte, off int) (line, col int) {
	before := data[:off]
	line = 1 + bytes.Count(before, []byte{'\n'})
	if i := bytes.LastIndexByte(before, '\n'); i >= 0 {
		before = before[i+1:]
	}
	return line, 1 + utf8.RuneCount(before)
}

// exchanges turns exchanges into entries in time order.
func exchanges(xs []httpExchange, md *meta, what string) ([]entry, error) {
	md.transport = scenario.TransportHTTP
	md.notes = append(md.notes, "Transport streamable-http: HTTP exchanges.")
	var out []entry
	last := "" // the session of the exchange before: an exchange without the header stays in it
	for _, x := range xs {
		sess := x.reqHeaders("Mcp-Session-Id")
		if sess == "" {
			sess = x.resHeaders("Mcp-Session-Id")
		}
		if sess == "" {
			sess = last
		}
		last = sess
		if md.session == "" && sess != "" {
			md.session = sess
		}
		if v := x.reqHeaders("MCP-Protocol-Version"); v != "" && md.protocol == "" {
			md.protocol, md.protocolFrom = v, fmt.Sprintf("the MCP-Protocol-Version header (%s %d)", what, x.n)
			md.notes = append(md.notes, fmt.Sprintf("Protocol %s: from %s.", v, md.protocolFrom))
		}
		base := entry{line: x.n, timed: x.timed, at: x.start, session: sess}
		var asked []string // ids of the requests this exchange POSTed
		if body := strings.TrimSpace(x.body); body != "" {
			msgs := splitBatch([]byte(body))
			if msgs == nil {
				return nil, lineErr(x.n, "%s %d: the request body is not a JSON-RPC message or batch", what, x.n)
			}
			for _, m := range msgs {
				e := base
				e.from, e.message, e.note = trace.ActorClient, m, fmt.Sprintf("%s %d: %s request body.", what, x.n, x.method)
				if p, err := jsonrpc.Parse(m); err == nil && p.Kind == jsonrpc.Request {
					asked = append(asked, p.ID)
				}
				out = append(out, e)
			}
		}
		var got []json.RawMessage
		stream := strings.Contains(strings.ToLower(x.mime), "event-stream") || strings.HasPrefix(strings.TrimSpace(x.resBody), "data:") || strings.HasPrefix(strings.TrimSpace(x.resBody), "event:")
		if stream {
			got = sseMessages(x.resBody)
		} else if b := strings.TrimSpace(x.resBody); strings.HasPrefix(b, "{") || strings.HasPrefix(b, "[") {
			got = splitBatch([]byte(b))
		}
		answered := map[string]bool{}
		for _, m := range got {
			if p, err := jsonrpc.Parse(m); err == nil && (p.Kind == jsonrpc.Response || p.Kind == jsonrpc.Error) {
				answered[p.ID] = true
			}
		}
		complete := len(asked) > 0
		for _, id := range asked {
			complete = complete && answered[id]
		}
		for k, m := range got {
			e := base
			e.at = x.end
			e.from, e.message, e.note = trace.ActorServer, m, fmt.Sprintf("%s %d: response (placed at the exchange's end).", what, x.n)
			if x.timed {
				e.within = &trace.Span{From: x.start, To: x.end}
				e.at = streamedAt(x, stream, complete, k, len(got))
				e.note = fmt.Sprintf("%s %d: message %d of %d of the response, somewhere in the exchange (%d to %d ms; drawn spread across it, in order: its own time is not recorded).", what, x.n, k+1, len(got), x.start, x.end)
			}
			out = append(out, e)
		}
		if stream || x.aborted {
			for _, id := range asked {
				if !answered[id] {
					e := base
					e.at, e.kind, e.ref = x.end, kindClose, id
					e.note = fmt.Sprintf("%s %d: the response stream of request %s ended without its final response: the client closed it.", what, x.n, id)
					out = append(out, e)
				}
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].at < out[b].at })
	if md.session != "" {
		md.notes = append(md.notes, fmt.Sprintf("Session %s: the Mcp-Session-Id header.", md.session))
	}
	return out, nil
}

// streamedAt is where the k-th of n messages of exchange x's response is
// drawn: a JSON body whole at the exchange's end; a stream's messages
// spread evenly across the exchange, in their order, the last at its end
// when the stream is complete (its final response closes it), all strictly
// inside it when it was cut short. The HAR gives none of them a time of
// its own: the event's Within says so, and the checks read it.
func streamedAt(x httpExchange, stream, complete bool, k, n int) int64 {
	d := x.end - x.start
	if !stream || d <= 0 || n <= 0 {
		return x.end
	}
	slots := int64(n)
	if !complete {
		slots++
	}
	return x.start + d*int64(k+1)/slots
}

// sseMessages reads the JSON messages of an SSE body: each event's "data:"
// lines joined by newlines (comments, "event:", "id:" and "retry:" lines
// skipped).
func sseMessages(body string) []json.RawMessage {
	var out []json.RawMessage
	var data []string
	dispatch := func() {
		if len(data) > 0 {
			out = append(out, splitBatch([]byte(strings.Join(data, "\n")))...)
		}
		data = nil
	}
	for _, l := range strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n") {
		switch {
		case l == "":
			dispatch()
		case strings.HasPrefix(l, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(l, "data:"), " "))
		}
	}
	dispatch()
	return out
}

// parseHTTPDump reads a text dump of HTTP exchanges (FormatSSE): a request
// line ("POST /mcp HTTP/1.1"), headers, a blank line and the body, then the
// status line ("HTTP/1.1 200 OK"), headers and the body (JSON, or SSE
// events); or SSE lines alone, all the server's. It has no times; the
// observer is the wire.
func parseHTTPDump(data []byte, md *meta) ([]entry, error) {
	md.observer = trace.ObserverWire
	var xs []httpExchange
	var x *httpExchange
	const (
		reqHead = iota
		reqBody
		resHead
		resBody
	)
	state := resBody
	var reqH, resH map[string]string
	var body strings.Builder
	done := func() {
		if x == nil {
			return
		}
		if state == reqBody || state == reqHead {
			x.body = body.String()
		} else {
			x.resBody = body.String()
		}
		xs = append(xs, *x)
		x = nil
	}
	err := scanLines(data, func(n int, line string) error {
		switch {
		case httpHead.MatchString(line) && !strings.HasPrefix(line, "HTTP/"):
			done()
			reqH, resH = map[string]string{}, map[string]string{}
			rh, sh := reqH, resH
			f := strings.Fields(line)
			x = &httpExchange{n: n, method: f[0], reqHeaders: func(k string) string { return rh[strings.ToLower(k)] }, resHeaders: func(k string) string { return sh[strings.ToLower(k)] }}
			state = reqHead
			body.Reset()
		case httpHead.MatchString(line) && x != nil:
			x.body = body.String()
			body.Reset()
			fmt.Sscanf(strings.Fields(line)[1], "%d", &x.status)
			state = resHead
		case x == nil:
			// SSE lines alone: one httpExchange without a request.
			reqH, resH = map[string]string{}, map[string]string{"content-type": "text/event-stream"}
			rh, sh := reqH, resH
			x = &httpExchange{n: n, reqHeaders: func(k string) string { return rh[strings.ToLower(k)] }, resHeaders: func(k string) string { return sh[strings.ToLower(k)] }, mime: "text/event-stream"}
			state = resBody
			body.WriteString(line + "\n")
		case state == reqHead || state == resHead:
			if strings.TrimSpace(line) == "" {
				state++
				return nil
			}
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				return lineErr(n, "expected a header line \"Name: value\"")
			}
			if state == reqHead {
				reqH[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
			} else {
				resH[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
				if strings.EqualFold(strings.TrimSpace(k), "Content-Type") {
					x.mime = strings.TrimSpace(v)
				}
			}
		default:
			body.WriteString(line + "\n")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	done()
	md.notes = append(md.notes, "A text dump of HTTP exchanges: no times, events keep their order.")
	return exchanges(xs, md, "the exchange at line")
}
