package trace

// Transcript formats (Source.Format): what an imported trace was read from.
// transcript.Import sets them; templates names them in words.
const (
	FormatGoSDK = "go-sdk-logging" // the Go SDK's mcp.LoggingTransport log
	FormatJSONL = "jsonl"          // the lab's JSON Lines transcript
	// FormatHAR: an HTTP Archive; its events' Event.Line numbers its
	// entries, not lines.
	FormatHAR = "har"
)
